package composite

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// Asset paths inside [Options].Assets.
const (
	// AssetSkill is the bundled Outfitter skill.
	AssetSkill = "skills/outfitter/SKILL.md"
	// AssetPiExtension is the pi launch extension.
	AssetPiExtension = "pi/outfitter-extension.js"
	// AssetPiOnboarding is the pi extension's onboarding support module.
	AssetPiOnboarding = "pi/pi-extension/privateCatalogOnboarding.js"
	// AssetPiPolicy is the pi extension's shared policy module.
	AssetPiPolicy = "pi/shared/privateCatalogPolicy.cjs"
)

// Relative paths of Outfitter's generated entries in a composite.
const (
	profileJSONPath = "outfitter/profile.json"
	pluginDir       = "outfitter/plugin"
	pluginManifest  = "outfitter/plugin/.claude-plugin/plugin.json"
	pluginSkillDir  = "outfitter/plugin/skills/outfitter"
	extensionPath   = "outfitter/outfitter-extension.js"
)

// profileFile is outfitter/profile.json (both adapters).
func profileFile(in *Input) File {
	o := resolve.NewObject()
	p := in.Profile
	if p == nil {
		p = &resolve.Profile{}
	}
	o.Set("id", p.ID)
	if p.Label != nil {
		o.Set("label", *p.Label)
	}
	ctrl := p.Controls.Object
	if ctrl == nil {
		ctrl = resolve.NewObject()
	}
	o.Set("controls", ctrl)
	return File{RelativePath: profileJSONPath, Content: json2(o), SourceInputs: clone(in.ProfilePaths), Strategy: FileTransform}
}

func clone(s []string) []string { return append([]string(nil), s...) }

// SkillError reports a malformed bundled Outfitter skill.
type SkillError struct {
	// Msg is upstream's message.
	Msg string
}

// Error returns the message.
func (e *SkillError) Error() string { return e.Msg }

// pluginFiles returns the plugin manifest, the bundled skill and its
// references, or nothing when the assets hold no bundled skill.
func pluginFiles(assets fs.FS) ([]File, bool, error) {
	if assets == nil {
		return nil, false, nil
	}
	skill, err := readAsset(assets, AssetSkill)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read bundled skill: %w", err)
	}
	inputs := []string{AssetSkill}
	manifest := resolve.NewObject()
	manifest.Set("name", "outfitter")
	manifest.Set("description", "Outfitter self-documentation skill for Outfitter-managed launches.")
	files := []File{
		{RelativePath: pluginManifest, Content: json2(manifest), SourceInputs: inputs, Strategy: FileTransform},
		{RelativePath: pluginSkillDir + "/SKILL.md", Content: string(skill), SourceInputs: inputs, Strategy: FileTransform},
	}
	refs, err := skillReferences(skill)
	if err != nil {
		return nil, false, err
	}
	seen := map[string]bool{}
	for _, ref := range refs {
		base := path.Base(ref)
		if seen[base] {
			return nil, false, &SkillError{Msg: fmt.Sprintf("Outfitter skill references collide on basename '%s' in '%s'.", base, AssetSkill)}
		}
		seen[base] = true
		data, err := readAsset(assets, path.Clean(ref))
		if err != nil {
			return nil, false, &SkillError{Msg: fmt.Sprintf("Outfitter skill reference '%s' is missing at '%s'.", ref, path.Clean(ref))}
		}
		files = append(files, File{RelativePath: pluginSkillDir + "/references/" + base, Content: string(data), SourceInputs: []string{path.Clean(ref)}, Strategy: FileTransform})
	}
	return files, true, nil
}

// skillRefMemo remembers the references of the few bundled skills a
// process sees (their text is the key), so that every plan does not parse
// the same frontmatter again. It only ever holds the result of a pure
// function of its key.
var skillRefMemo struct {
	sync.Mutex
	m map[string][]string
}

// skillReferences reads the references list of a SKILL.md frontmatter.
func skillReferences(skill []byte) ([]string, error) {
	skillRefMemo.Lock()
	refs, ok := skillRefMemo.m[string(skill)]
	skillRefMemo.Unlock()
	if ok {
		return slices.Clone(refs), nil
	}
	refs, err := parseSkillReferences(skill)
	if err != nil {
		return nil, err
	}
	skillRefMemo.Lock()
	if skillRefMemo.m == nil || len(skillRefMemo.m) >= 16 {
		skillRefMemo.m = map[string][]string{}
	}
	skillRefMemo.m[string(skill)] = slices.Clone(refs)
	skillRefMemo.Unlock()
	return refs, nil
}

func parseSkillReferences(skill []byte) ([]string, error) {
	text := strings.ReplaceAll(string(skill), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return nil, nil
	}
	front, _, ok := strings.Cut(text[4:], "\n---")
	if !ok {
		return nil, nil
	}
	var doc struct {
		References any `yaml:"references"`
	}
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		return nil, &SkillError{Msg: fmt.Sprintf("Outfitter skill frontmatter in '%s' is not valid YAML: %v", AssetSkill, err)}
	}
	if doc.References == nil {
		return nil, nil
	}
	list, ok := doc.References.([]any)
	if !ok {
		return nil, &SkillError{Msg: fmt.Sprintf("Outfitter skill references in '%s' must be a list.", AssetSkill)}
	}
	var out []string
	for _, e := range list {
		m, ok := e.(map[string]any)
		f, ok2 := m["file"].(string)
		if !ok || !ok2 || f == "" {
			return nil, &SkillError{Msg: fmt.Sprintf("Outfitter skill reference entries in '%s' must be objects with a file.", AssetSkill)}
		}
		out = append(out, f)
	}
	return out, nil
}

// MCPError reports an unreadable or invalid pi .mcp.json fragment.
type MCPError struct {
	// Path is the fragment.
	Path string
	// Err is the read error, nil for content problems.
	Err error
	// NotObject reports valid JSON that is not an object.
	NotObject bool
}

// Error returns upstream's message.
func (e *MCPError) Error() string {
	switch {
	case e.Err != nil:
		return fmt.Sprintf("Could not read Pi MCP config '%s': %v", e.Path, e.Err)
	case e.NotObject:
		return fmt.Sprintf("Pi MCP config '%s' must contain a JSON object.", e.Path)
	}
	return fmt.Sprintf("Pi MCP config '%s' must contain valid JSON.", e.Path)
}

// Unwrap returns the read error.
func (e *MCPError) Unwrap() error { return e.Err }

// mcpFile merges the pi .mcp.json fragments of the profile folders.
func mcpFile(in *Input) (*File, error) {
	var merged any = resolve.NewObject()
	var inputs []string
	for _, folder := range in.ProfileFolders {
		p := path.Join(folder, "cli_specific", "pi", ".mcp.json")
		if _, err := vfs.Stat(in.FS, p); err != nil {
			continue
		}
		data, err := vfs.ReadFile(in.FS, p)
		if err != nil {
			return nil, &MCPError{Path: p, Err: err}
		}
		v, err := parseJSON(data)
		if err != nil {
			return nil, &MCPError{Path: p}
		}
		if _, ok := v.(*resolve.Object); !ok {
			return nil, &MCPError{Path: p, NotObject: true}
		}
		merged = mergeMCP(merged, v, nil)
		inputs = append(inputs, p)
	}
	if len(inputs) == 0 {
		return nil, nil
	}
	return &File{RelativePath: ".mcp.json", Content: json2(merged), SourceInputs: inputs, Strategy: FileMerge}, nil
}

// mergeMCP is the .mcp.json merge of §1.9.2: arrays merge by identity with
// the later occurrence winning, objects merge recursively except
// mcpServers.<name> entries, which the higher layer replaces.
func mergeMCP(lower, higher any, at []string) any {
	lo, lok := lower.(*resolve.Object)
	hi, hok := higher.(*resolve.Object)
	if !lok || !hok {
		return resolve.CloneValue(higher)
	}
	out := lo.Clone()
	for _, k := range hi.Keys() {
		hv, _ := hi.Get(k)
		lv, _ := out.Get(k)
		p := append(append([]string(nil), at...), k)
		switch hv := hv.(type) {
		case []any:
			base, _ := lv.([]any)
			out.Set(k, uniqueWinnerLast(append(append([]any(nil), base...), hv...)))
		case *resolve.Object:
			_, lobj := lv.(*resolve.Object)
			if lobj && !(len(p) == 2 && p[0] == "mcpServers") {
				out.Set(k, mergeMCP(lv, hv, p))
			} else {
				out.Set(k, hv.Clone())
			}
		default:
			out.Set(k, hv)
		}
	}
	return out
}

func uniqueWinnerLast(items []any) []any {
	ids := make([]string, len(items))
	last := map[string]int{}
	for i, it := range items {
		ids[i] = mcpItemIdentity(it)
		last[ids[i]] = i
	}
	out := []any{}
	for i, it := range items {
		if last[ids[i]] == i {
			out = append(out, resolve.CloneValue(it))
		}
	}
	return out
}

func mcpItemIdentity(v any) string {
	if o, ok := v.(*resolve.Object); ok {
		for _, k := range []string{"identity", "name", "id"} {
			if x, ok := o.Get(k); ok && x != nil {
				if s, ok := x.(string); ok {
					return "explicit:" + s
				}
				return "explicit:" + stableJSON(x)
			}
		}
	}
	return "anonymous:" + stableJSON(v)
}

// ReadError reports a pi settings or keybindings source that cannot be read
// or parsed.
type ReadError struct {
	// Msg is upstream's message.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message.
func (e *ReadError) Error() string { return e.Msg }

// Unwrap returns the underlying error.
func (e *ReadError) Unwrap() error { return e.Err }

// piSettingsFile reconciles pi settings.json packages with the profile's
// extensions; it returns nil when no reconciled copy is needed.
func piSettingsFile(in *Input, merged agentControls, settings StatePath) (*File, error) {
	if in.Home == "" || len(merged.Extensions) == 0 || settings.SourcePath == "" {
		return nil, nil
	}
	src := resolveAgainst(in.cwd(), settings.SourcePath)
	if _, err := vfs.Stat(in.FS, src); err != nil {
		return nil, nil
	}
	data, err := vfs.ReadFile(in.FS, src)
	if err != nil {
		return nil, &ReadError{Msg: fmt.Sprintf("Could not read pi settings file '%s': %v", settings.SourcePath, err), Err: err}
	}
	v, err := parseJSON(data)
	if err != nil {
		return nil, nil
	}
	obj, ok := v.(*resolve.Object)
	if !ok {
		return nil, nil
	}
	pv, _ := obj.Get("packages")
	packages, ok := pv.([]any)
	if !ok {
		return nil, nil
	}
	profileIDs := map[string]bool{}
	for _, e := range merged.Extensions {
		profileIDs[extensionIdentity(e, in.cwd())] = true
	}
	filtered := []any{}
	for _, p := range packages {
		if s, ok := packageSource(p); ok && profileIDs[extensionIdentity(s, in.cwd())] {
			continue
		}
		filtered = append(filtered, p)
	}
	if len(filtered) == len(packages) {
		return nil, nil
	}
	out := obj.Clone()
	out.Set("packages", filtered)
	inputs := append([]string{settings.SourcePath}, in.ProfilePaths...)
	return &File{RelativePath: "settings.json", Content: json2(out), SourceInputs: inputs, Strategy: FileTransform}, nil
}

// packageSource returns the source string of a pi package entry: the
// entry itself or its string "source" member.
func packageSource(p any) (string, bool) {
	if o, ok := p.(*resolve.Object); ok {
		p, _ = o.Get("source")
	}
	s, ok := p.(string)
	return s, ok
}

// piKeybindingsFile is the always-generated pi keybindings.json.
func piKeybindingsFile(in *Input, kb StatePath) (File, error) {
	source := resolve.NewObject()
	var inputs []string
	if kb.SourcePath != "" {
		src := resolveAgainst(in.cwd(), kb.SourcePath)
		_, statErr := vfs.Stat(in.FS, src)
		if statErr == nil && (in.Home != "" || insideAny(src, in.ProfileFolders)) {
			data, err := vfs.ReadFile(in.FS, src)
			if err != nil {
				return File{}, &ReadError{Msg: fmt.Sprintf("Could not read pi keybindings file '%s': %v", kb.SourcePath, err), Err: err}
			}
			v, err := parseJSON(data)
			if err != nil {
				return File{}, &ReadError{Msg: fmt.Sprintf("Could not parse pi keybindings file '%s': %v", kb.SourcePath, err), Err: err}
			}
			o, ok := v.(*resolve.Object)
			if !ok {
				return File{}, &ReadError{Msg: fmt.Sprintf("Pi keybindings file '%s' must contain a JSON object.", kb.SourcePath)}
			}
			source = o
			inputs = append(inputs, kb.SourcePath)
		}
	}
	inputs = append(inputs, in.ProfilePaths...)
	return File{RelativePath: "keybindings.json", Content: json2(rewriteKeybindings(source)), SourceInputs: inputs, Strategy: FileTransform}, nil
}

const (
	thinkingCycle = "app.thinking.cycle"
	reservedCycle = "ctrl+shift+t"
)

// rewriteKeybindings applies §1.9.4's rewrite.
func rewriteKeybindings(src *resolve.Object) *resolve.Object {
	out := resolve.NewObject()
	reserved := map[string]bool{normalizeKey("shift+tab"): true, normalizeKey(reservedCycle): true}
	for _, id := range src.Keys() {
		v, _ := src.Get(id)
		var keys []string
		switch v := v.(type) {
		case string:
			keys = []string{v}
		case []any:
			ok := true
			for _, e := range v {
				s, isStr := e.(string)
				if !isStr {
					ok = false
					break
				}
				keys = append(keys, s)
			}
			if !ok {
				continue
			}
		default:
			continue
		}
		if id == "cycleThinkingLevel" {
			id = thinkingCycle
		}
		var list []any
		if cur, ok := out.Get(id); ok {
			list = cur.([]any)
		} else {
			list = []any{}
		}
		for _, k := range keys {
			if reserved[normalizeKey(k)] || containsKey(list, k) {
				continue
			}
			list = append(list, k)
		}
		out.Set(id, list)
	}
	var cycle []any
	if cur, ok := out.Get(thinkingCycle); ok {
		cycle = cur.([]any)
	} else {
		cycle = []any{}
	}
	if !containsKey(cycle, reservedCycle) {
		cycle = append(cycle, reservedCycle)
	}
	out.Set(thinkingCycle, cycle)
	return out
}

func containsKey(list []any, k string) bool {
	nk := normalizeKey(k)
	for _, e := range list {
		if normalizeKey(e.(string)) == nk {
			return true
		}
	}
	return false
}

// normalizeKey is the comparison form of a key chord.
func normalizeKey(k string) string {
	var parts []string
	for _, p := range strings.Split(strings.ToLower(k), "+") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	key := parts[len(parts)-1]
	mods := map[string]bool{}
	for _, p := range parts[:len(parts)-1] {
		mods[p] = true
	}
	var out []string
	for _, m := range []string{"ctrl", "shift", "alt"} {
		if mods[m] {
			out = append(out, m)
		}
	}
	return strings.Join(append(out, key), "+")
}

func insideAny(p string, folders []string) bool {
	for _, f := range folders {
		if p == f || strings.HasPrefix(p, f+"/") {
			return true
		}
	}
	return false
}

// resolveAgainst returns p when absolute, else p joined to dir.
func resolveAgainst(dir, p string) string {
	if path.IsAbs(p) {
		if vfs.PlainRel(p[1:]) {
			return p
		}
		return path.Clean(p)
	}
	if vfs.PlainRel(p) && (dir == "/" || path.IsAbs(dir) && vfs.PlainRel(dir[1:])) {
		if dir == "/" {
			return "/" + p
		}
		return dir + "/" + p
	}
	return path.Join(dir, p)
}

// parentOf is path.Dir of a clean absolute path, without cleaning again.
func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
