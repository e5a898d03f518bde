package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/outfitter-go/vfsim/vfs"
)

var flatFilePattern = regexp.MustCompile(`^(.+)\.ya?ml$`)

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
	for _, s := range sources {
		if s.Source.Remote() && !s.Synced {
			continue
		}
		l, is := c.loadSource(fsys, s.Source, s.Dir, agents)
		layers = append(layers, l...)
		issues = append(issues, is...)
	}
	return layers, issues
}

type candidate struct {
	slug, file, folder, resourceRoot string
	layout                           Layout
}

// loadSource scans one source directory.
func (cache *Cache) loadSource(fsys FS, src Source, dir string, agents *Agents) ([]Layer, []*Issue) {
	info, err := vfs.Stat(fsys, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, vfs.ErrNotDir) {
			return nil, []*Issue{{File: dir, Message: "Profile source must be an existing directory."}}
		}
		return nil, []*Issue{{File: dir, Message: "Could not inspect profile source: " + err.Error(), Err: err}}
	}
	if !info.IsDir() {
		return nil, []*Issue{{File: dir, Message: "Profile source must be an existing directory."}}
	}
	cands, err := candidates(fsys, dir)
	if err != nil {
		return nil, []*Issue{{File: dir, Message: "Could not read profile source entries: " + err.Error(), Err: err}}
	}
	var layers []Layer
	var issues []*Issue
	for _, c := range cands {
		if !ValidID(c.slug) {
			issues = append(issues, &Issue{File: c.file, Message: fmt.Sprintf("Profile slug '%s' is not a filesystem-safe Outfitter profile id.", c.slug)})
			continue
		}
		data, err := vfs.ReadFile(fsys, c.file)
		if err != nil {
			issues = append(issues, &Issue{File: c.file, Message: "Could not read profile YAML: " + err.Error(), Err: err})
			continue
		}
		p, issue := cache.parseProfile(data, c.slug, c.file, agents)
		if issue != nil {
			issues = append(issues, issue)
			continue
		}
		if !keep(src, p.ID) {
			continue
		}
		layers = append(layers, Layer{
			ID: p.ID, Source: src, SourceRoot: dir, FolderPath: c.folder,
			ProfilePath: c.file, ResourceRoot: c.resourceRoot, Layout: c.layout, Profile: p,
		})
	}
	return layers, issues
}

// candidates lists the profile files of a source in sorted-name order. Any
// entry that cannot be stat'ed (a dangling link) fails the whole source.
func candidates(fsys FS, dir string) ([]candidate, error) {
	entries, err := vfs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
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
	slices.SortFunc(list, func(a, b named) int { return compareUTF16(a.name, b.name) })
	for i := range list {
		if list[i].typ&fs.ModeSymlink == 0 {
			continue
		}
		info, err := vfs.Stat(fsys, path.Join(dir, list[i].name))
		if err != nil {
			return nil, err
		}
		list[i].typ = info.Mode().Type()
	}
	var out []candidate
	for _, e := range list {
		n := e.name
		entry := path.Join(dir, n)
		switch {
		case e.typ.IsDir():
			file := path.Join(entry, "profile.yml")
			if exists(fsys, file) {
				out = append(out, candidate{slug: n, file: file, folder: entry, resourceRoot: entry, layout: LayoutDirectory})
			}
		case e.typ.IsRegular():
			m := flatFilePattern.FindStringSubmatch(n)
			if m != nil && m[1] != "profile" {
				out = append(out, candidate{slug: m[1], file: entry, folder: dir, layout: LayoutFlatFile})
			}
		}
	}
	return out, nil
}

// compareUTF16 orders strings by UTF-16 code units, as JavaScript's
// default sort does.
func compareUTF16(a, b string) int {
	if ascii(a) && ascii(b) { // one UTF-16 unit per byte
		return strings.Compare(a, b)
	}
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if ra[i] == rb[i] {
			continue
		}
		return utf16Key(ra[i]) - utf16Key(rb[i])
	}
	return len(ra) - len(rb)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// utf16Key maps a rune to an order-preserving key of its UTF-16 encoding:
// supplementary runes (high surrogate first) sort after U+D7FF and before
// U+E000.
func utf16Key(r rune) int {
	switch {
	case r < 0xD800:
		return int(r)
	case r >= 0x10000:
		return 0xD800 + int(r)
	}
	return int(r) + 0x110000
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
	return (*Cache)(nil).loadSource(fsys, s, s.Path, agents)
}
