package composite

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// ExportEnv is the launch environment variable that names the exported
// system prompt.
const ExportEnv = "OUTFITTER_SYSTEM_PROMPT_EXPORT_PATH"

// A PromptExporter is an [Adapter] whose launch controls render the
// system prompt that profile_export writes beside the profile (upstream
// renders pi's, whatever the run's agent: [Pi] is the registry's
// exporter). [Registry.Exporter] finds it.
type PromptExporter interface {
	Adapter
	// RenderSystemPrompt returns the generated prompt file's content for
	// the resolved profile.
	RenderSystemPrompt(p *resolve.Profile) string
}

// Exporter returns the first registered adapter that is a
// [PromptExporter], or nil when none is: a run then exports nothing.
func (r *Registry) Exporter() PromptExporter {
	for _, a := range r.adapters {
		if e, ok := a.(PromptExporter); ok {
			return e
		}
	}
	return nil
}

// ExportError reports a system prompt export path that would leave the
// profile's folder. The run fails before anything is written.
type ExportError struct {
	// Path is the export path.
	Path string
	// Root is the profile's folder (or the directory of a flat profile).
	Root string
	// Real is where a link at Path leads, when that is what leaves Root.
	Real string
}

// Error returns upstream's message, or, for a link leading out of the
// root, one that names where it leads.
func (e *ExportError) Error() string {
	if e.Real != "" {
		return fmt.Sprintf("System prompt export path '%s' leads through a symbolic link to '%s', outside profile root '%s'; nothing was written.", e.Path, e.Real, e.Root)
	}
	return fmt.Sprintf("System prompt export path '%s' must stay inside profile root '%s'.", e.Path, e.Root)
}

// export is a planned system prompt export.
type export struct {
	// path is where the prompt is written; "" when nothing is exported.
	path string
	// write is the file written: path, or the file a link at path leads
	// to inside the root.
	write   string
	content string
	// notices are upstream's skip messages.
	notices []string
}

// planExport decides the system prompt export of a resolution
// (SystemPromptExport.ts): enabled by the profile's profile_export, else
// the settings', else off; skipped with a message when no loaded
// definition has the profile's id or when the owner (the last one) comes
// from a synced source or the cache; written beside the owner, as
// generated-system-prompt.md in its folder or <id>.generated-system-prompt.md
// beside a flat file, which must stay inside that directory. Unlike
// upstream, a link at the export path is followed only when it leads
// inside the directory; one that leads out fails the run with an
// [*ExportError] before anything is written (upstream writes through it).
func planExport(fsys vfs.FS, res *resolve.Result, exporter PromptExporter) (*export, error) {
	p := res.Profile
	if exporter == nil || p == nil {
		return &export{}, nil
	}
	enabled := res.Settings.ProfileExport
	if p.ProfileExport != nil {
		enabled = p.ProfileExport
	}
	if enabled == nil || !*enabled {
		return &export{}, nil
	}
	var owner *resolve.Layer
	for i := len(res.Layers) - 1; i >= 0; i-- {
		if l := &res.Layers[i]; l.Profile != nil && l.Profile.ID == p.ID {
			owner = l
			break
		}
	}
	if owner == nil {
		return &export{notices: []string{fmt.Sprintf("System prompt export skipped for profile '%s' because no source profile was found.", p.ID)}}, nil
	}
	if owner.Synced(res.Home) || strictlyInside(owner.ProfilePath, res.CacheDirectory) {
		return &export{notices: []string{fmt.Sprintf("System prompt export skipped for profile '%s' because its source is cache-backed. "+
			"Copy or symlink the profile into a local profile source to export generated prompts.", p.ID)}}, nil
	}
	root := owner.ResourceRoot
	if root == "" {
		root = path.Dir(owner.ProfilePath)
	}
	name := "generated-system-prompt.md"
	if owner.Layout == resolve.LayoutFlatFile {
		name = p.ID + "." + name
	}
	out := vfs.Join(root, name)
	if !strictlyInside(out, root) {
		return nil, &ExportError{Path: out, Root: root}
	}
	e := &export{path: out, write: out, content: exporter.RenderSystemPrompt(p)}
	if fi, err := vfs.Lstat(fsys, out); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		real, err := vfs.EvalSymlinks(fsys, out)
		if err != nil {
			target, _ := vfs.ReadLink(fsys, out)
			return nil, &ExportError{Path: out, Root: root, Real: target}
		}
		realRoot, err := vfs.EvalSymlinks(fsys, root)
		if err != nil || !vfs.Within(real, realRoot) {
			return nil, &ExportError{Path: out, Root: root, Real: real}
		}
		e.write = real
	}
	return e, nil
}

// strictlyInside reports whether p lies below dir (lexically, both
// absolute), dir itself excluded.
func strictlyInside(p, dir string) bool {
	p, dir = path.Clean(p), path.Clean(dir)
	return p != dir && (dir == "/" || under(p, dir))
}

// writeExport writes a planned export: the directory first, then the
// file, atomically and durably (it lands outside the composite root, in
// the profile's folder), keeping an existing file's mode. A file system
// that cannot replace a file durably fails the export rather than write
// it less safely.
func writeExport(fsys FS, e *export) error {
	if e.path == "" {
		return nil
	}
	if err := vfs.MkdirAllSynced(fsys, path.Dir(e.write), 0o755); err != nil {
		return &WriteError{Step: "export system prompt", Path: path.Dir(e.write), Err: err}
	}
	perm := fs.FileMode(0o644)
	if fi, err := vfs.Stat(fsys, e.write); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := vfs.ReplaceFile(fsys, e.write, []byte(e.content), perm); err != nil {
		return &WriteError{Step: "export system prompt", Path: e.write, Err: err}
	}
	return nil
}

// RenderSystemPrompt renders pi's launch prompt controls (the pi block's
// system_prompt and append_system_prompt over the generic ones; prompt
// file includes are left out) as upstream's generated prompt fallback.
func (Pi) RenderSystemPrompt(p *resolve.Profile) string {
	in := &Input{Agent: piID, Profile: p}
	m := in.Controls()
	system := "(none)"
	if m.SystemPrompt != nil {
		system = *m.SystemPrompt
	}
	lines := []string{
		"<!-- Generated by Outfitter before Pi runtime capture. The Pi launch extension overwrites this with ctx.getSystemPrompt(). -->",
		"# Generated Pi prompt fallback",
		"",
		"Profile: " + p.ID,
		"Prompt source: Pi launch controls",
		"",
		"## system_prompt",
		"",
		system,
		"",
	}
	n := 0
	for _, e := range m.AppendSystemPrompt {
		if e.Kind != resolve.PromptText {
			continue
		}
		lines = append(lines, fmt.Sprintf("## append_system_prompt[%d]", n), "", e.Value, "")
		n++
	}
	if n == 0 {
		lines = append(lines, "## append_system_prompt", "", "(none)", "")
	}
	return strings.Join(lines, "\n")
}
