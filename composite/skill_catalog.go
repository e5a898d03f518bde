package composite

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// skillRoot is a directory scanned for catalog skills (SkillCatalog.ts).
type skillRoot struct {
	// dir holds <id>/SKILL.md entries.
	dir string
	// refRoot is what the skills' file references resolve from: the
	// repository that holds them.
	refRoot string
	// origin names the root in shadowing warnings.
	origin string
}

// catalogSkill is a skill of the catalog.
type catalogSkill struct {
	id, dir, skillPath, refRoot, origin string
}

// shadowedSkill is a skill directory hidden by one of the same id in a
// root searched before it.
type shadowedSkill struct {
	selected *catalogSkill
	dir      string
}

// skillCatalog maps skill ids to the first directory supplying them.
type skillCatalog struct {
	entries  map[string]*catalogSkill
	shadowed []shadowedSkill
}

// SkillsDirectoryError reports a catalog skills directory that exists but
// cannot be listed (a file where the directory belongs, a link loop).
type SkillsDirectoryError struct {
	// Dir is the skills directory.
	Dir string
	// Err is the listing's error.
	Err error
}

// Error returns upstream's message, with the error as Node words it.
func (e *SkillsDirectoryError) Error() string {
	return fmt.Sprintf("Could not read skills directory '%s': %s", e.Dir, nodeError(e.Err, "scandir", e.Dir))
}

// Unwrap returns the listing's error.
func (e *SkillsDirectoryError) Unwrap() error { return e.Err }

// skillRoots lists the catalog roots in search order: the project's local
// and shared skills, each layer's bundled skills (the highest layer
// first), then each configured source that exists (the last one first),
// at <catalog>/skills where the catalog is the source, or its parent when
// the source is a "profiles" directory. A directory is searched once.
func skillRoots(fsys vfs.FS, res *resolve.Result) []skillRoot {
	var roots []skillRoot
	if res.Project != "" {
		roots = append(roots,
			skillRoot{path.Join(res.Project, ".outfitter", "local", "skills"), res.Project, "project-local skills"},
			skillRoot{path.Join(res.Project, ".outfitter", "skills"), res.Project, "project skills"})
	}
	for i := len(res.Layers) - 1; i >= 0; i-- {
		l := res.Layers[i]
		if l.ResourceRoot == "" {
			continue
		}
		at := l
		at.ProfilePath = path.Join(l.ResourceRoot, "profile.yml")
		roots = append(roots, skillRoot{
			dir:     path.Join(l.ResourceRoot, "skills"),
			refRoot: resolve.IncludeRoot(at, res.Home),
			origin:  fmt.Sprintf("profile '%s' skills", path.Base(l.ResourceRoot)),
		})
	}
	for i := len(res.Sources) - 1; i >= 0; i-- {
		s := res.Sources[i].Dir
		if s == "" {
			continue
		}
		if _, err := vfs.Stat(fsys, s); err != nil {
			continue
		}
		catalog := s
		if path.Base(s) == "profiles" {
			catalog = path.Dir(s)
		}
		ref := catalog
		if path.Base(catalog) == ".outfitter" {
			ref = path.Dir(catalog)
		}
		roots = append(roots, skillRoot{path.Join(catalog, "skills"), ref, fmt.Sprintf("source '%s'", s)})
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(roots, func(r skillRoot) bool {
		if seen[r.dir] {
			return true
		}
		seen[r.dir] = true
		return false
	})
}

// discoverSkills builds the catalog: in each root, the directories (or
// links to directories) named with a valid skill id that hold a SKILL.md,
// in name order; the first root supplying an id wins and the later ones
// are recorded as shadowed. A root that does not exist supplies nothing;
// one that cannot be listed fails with a [*SkillsDirectoryError].
func discoverSkills(fsys vfs.FS, res *resolve.Result) (*skillCatalog, error) {
	cat := &skillCatalog{entries: map[string]*catalogSkill{}}
	for _, r := range skillRoots(fsys, res) {
		list, err := vfs.ReadDir(fsys, r.dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &SkillsDirectoryError{Dir: r.dir, Err: err}
		}
		var names []string
		for _, e := range list {
			name := e.Name()
			dir := path.Join(r.dir, name)
			if !e.IsDir() {
				if e.Type()&fs.ModeSymlink == 0 {
					continue
				}
				if fi, err := vfs.Stat(fsys, dir); err != nil || !fi.IsDir() {
					continue
				}
			}
			if !validSkillID(name) {
				continue
			}
			if _, err := vfs.Stat(fsys, path.Join(dir, "SKILL.md")); err != nil {
				continue
			}
			names = append(names, name)
		}
		slices.SortFunc(names, jsCompare)
		for _, name := range names {
			dir := path.Join(r.dir, name)
			entry := &catalogSkill{id: name, dir: dir, skillPath: path.Join(dir, "SKILL.md"), refRoot: r.refRoot, origin: r.origin}
			switch selected, ok := cat.entries[name]; {
			case !ok:
				cat.entries[name] = entry
			case selected.dir != dir:
				cat.shadowed = append(cat.shadowed, shadowedSkill{selected: selected, dir: dir})
			}
		}
	}
	return cat, nil
}
