package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/vfs"
)

// flatSlug returns the slug of a flat profile file called name: what the
// pattern ^(.+)\.ya?ml$ captures (a name ending in ".yml" or ".yaml" with
// something before it and no line feed, which "." does not match),
// checked without a regular expression.
func flatSlug(name string) (string, bool) {
	slug, ok := strings.CutSuffix(name, ".yaml")
	if !ok {
		slug, ok = strings.CutSuffix(name, ".yml")
	}
	if !ok || slug == "" || strings.IndexByte(slug, '\n') >= 0 {
		return "", false
	}
	return slug, true
}

// MaterializeSources maps every configured source to its local directory
// (see [SourceDirectory]) and tells whether that directory exists. The
// first unsafe repository subpath stops it with a [*RemotePathError].
func MaterializeSources(fsys FS, home string, sources []Source) ([]SourceDir, error) {
	out := make([]SourceDir, 0, len(sources))
	for _, s := range sources {
		dir, err := SourceDirectory(home, s)
		if err != nil {
			return nil, err
		}
		out = append(out, SourceDir{Source: s, Dir: dir, Synced: exists(fsys, dir)})
	}
	return out, nil
}

// LoadProfiles loads every profile of the given sources, in precedence
// order (later = higher). Remote sources that were never synced contribute
// nothing; every other problem is an issue, and loading continues. agents
// are the agents whose controls blocks the profiles may hold.
func LoadProfiles(fsys FS, sources []SourceDir, agents *Agents) ([]Layer, []*Issue) {
	return (*Cache)(nil).loadProfiles(fsys, sources, agents)
}

func (c *Cache) loadProfiles(fsys FS, sources []SourceDir, agents *Agents) ([]Layer, []*Issue) {
	var layers []Layer
	var issues []*Issue
	var snap *vfs.MemFS // one clone for every source scanned, see loadSource
	for _, s := range sources {
		if s.Source.Remote() && !s.Synced {
			continue
		}
		l, is := c.loadSource(fsys, s.Source, s.Dir, agents, &snap)
		if layers == nil {
			layers = l
		} else {
			layers = append(layers, l...)
		}
		issues = append(issues, is...)
	}
	return layers, issues
}

type candidate struct {
	slug, file, folder, resourceRoot string
	layout                           Layout
}

// loadSource scans one source directory, through the cache's source memo
// when fsys is a [*vfs.MemFS] (see sourcememo.go). A scan that misses the
// memo reads a clone of fsys, so that what is memoized is what the clone
// holds, whatever happens to fsys meanwhile; *snap holds that clone, made
// on the first miss, for the other sources of the same load.
func (cache *Cache) loadSource(fsys FS, src Source, dir string, agents *Agents, snap **vfs.MemFS) ([]Layer, []*Issue) {
	m, ok := fsys.(*vfs.MemFS)
	var memo *sourceMemo
	keep := false
	if ok && cache != nil {
		memo, keep = cache.sourceHit(m, dir, agents)
	}
	switch {
	case memo != nil:
		return sourceLayers(memo.found, nil, src, dir)
	case !keep:
		// A scan that is not kept lives on the stack when it is small.
		var buf [8]scanned
		found, issues, _ := cache.scanSource(fsys, dir, agents, buf[:0], false)
		if ok && cache != nil && len(issues) == 0 {
			cache.noteScan(nil, dir, nil, nil, len(found))
		}
		return sourceLayers(found, issues, src, dir)
	}
	if *snap == nil {
		*snap = m.Clone()
	}
	found, issues, plain := cache.scanSource(*snap, dir, agents, nil, true)
	if len(issues) == 0 {
		kept := *snap
		if !plain {
			kept = nil
		}
		cache.noteScan(kept, dir, agents, found, len(found))
	}
	return sourceLayers(found, issues, src, dir)
}

// scanned is one profile file of a source: its profile, or the issue
// that kept it from loading.
type scanned struct {
	cand    candidate
	profile *Profile
	issue   *Issue
}

// scanSource lists and parses, for agents, the profile files of dir,
// appending them to buf; issues are the problems with dir itself. With checkLinks, plain
// reports that every name read lies in dir's own subtree, through no
// link: dir is not a link, nor is any entry or folder profile.yml, and
// every read succeeded; without, it is false.
func (cache *Cache) scanSource(fsys FS, dir string, agents *Agents, buf []scanned, checkLinks bool) (found []scanned, issues []*Issue, plain bool) {
	info, err := vfs.Stat(fsys, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, vfs.ErrNotDir) {
			return nil, []*Issue{{File: dir, Message: "Profile source must be an existing directory."}}, false
		}
		return nil, []*Issue{{File: dir, Message: "Could not inspect profile source: " + err.Error(), Err: err}}, false
	}
	if !info.IsDir() {
		return nil, []*Issue{{File: dir, Message: "Profile source must be an existing directory."}}, false
	}
	cands, plain, err := candidates(fsys, dir, checkLinks)
	if err != nil {
		return nil, []*Issue{{File: dir, Message: "Could not read profile source entries: " + err.Error(), Err: err}}, false
	}
	found = slices.Grow(buf, len(cands))
	for _, c := range cands {
		if !ValidID(c.slug) {
			found = append(found, scanned{cand: c, issue: &Issue{File: c.file, Message: fmt.Sprintf("Profile slug '%s' is not a filesystem-safe Outfitter profile id.", c.slug)}})
			continue
		}
		data, err := ReadDocument(fsys, c.file)
		if _, ok := err.(*DocumentSizeError); ok {
			found = append(found, scanned{cand: c, issue: yamlIssue(yamlSize(err), c.file, "/profile.yml")})
			continue
		}
		if err != nil {
			plain = false
			found = append(found, scanned{cand: c, issue: &Issue{File: c.file, Message: "Could not read profile YAML: " + err.Error(), Err: err}})
			continue
		}
		p, issue := cache.parseProfile(data, c.slug, c.file, agents)
		found = append(found, scanned{cand: c, profile: p, issue: issue})
	}
	return found, issues, plain
}

// sourceLayers turns a scan into the layers of src, filtered by its only
// and except lists, and the issues, dir's own first; found is not
// modified, and every issue returned is the caller's own.
func sourceLayers(found []scanned, issues []*Issue, src Source, dir string) ([]Layer, []*Issue) {
	if len(issues) > 0 {
		return nil, issues
	}
	layers := make([]Layer, 0, len(found))
	for _, f := range found {
		if f.issue != nil {
			c := *f.issue
			issues = append(issues, &c)
			continue
		}
		if !keep(src, f.profile.ID) {
			continue
		}
		c := f.cand
		layers = append(layers, Layer{
			ID: f.profile.ID, Source: src, SourceRoot: dir, FolderPath: c.folder,
			ProfilePath: c.file, ResourceRoot: c.resourceRoot, Layout: c.layout, Profile: f.profile,
		})
	}
	return layers, issues
}

// candidates lists the profile files of a source in sorted-name order. Any
// entry that cannot be stat'ed (a dangling link) fails the whole source.
// With checkLinks, plain reports that neither dir, nor an entry, nor a
// folder's profile.yml is a link (as far as fsys can tell: without Lstat,
// never); without, it is false.
func candidates(fsys FS, dir string, checkLinks bool) (out []candidate, plain bool, err error) {
	entries, err := vfs.ReadDir(fsys, dir)
	if err != nil {
		return nil, false, err
	}
	var lstat vfs.LstatFS
	if checkLinks {
		lstat, plain = fsys.(vfs.LstatFS)
	}
	if plain {
		info, err := lstat.Lstat(dir)
		plain = err == nil && info.IsDir()
	}
	// An entry's type is its own unless it is a link, which Stat follows.
	type named struct {
		name string
		typ  fs.FileMode
	}
	list := make([]named, len(entries))
	for i, e := range entries {
		list[i] = named{e.Name(), e.Type()}
	}
	slices.SortFunc(list, func(a, b named) int { return jsstack.Compare(a.name, b.name) })
	for i := range list {
		if list[i].typ&fs.ModeSymlink == 0 {
			continue
		}
		plain = false
		info, err := vfs.Stat(fsys, vfs.Join(dir, list[i].name))
		if err != nil {
			return nil, false, err
		}
		list[i].typ = info.Mode().Type()
	}
	for _, e := range list {
		n := e.name
		switch {
		case e.typ.IsDir():
			entry, file := folderProfile(dir, n)
			if exists(fsys, file) {
				out = append(out, candidate{slug: n, file: file, folder: entry, resourceRoot: entry, layout: LayoutDirectory})
				if plain {
					info, err := lstat.Lstat(file)
					plain = err == nil && info.Mode().Type() != fs.ModeSymlink
				}
			}
		case e.typ.IsRegular():
			if slug, ok := flatSlug(n); ok && slug != "profile" {
				out = append(out, candidate{slug: slug, file: vfs.Join(dir, n), folder: dir, layout: LayoutFlatFile})
			}
		}
	}
	return out, plain, nil
}

// folderProfile returns vfs.Join(dir, name) and the profile.yml in it,
// one string holding both when dir is clean and absolute and name plain.
func folderProfile(dir, name string) (entry, file string) {
	// Both ways give the same two names, this one with one allocation:
	// mutants that send other names this way are equivalent.
	//mutants:equivalent CONDITIONALS_NEGATION@10 CONDITIONALS_BOUNDARY@29 CONDITIONALS_NEGATION@43
	if (dir == "/" || len(dir) > 1 && dir[0] == '/' && vfs.PlainRel(dir[1:])) && vfs.PlainRel(name) {
		file = vfs.Join(dir, name, "profile.yml")
		return file[:len(file)-len("/profile.yml")], file
	}
	entry = vfs.Join(dir, name)
	return entry, vfs.Join(entry, "profile.yml")
}

// keep applies a source's only and except filters to a parsed id.
func keep(s Source, id string) bool {
	if s.Only != nil && !slices.Contains(s.Only, id) {
		return false
	}
	return s.Except == nil || !slices.Contains(s.Except, id)
}

// LoadSource loads the profiles of one local source, as upstream's loader
// API does; a uri or github source cannot be loaded directly and yields
// the single issue "Only local profile sources can be loaded directly.".
// agents are the agents whose controls blocks the profiles may hold.
func LoadSource(fsys FS, s Source, agents *Agents) ([]Layer, []*Issue) {
	if s.Remote() {
		name := s.URI
		if name == "" {
			name = s.GitHub
		}
		return nil, []*Issue{{File: name, Message: "Only local profile sources can be loaded directly."}}
	}
	return (*Cache)(nil).loadSource(fsys, s, s.Path, agents, nil)
}
