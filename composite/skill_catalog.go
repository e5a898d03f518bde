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

// skillRoot is a directory scanned for catalog skills (SkillCatalog.ts).
// What names it and where its skills' references resolve from are worked
// out only for a root that supplies a skill.
type skillRoot struct {
	// dir holds <id>/SKILL.md entries.
	dir string
	// origin names a project root in shadowing warnings; "" for the
	// others.
	origin string
	// layer is the profile layer a bundled skills folder belongs to.
	layer *resolve.Layer
	// source is the configured source a source's skills belong to, and
	// catalog the directory holding its skills folder.
	source, catalog string
}

// refRoot is what the root's skills' file references resolve from: the
// repository that holds them.
func (r skillRoot) refRoot(res *resolve.Result) string {
	switch {
	case r.layer != nil:
		at := *r.layer
		at.ProfilePath = vfs.Join(r.layer.ResourceRoot, "profile.yml")
		return resolve.IncludeRoot(at, res.Home)
	case r.source != "":
		if path.Base(r.catalog) == ".outfitter" {
			return path.Dir(r.catalog)
		}
		return r.catalog
	}
	return res.Project
}

// name is the root's origin in shadowing warnings.
func (r skillRoot) name() string {
	switch {
	case r.layer != nil:
		return fmt.Sprintf("profile '%s' skills", path.Base(r.layer.ResourceRoot))
	case r.source != "":
		return fmt.Sprintf("source '%s'", r.source)
	}
	return r.origin
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
	return fmt.Sprintf("Could not read skills directory '%s': %s", e.Dir, jsstack.FSError(e.Err, "scandir", e.Dir))
}

// Unwrap returns the listing's error.
func (e *SkillsDirectoryError) Unwrap() error { return e.Err }

// skillRoots lists the catalog roots in search order: the project's local
// and shared skills, each layer's bundled skills (the highest layer
// first), then each configured source that exists (the last one first),
// at <catalog>/skills where the catalog is the source, or its parent when
// the source is a "profiles" directory. A directory is searched once.
func skillRoots(fsys vfs.FS, res *resolve.Result) []skillRoot {
	// A capacity: any other arithmetic here only allocates differently.
	roots := make([]skillRoot, 0, 2+len(res.Layers)+len(res.Sources))
	add := func(r skillRoot) {
		if !slices.ContainsFunc(roots, func(o skillRoot) bool { return o.dir == r.dir }) {
			roots = append(roots, r)
		}
	}
	if res.Project != "" {
		add(skillRoot{dir: vfs.Join(res.Project, ".outfitter", "local", "skills"), origin: "project-local skills"})
		add(skillRoot{dir: vfs.Join(res.Project, ".outfitter", "skills"), origin: "project skills"})
	}
	for i := len(res.Layers) - 1; i >= 0; i-- {
		if l := &res.Layers[i]; l.ResourceRoot != "" {
			add(skillRoot{dir: vfs.Join(l.ResourceRoot, "skills"), layer: l})
		}
	}
	for i := len(res.Sources) - 1; i >= 0; i-- {
		s := res.Sources[i].Dir
		if s == "" {
			continue
		}
		if _, err := vfs.Probe(fsys, s); err != nil {
			continue
		}
		catalog := s
		if path.Base(s) == "profiles" {
			catalog = path.Dir(s)
		}
		add(skillRoot{dir: vfs.Join(catalog, "skills"), source: s, catalog: catalog})
	}
	return roots
}

// discoverSkills builds the catalog: in each root, the directories (or
// links to directories) named with a valid skill id that hold a SKILL.md,
// in name order; the first root supplying an id wins and the later ones
// are recorded as shadowed. A root that does not exist supplies nothing;
// one that cannot be listed fails with a [*SkillsDirectoryError].
func discoverSkills(fsys vfs.FS, res *resolve.Result) (*skillCatalog, error) {
	cat := &skillCatalog{} // entries made with the first skill found
	for _, r := range skillRoots(fsys, res) {
		if _, err := vfs.Probe(fsys, r.dir); errors.Is(err, fs.ErrNotExist) {
			continue // what ReadDir would say, without its error
		}
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
			dir := vfs.Join(r.dir, name)
			if !e.IsDir() {
				if e.Type()&fs.ModeSymlink == 0 {
					continue
				}
				if mode, err := vfs.Probe(fsys, dir); err != nil || !mode.IsDir() {
					continue
				}
			}
			if !validSkillID(name) {
				continue
			}
			if _, err := vfs.Probe(fsys, vfs.Join(dir, "SKILL.md")); err != nil {
				continue
			}
			names = append(names, name)
		}
		slices.SortFunc(names, jsstack.Compare)
		refRoot, origin := "", ""
		// ">= 0" is the same: with no names, what is computed goes unused.
		if len(names) > 0 {
			refRoot, origin = r.refRoot(res), r.name()
		}
		for _, name := range names {
			dir := vfs.Join(r.dir, name)
			entry := &catalogSkill{id: name, dir: dir, skillPath: vfs.Join(dir, "SKILL.md"), refRoot: refRoot, origin: origin}
			switch selected, ok := cat.entries[name]; {
			case !ok:
				if cat.entries == nil {
					cat.entries = map[string]*catalogSkill{}
				}
				cat.entries[name] = entry
			case selected.dir != dir:
				cat.shadowed = append(cat.shadowed, shadowedSkill{selected: selected, dir: dir})
			}
		}
	}
	return cat, nil
}
