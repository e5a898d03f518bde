package resolve

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
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

// The two patterns of upstream's looksLikePromptFilePath: a value that
// starts like a path (/, ./, ../ or ~/) and goes on, or one that has a
// slash and ends in a prompt file extension. A JavaScript "." is any
// character but a line terminator.
var (
	promptPathStart = regexp.MustCompile(`^(\.?\.?/|~/)[^\n\r\x{2028}\x{2029}]`)
	promptPathFile  = regexp.MustCompile(`(?i)[^\n\r\x{2028}\x{2029}]+/[^\n\r\x{2028}\x{2029}]+\.(md|markdown|txt|prompt)$`)
)

// looksLikePath reports whether a raw prompt string looks like a file path
// that its author meant as an include, as upstream's looksLikePromptFilePath
// decides: trimmed as JavaScript trims, it holds no space or newline and
// matches one of its patterns.
func looksLikePath(s string) bool {
	t := jsstack.Trim(s)
	if strings.ContainsAny(t, " \n") {
		return false
	}
	return promptPathStart.MatchString(t) || promptPathFile.MatchString(t)
}

// IncludeRoot returns the directory that relative file includes of a layer
// resolve against: the nearest ancestor of the profile file's directory
// named ".outfitter" (itself when it is home/.outfitter, else its parent)
// or "outfitter" (its parent); failing both, the layer's source root. For
// a layer that arrived by sync only the ancestors inside its checkout
// count (upstream's walk reaches home/.outfitter, outside it).
func IncludeRoot(l Layer, home string) string {
	homeDir := vfs.Join(home, ".outfitter")
	checkout := l.Checkout(home)
	for d := path.Dir(l.ProfilePath); ; d = path.Dir(d) {
		if checkout != "" && !vfs.Within(d, checkout) {
			return l.SourceRoot
		}
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
// from the result's layers (see [AppendSystemPrompts]), falling back to
// the flattened profile's entries for agent (its agent block's list, else
// the generic one).
func (r *Result) AppendSystemPrompts(fsys FS, agent string) ([]string, []Diagnostic) {
	var fallback []PromptEntry
	if r.Profile != nil {
		fallback = agentPrompts(&r.Profile.Controls, agent)
	}
	return AppendSystemPrompts(fsys, PromptIncludes{Layers: r.Layers, Home: r.Home, Project: r.Project}, agent, fallback)
}

// PromptIncludes is what append_system_prompt entries resolve against.
type PromptIncludes struct {
	// Layers are the loaded profile definitions, lowest precedence first.
	Layers []Layer
	// Home is the user's home directory (see [IncludeRoot]).
	Home string
	// Project is the project directory, which repo_file includes resolve
	// against; without one, a relative repo_file is not found.
	Project string
}

// AppendSystemPrompts resolves the append_system_prompt entries for agent
// as upstream's resolveAppendSystemPromptControl does: those of the layers,
// highest first, where a layer's agent block replaces its generic value;
// when no layer has any, the fallback entries (the merged controls'). A
// file include resolves against its layer's [IncludeRoot] (a fallback
// entry has none), a repo_file include against the project, an absolute
// one as it is; each is read through fsys, and one that cannot be read is
// reported as not found. A raw string that looks like a path is kept and
// reported too. The diagnostics of a layer's entry name the layer's file
// and index 0 (upstream resolves layered entries one at a time); those of
// a fallback entry name "<profile>" and the entry's index.
func AppendSystemPrompts(fsys vfs.FS, in PromptIncludes, agent string, fallback []PromptEntry) ([]string, []Diagnostic) {
	var prompts []string
	var diags []Diagnostic
	add := func(e PromptEntry, id, pointer, root, checkout string) {
		p, d := resolvePrompt(fsys, e, in.Project, root, checkout)
		prompts = append(prompts, p...)
		if d != "" {
			diags = append(diags, Diagnostic{Severity: "warning", ProfileID: id, Path: pointer, Message: d})
		}
	}
	found := false
	for i := len(in.Layers) - 1; i >= 0; i-- {
		l := in.Layers[i]
		if l.Profile == nil {
			continue
		}
		for _, e := range agentPrompts(&l.Profile.Controls, agent) {
			found = true
			add(e, l.ID, l.ProfilePath+"#/controls/append_system_prompt/0", IncludeRoot(l, in.Home), l.Checkout(in.Home))
		}
	}
	if found {
		return prompts, diags
	}
	for i, e := range fallback {
		add(e, "<merged>", fmt.Sprintf("<profile>#/controls/append_system_prompt/%d", i), "", "")
	}
	return prompts, diags
}

// agentPrompts is the entries of the controls' agent block when it has
// them, else the generic ones.
func agentPrompts(c *Controls, agent string) []PromptEntry {
	if a := c.Agent(agent); a != nil && a.AppendSystemPrompt != nil {
		return a.AppendSystemPrompt
	}
	return c.AppendSystemPrompt
}

// resolvePrompt returns the text of one entry and the message of its
// diagnostic, "" for none. root is the directory of relative file
// includes, "" for none; checkout is the checkout of a layer that arrived
// by sync, "" for another: its file includes must stay in it and its
// repo_file includes in the project, links resolved (see [Confine]).
func resolvePrompt(fsys vfs.FS, e PromptEntry, project, root, checkout string) ([]string, string) {
	var file, base, notFound string
	switch e.Kind {
	case PromptText:
		if looksLikePath(e.Value) {
			return []string{e.Value}, fmt.Sprintf("Raw append_system_prompt entry looks like a file path; use { file: '%s' }.", e.Value)
		}
		return []string{e.Value}, ""
	case PromptFile:
		base, notFound = root, fmt.Sprintf("Prompt file include '%s' was not found.", e.Value)
	default:
		base, notFound = project, fmt.Sprintf("Prompt repo_file include '%s' was not found.", e.Value)
	}
	switch {
	case path.IsAbs(e.Value):
		file = path.Clean(e.Value)
	case base != "":
		file = vfs.Join(base, e.Value)
	default:
		return nil, notFound
	}
	if checkout != "" {
		bound, kind := checkout, "file"
		if e.Kind != PromptFile {
			bound, kind = project, "repo_file"
		}
		if err := Confine(fsys, file, bound); err != nil {
			return nil, fmt.Sprintf("Prompt %s include '%s' of a synced profile is not read: %s.", kind, Quote(e.Value), err)
		}
	}
	data, err := ReadDocument(fsys, file)
	if _, ok := err.(*DocumentSizeError); ok {
		return nil, fmt.Sprintf("Prompt include '%s' is not read: %s.", Quote(e.Value), err)
	}
	if err != nil {
		return nil, notFound
	}
	return []string{string(data)}, ""
}
