package resolve

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
)

// Diagnostic is a warning found while resolving prompt includes.
type Diagnostic struct {
	// Severity is always "warning" here.
	Severity string
	// ProfileID is the declaring layer's id, or "<merged>" for the
	// flattened fallback.
	ProfileID string
	// Path is "<profile path>#/controls/append_system_prompt/<index>".
	Path    string
	Message string
}

var promptPathPattern = regexp.MustCompile(`(?i)^\S+/\S+\.(md|markdown|txt|prompt)$`)

// looksLikePath reports whether a raw prompt string looks like a file path
// that its author meant as an include.
func looksLikePath(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" || strings.ContainsAny(t, " \n\r\t") {
		return false
	}
	for _, p := range []string{"/", "./", "../", "~/"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return promptPathPattern.MatchString(t)
}

// IncludeRoot returns the directory that relative file includes of a layer
// resolve against: the nearest ancestor of the profile file's directory
// named ".outfitter" (itself when it is home/.outfitter, else its parent)
// or "outfitter" (its parent); failing both, the layer's source root.
func IncludeRoot(l Layer, home string) string {
	homeDir := path.Join(home, ".outfitter")
	for d := path.Dir(l.ProfilePath); ; d = path.Dir(d) {
		switch path.Base(d) {
		case ".outfitter":
			if d == homeDir {
				return d
			}
			return path.Dir(d)
		case "outfitter":
			return path.Dir(d)
		}
		if d == "/" || d == "." {
			return l.SourceRoot
		}
	}
}

// AppendSystemPrompts resolves the append_system_prompt entries for agent
// from the layers, highest first (an agent block replaces the generic
// value within its layer), falling back to the flattened profile when no
// layer has any. File includes are read through fsys; missing ones and
// raw strings that look like paths give warnings.
func (r *Result) AppendSystemPrompts(fsys FS, agent string) ([]string, []Diagnostic) {
	var prompts []string
	var diags []Diagnostic
	found := false
	for i := len(r.Layers) - 1; i >= 0; i-- {
		l := r.Layers[i]
		entries := agentPrompts(l.Profile.Controls.Object, agent)
		for _, e := range entries {
			found = true
			p, d := r.resolvePrompt(fsys, e, l.ID, l.ProfilePath, IncludeRoot(l, r.Home))
			prompts = append(prompts, p...)
			diags = append(diags, d...)
		}
	}
	if found || r.Profile == nil {
		return prompts, diags
	}
	for _, e := range agentPrompts(r.Profile.Controls.Object, agent) {
		p, d := r.resolvePrompt(fsys, e, "<merged>", "<profile>", "")
		prompts = append(prompts, p...)
		diags = append(diags, d...)
	}
	return prompts, diags
}

// agentPrompts is the agent block's value when defined, else the generic.
func agentPrompts(controls *Object, agent string) []PromptEntry {
	if a, ok := controls.val(agent).(*Object); ok {
		for _, k := range []string{"appendSystemPrompt", "append_system_prompt"} {
			if v, ok := a.Get(k); ok {
				return promptEntries(v)
			}
		}
	}
	for _, k := range []string{"appendSystemPrompt", "append_system_prompt"} {
		if v, ok := controls.Get(k); ok {
			return promptEntries(v)
		}
	}
	return nil
}

func (r *Result) resolvePrompt(fsys FS, e PromptEntry, id, profilePath, root string) ([]string, []Diagnostic) {
	warn := func(msg string) []Diagnostic {
		return []Diagnostic{{Severity: "warning", ProfileID: id, Path: profilePath + "#/controls/append_system_prompt/0", Message: msg}}
	}
	var file, base, notFound string
	switch e.Kind {
	case PromptText:
		if looksLikePath(e.Value) {
			return []string{e.Value}, warn(fmt.Sprintf("Raw append_system_prompt entry looks like a file path; use { file: '%s' }.", e.Value))
		}
		return []string{e.Value}, nil
	case PromptFile:
		base, notFound = root, fmt.Sprintf("Prompt file include '%s' was not found.", e.Value)
	default:
		base, notFound = r.Project, fmt.Sprintf("Prompt repo_file include '%s' was not found.", e.Value)
	}
	switch {
	case path.IsAbs(e.Value):
		file = path.Clean(e.Value)
	case base != "":
		file = path.Join(base, e.Value)
	default:
		return nil, warn(notFound)
	}
	data, err := vfs.ReadFile(fsys, file)
	if err != nil {
		return nil, warn(notFound)
	}
	return []string{string(data)}, nil
}
