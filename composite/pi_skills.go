package composite

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// PiSkillError reports a pi skill source that cannot be inspected: a
// profile skills folder that cannot be listed, or a candidate skill file
// whose kind cannot be known (not merely missing).
type PiSkillError struct {
	// Msg is upstream's message.
	Msg string
	// Err is the file system error.
	Err error
}

// Error returns upstream's message.
func (e *PiSkillError) Error() string { return e.Msg }

// Unwrap returns the file system error.
func (e *PiSkillError) Unwrap() error { return e.Err }

// piSkillSources lists pi's --skill sources (PiSkillSources.ts), each
// once: the bundled Outfitter skill, the string entries of the skills
// merged for pi (a relative one resolved against the shared skill roots
// of the profile layers when it names a skill there), then the skills
// found in each profile folder's skills and cli_specific/pi/skills. A
// string entry declared by synced content only is left out, with a
// warning, unless it lies in its checkout ([Input.syncedPath]), and so is
// a skill found in a checkout that is, or holds, a link leading out of it
// ([confineTree]).
func piSkillSources(in *Input, c *Composite, m Controls) ([]string, []string, error) {
	var out, warnings []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if hasAsset(in.Assets, AssetSkill) {
		add(vfs.Join(c.Root, pluginSkillDir))
	}
	var roots []string
	for _, s := range m.Skills {
		if s.Mapping {
			continue
		}
		if roots == nil {
			roots = sharedSkillRoots(in.Layers)
		}
		src, err := piSkillSource(in.FS, s.Value, roots)
		if err != nil {
			return nil, nil, err
		}
		id := skillIdentity(s, in.cwd())
		if w := in.syncedPath("skill", s.Value, src, func(c *resolve.Controls) bool {
			return slices.ContainsFunc(c.Skills, func(e resolve.Skill) bool { return skillIdentity(e, in.cwd()) == id })
		}); w != "" {
			warnings = append(warnings, w)
			continue
		}
		add(src)
	}
	for _, folder := range in.ProfileFolders {
		for _, f := range [...]struct{ dir, what string }{
			{vfs.Join(folder, "skills"), "profile skills folder"},
			{vfs.Join(folder, "cli_specific", piID, "skills"), "profile Pi skills folder"},
		} {
			found, err := folderSkills(in.FS, f.dir, f.what)
			if err != nil {
				return nil, nil, err
			}
			for _, s := range found {
				if checkout := resolve.SyncedCheckout(in.Home, s); checkout != "" {
					err := confineTree(in.FS, s, checkout)
					if _, ok := errors.AsType[*resolve.EscapeError](err); ok {
						warnings = append(warnings, fmt.Sprintf("%s skill '%s' of a synced profile is left out: %s.", in.Agent, resolve.Quote(s), err))
						continue
					}
					if err != nil {
						return nil, nil, err
					}
				}
				add(s)
			}
		}
	}
	return out, warnings, nil
}

// sharedSkillRoots are the directories a relative skill entry may name a
// skill in: for each layer, its source root's parent, its source root and
// its profile folder, each directory once.
func sharedSkillRoots(layers []resolve.Layer) []string {
	roots := []string{}
	add := func(d string) {
		if !slices.Contains(roots, d) {
			roots = append(roots, d)
		}
	}
	for _, l := range layers {
		if l.SourceRoot != "" {
			add(path.Dir(l.SourceRoot))
			add(l.SourceRoot)
		}
		if l.ResourceRoot != "" {
			add(l.ResourceRoot)
		}
	}
	return roots
}

// piSkillSource resolves a skill entry: an absolute one is kept, a
// relative one becomes the first <root>/<entry> that is a file or a
// directory holding a SKILL.md file, else it is kept as written.
func piSkillSource(fsys vfs.FS, source string, roots []string) (string, error) {
	if path.IsAbs(source) {
		return source, nil
	}
	for _, root := range roots {
		cand := vfs.Join(root, source)
		fi, err := vfs.Stat(fsys, cand)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // nor is there a SKILL.md below it
		case err != nil:
			return "", inspectError(cand, err)
		case fi.Mode().IsRegular():
			return cand, nil
		}
		ok, err := isFile(fsys, vfs.Join(cand, "SKILL.md"))
		if err != nil {
			return "", err
		}
		if ok {
			return cand, nil
		}
	}
	return source, nil
}

// folderSkills lists the directories (not links to them) of a skills
// folder that hold a SKILL.md file, sorted; a missing folder has none.
func folderSkills(fsys vfs.FS, dir, what string) ([]string, error) {
	if _, err := vfs.Probe(fsys, dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil // what ReadDir would say, without its error
	}
	list, err := vfs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &PiSkillError{Msg: fmt.Sprintf("Could not read %s '%s': %s", what, dir, jsstack.FSError(err, "scandir", dir)), Err: err}
	}
	var out []string
	for _, e := range list {
		if !e.IsDir() {
			continue
		}
		p := vfs.Join(dir, e.Name())
		ok, err := isFile(fsys, vfs.Join(p, "SKILL.md"))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, jsstack.Compare)
	return out, nil
}

// isFile reports whether name leads to a regular file; a missing name is
// not one, any other failure is a [*PiSkillError].
func isFile(fsys vfs.FS, name string) (bool, error) {
	fi, err := vfs.Stat(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, inspectError(name, err)
	}
	return fi.Mode().IsRegular(), nil
}

// inspectError is upstream's error for a file whose kind cannot be known.
func inspectError(name string, err error) error {
	return &PiSkillError{Msg: fmt.Sprintf("Could not inspect file '%s': %s", name, jsstack.FSError(err, "stat", name)), Err: err}
}
