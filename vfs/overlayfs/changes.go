package overlayfs

import (
	"path"
	"slices"

	"github.com/outfitter-go/vfsim/vfs"
)

// Changes returns what the overlay changed relative to its lower layer:
// every durable change a real run against the lower file system would
// make. It equals vfs.Diff of the lower layer's [vfs.Snapshot] of "/" and
// the overlay's, keyed by relative path ("a/b.txt"; the root itself is not
// an entry), but reads only what the overlay touched: the upper layer, the
// lower entries at the same names, and the lower subtrees that were
// removed. Copied-up entries that are equal to their lower originals (same
// type, mode, content and target) are not changes.
func (f *FS) Changes() (vfs.Delta, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	d := vfs.Delta{Added: map[string]vfs.Entry{}, Changed: map[string]vfs.Change{}, Removed: []string{}}
	up, err := vfs.Snapshot(f.upper, "/")
	if err != nil {
		return vfs.Delta{}, err
	}
	names := up.Paths()
	for p := range f.whiteouts {
		if p != "/" {
			if _, ok := up[p[1:]]; !ok {
				names = append(names, p[1:])
			}
		}
	}
	slices.Sort(names)
	c := &changes{f: f, d: d, lowerDirs: map[string]bool{"": true}, removed: map[string]bool{}}
	for _, p := range names {
		if err := c.compare(p); err != nil {
			return vfs.Delta{}, err
		}
	}
	for p := range c.removed {
		d.Removed = append(d.Removed, p)
	}
	slices.Sort(d.Removed)
	return d, nil
}

// changes is the state of one [FS.Changes] call.
type changes struct {
	f         *FS
	d         vfs.Delta
	lowerDirs map[string]bool // relative name -> whether the lower tree has a directory there
	removed   map[string]bool
}

// lowerDir reports whether the lower tree (as its snapshot sees it: no
// link followed) has a directory at the relative name rel.
func (c *changes) lowerDir(rel string) (bool, error) {
	if ok, known := c.lowerDirs[rel]; known {
		return ok, nil
	}
	ok, err := c.lowerHas(rel)
	if err == nil && ok {
		fi, lerr := vfs.Lstat(c.f.lower, "/"+rel)
		switch {
		case lerr == nil:
			ok = fi.IsDir()
		case missing(lerr):
			ok = false
		default:
			err = lerr
		}
	}
	if err != nil {
		return false, err
	}
	c.lowerDirs[rel] = ok
	return ok, nil
}

// lowerHas reports whether every ancestor of rel is a directory of the
// lower tree, so that the lower entry at rel (if any) is part of it.
func (c *changes) lowerHas(rel string) (bool, error) {
	dir := path.Dir(rel)
	if dir == "." {
		return true, nil
	}
	return c.lowerDir(dir)
}

// lowerEntry returns the lower tree's entry at rel.
func (c *changes) lowerEntry(rel string) (vfs.Entry, bool, error) {
	if ok, err := c.lowerHas(rel); err != nil || !ok {
		return vfs.Entry{}, false, err
	}
	e, err := vfs.EntryOf(c.f.lower, "/"+rel)
	if err != nil {
		if missing(err) {
			return vfs.Entry{}, false, nil
		}
		return vfs.Entry{}, false, err
	}
	return e, true, nil
}

// mergedEntry returns the overlay's entry at rel.
func (c *changes) mergedEntry(rel string) (vfs.Entry, bool, error) {
	e, err := vfs.EntryOf(view{c.f}, "/"+rel)
	if err != nil {
		if missing(err) {
			return vfs.Entry{}, false, nil
		}
		return vfs.Entry{}, false, err
	}
	return e, true, nil
}

// underRemoved reports whether rel lies below a removed lower directory,
// already reported with its whole subtree.
func (c *changes) underRemoved(rel string) bool {
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if c.removed[dir] {
			return true
		}
	}
	return false
}

// compare records the change at rel, a name the overlay touched.
func (c *changes) compare(rel string) error {
	if c.removed[rel] || c.underRemoved(rel) {
		return nil
	}
	before, bok, err := c.lowerEntry(rel)
	if err != nil {
		return err
	}
	after, aok, err := c.mergedEntry(rel)
	if err != nil {
		return err
	}
	switch {
	case !bok && !aok:
	case !bok:
		c.d.Added[rel] = after
	case !aok:
		return c.removeTree(rel, before)
	default:
		if !before.Equal(after) {
			c.d.Changed[rel] = vfs.Change{Before: before, After: after}
		}
		if before.Type != vfs.TypeDir {
			return nil
		}
		if after.Type != vfs.TypeDir {
			return c.removeChildren(rel)
		}
		// Both are directories: lower children that no longer show are
		// removed. Those that do show are unchanged, or names of the
		// upper layer compared on their own.
		if !c.f.hasWhiteout("/"+rel) && !c.whiteoutAbove(rel) {
			return nil
		}
		return c.removeMissingChildren(rel)
	}
	return nil
}

// whiteoutAbove reports whether an ancestor of rel has a whiteout.
func (c *changes) whiteoutAbove(rel string) bool {
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if c.f.hasWhiteout("/" + dir) {
			return true
		}
	}
	return false
}

// removeTree records the lower entry at rel, and for a directory every
// entry below it, as removed.
func (c *changes) removeTree(rel string, before vfs.Entry) error {
	c.removed[rel] = true
	if before.Type != vfs.TypeDir {
		return nil
	}
	return c.removeChildren(rel)
}

// removeChildren records every lower entry below rel as removed.
func (c *changes) removeChildren(rel string) error {
	sub, err := vfs.Snapshot(c.f.lower, "/"+rel)
	if err != nil {
		return err
	}
	for p := range sub {
		c.removed[rel+"/"+p] = true
	}
	return nil
}

// removeMissingChildren records the lower children of the directory rel
// that the overlay no longer has (with their subtrees) as removed.
func (c *changes) removeMissingChildren(rel string) error {
	low, err := vfs.ReadDir(c.f.lower, "/"+rel)
	if err != nil {
		return err
	}
	for _, de := range low {
		child := rel + "/" + de.Name()
		if _, aok, err := c.mergedEntry(child); err != nil || aok {
			if err != nil {
				return err
			}
			continue
		}
		before, bok, err := c.lowerEntry(child)
		if err != nil {
			return err
		}
		if bok {
			if err := c.removeTree(child, before); err != nil {
				return err
			}
		}
	}
	return nil
}
