package composite

import (
	"fmt"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// The files pi's composite generates from durable inputs (§1.9.2–§1.9.4):
// the merged .mcp.json, the reconciled settings.json and the rewritten
// keybindings.json.

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
		p := vfs.Join(folder, "cli_specific", piID, ".mcp.json")
		if _, err := vfs.Probe(in.FS, p); err != nil {
			continue
		}
		data, err := resolve.ReadDocument(in.FS, p)
		if err != nil {
			return nil, &MCPError{Path: p, Err: err}
		}
		v, err := jsstack.ParseJSON(data)
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
func piSettingsFile(in *Input, merged Controls, settings StatePath) (*File, error) {
	if in.Home == "" || len(merged.Extensions) == 0 || settings.SourcePath == "" {
		return nil, nil
	}
	src := resolveAgainst(in.cwd(), settings.SourcePath)
	if _, err := vfs.Stat(in.FS, src); err != nil {
		return nil, nil
	}
	data, err := resolve.ReadDocument(in.FS, src)
	if err != nil {
		return nil, &ReadError{Msg: fmt.Sprintf("Could not read pi settings file '%s': %v", settings.SourcePath, err), Err: err}
	}
	v, err := jsstack.ParseJSON(data)
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
		_, statErr := vfs.Probe(in.FS, src)
		if statErr == nil && (in.Home != "" || insideAny(src, in.ProfileFolders)) {
			data, err := resolve.ReadDocument(in.FS, src)
			if err != nil {
				return File{}, &ReadError{Msg: fmt.Sprintf("Could not read pi keybindings file '%s': %v", kb.SourcePath, err), Err: err}
			}
			v, err := jsstack.ParseJSON(data)
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
			nk := normalizeKey(k)
			if reservedChords[nk] || containsKey(list, nk) {
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
	if !containsKey(cycle, reservedCycleKey) {
		cycle = append(cycle, reservedCycle)
	}
	out.Set(thinkingCycle, cycle)
	return out
}

// reservedChords are the normalized chords no binding may take; read
// only.
var reservedChords = map[string]bool{normalizeKey("shift+tab"): true, reservedCycleKey: true}

// reservedCycleKey is the normalized reservedCycle.
var reservedCycleKey = normalizeKey(reservedCycle)

// containsKey reports whether list holds a chord whose normalized form
// is nk.
func containsKey(list []any, nk string) bool {
	for _, e := range list {
		if normalizeKey(e.(string)) == nk {
			return true
		}
	}
	return false
}

// normalizeKey is the comparison form of a key chord: lower case, parts
// split at "+" and trimmed, empty ones dropped; the last part is the key,
// and of the others only ctrl, shift and alt count, in that order.
func normalizeKey(k string) string {
	var ctrl, shift, alt bool
	key := ""
	for p := range strings.SplitSeq(strings.ToLower(k), "+") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		// The part before this one was a modifier.
		switch key {
		case "ctrl":
			ctrl = true
		case "shift":
			shift = true
		case "alt":
			alt = true
		}
		key = p
	}
	if !ctrl && !shift && !alt {
		return key
	}
	var b strings.Builder
	b.Grow(len("ctrl+shift+alt+") + len(key)) // a capacity only
	for _, m := range [...]struct {
		on   bool
		name string
	}{{ctrl, "ctrl+"}, {shift, "shift+"}, {alt, "alt+"}} {
		if m.on {
			b.WriteString(m.name)
		}
	}
	b.WriteString(key)
	return b.String()
}
