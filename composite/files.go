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

// AssetSkill is the path of the bundled Outfitter skill inside
// [Options].Assets.
const AssetSkill = "skills/outfitter/SKILL.md"

// Relative paths of Outfitter's generated entries in a composite.
const (
	profileJSONPath = "outfitter/profile.json"
	pluginDir       = "outfitter/plugin"
	pluginManifest  = "outfitter/plugin/.claude-plugin/plugin.json"
	pluginSkillDir  = "outfitter/plugin/skills/outfitter"
)

// ProfileFile returns outfitter/profile.json, the resolved profile's id,
// label and controls, which every agent's composite holds.
func (in *Input) ProfileFile() File {
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

// PluginFiles returns the files of Outfitter's plugin below
// outfitter/plugin: its manifest, the bundled skill and the skill's
// references, or nothing when the assets hold no bundled skill.
func (in *Input) PluginFiles() ([]File, error) {
	assets := in.Assets
	if assets == nil {
		return nil, nil
	}
	skill, err := readAssetText(assets, AssetSkill)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read bundled skill: %w", err)
	}
	inputs := []string{AssetSkill}
	refs, err := skillReferences(skill)
	if err != nil {
		return nil, err
	}
	files := make([]File, 0, 2+len(refs)) // a capacity only
	files = append(files,
		File{RelativePath: pluginManifest, Content: pluginManifestJSON, SourceInputs: inputs, Strategy: FileTransform},
		File{RelativePath: pluginSkillDir + "/SKILL.md", Content: skill, SourceInputs: inputs, Strategy: FileTransform},
	)
	seen := make(map[string]bool, len(refs))
	for _, ref := range refs {
		base := path.Base(ref)
		if seen[base] {
			return nil, &SkillError{Msg: fmt.Sprintf("Outfitter skill references collide on basename '%s' in '%s'.", base, AssetSkill)}
		}
		seen[base] = true
		data, err := readAssetText(assets, path.Clean(ref))
		if err != nil {
			return nil, &SkillError{Msg: fmt.Sprintf("Outfitter skill reference '%s' is missing at '%s'.", ref, path.Clean(ref))}
		}
		files = append(files, File{RelativePath: pluginSkillDir + "/references/" + base, Content: data, SourceInputs: []string{path.Clean(ref)}, Strategy: FileTransform})
	}
	return files, nil
}

// pluginManifestJSON is the content of Outfitter's plugin manifest.
var pluginManifestJSON = func() string {
	manifest := resolve.NewObject()
	manifest.Set("name", "outfitter")
	manifest.Set("description", "Outfitter self-documentation skill for Outfitter-managed launches.")
	return json2(manifest)
}()

// skillRefMemo remembers the references of the few bundled skills a
// process sees (their text is the key), so that every plan does not parse
// the same frontmatter again. It only ever holds the result of a pure
// function of its key.
var skillRefMemo struct {
	sync.Mutex
	m map[string][]string
}

// skillReferences reads the references list of a SKILL.md frontmatter.
func skillReferences(skill string) ([]string, error) {
	skillRefMemo.Lock()
	refs, ok := skillRefMemo.m[skill]
	skillRefMemo.Unlock()
	if ok {
		return slices.Clone(refs), nil
	}
	refs, err := parseSkillReferences(skill)
	if err != nil {
		return nil, err
	}
	skillRefMemo.Lock()
	// The memo's bound changes what is parsed again, never a result.
	if skillRefMemo.m == nil || len(skillRefMemo.m) >= 16 {
		skillRefMemo.m = map[string][]string{}
	}
	skillRefMemo.m[skill] = slices.Clone(refs)
	skillRefMemo.Unlock()
	return refs, nil
}

func parseSkillReferences(skill string) ([]string, error) {
	text := strings.ReplaceAll(skill, "\r\n", "\n")
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

func insideAny(p string, folders []string) bool {
	for _, f := range folders {
		if p == f || under(p, f) {
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
	return vfs.Join(dir, p)
}

// resolveAllAgainst returns resolveAgainst(dir, p) for each (p, true) of
// name(0) to name(n-1), "" for each (p, false). The plain relative names
// of a clean absolute dir are joined as parts of one string, one
// allocation for them all.
func resolveAllAgainst(dir string, n int, name func(i int) (string, bool)) []string {
	out := make([]string, n)
	prefix := len(dir) + 1 // dir and a slash
	switch {
	case dir == "/":
		prefix = 1
	case !path.IsAbs(dir) || !vfs.PlainRel(dir[1:]):
		prefix = 0 // no part is made at once
	}
	joined := func(i int) (string, bool) {
		p, ok := name(i)
		return p, ok && prefix > 0 && vfs.PlainRel(p)
	}
	size := 0
	for i := range n {
		if p, ok := joined(i); ok {
			size += prefix + len(p)
		} else if p, ok := name(i); ok {
			out[i] = resolveAgainst(dir, p)
		}
	}
	if size == 0 {
		return out
	}
	var b strings.Builder
	b.Grow(size)
	for i := range n {
		if p, ok := joined(i); ok {
			b.WriteString(dir[:prefix-1])
			b.WriteByte('/')
			b.WriteString(p)
		}
	}
	all, start := b.String(), 0
	for i := range n {
		if p, ok := joined(i); ok {
			end := start + prefix + len(p)
			out[i], start = all[start:end], end
		}
	}
	return out
}

// under reports whether p starts with dir and a slash, as
// strings.HasPrefix(p, dir+"/") does, without making dir+"/".
func under(p, dir string) bool {
	return len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir
}

// parentOf is path.Dir of a clean absolute path, without cleaning again.
func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
