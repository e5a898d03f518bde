package vfs

import (
	"io/fs"
	"path"
	"slices"
	"syscall"
)

// DiffFS returns what changed below root from before to after, with the
// options' Skip applied to both sides. It is Diff(Snapshot(before),
// Snapshot(after)), computed without reading unchanged subtrees when both
// are [*MemFS] clones of one another: a subtree that the two file systems
// still share (copy-on-write) cannot differ, so it is not visited.
func DiffFS(before, after FS, root string, opts SnapshotOptions) (Delta, error) {
	mb, ok1 := before.(*MemFS)
	ma, ok2 := after.(*MemFS)
	if !ok1 || !ok2 {
		b, err := SnapshotWith(before, root, opts)
		if err != nil {
			return Delta{}, err
		}
		a, err := SnapshotWith(after, root, opts)
		if err != nil {
			return Delta{}, err
		}
		return Diff(b, a), nil
	}
	root = path.Clean(root)
	if mb != ma {
		mb.mu.RLock()
		defer mb.mu.RUnlock()
	}
	ma.mu.RLock()
	defer ma.mu.RUnlock()
	rb, err := mb.rootNodeLocked(root)
	if err != nil {
		return Delta{}, err
	}
	ra, err := ma.rootNodeLocked(root)
	if err != nil {
		return Delta{}, err
	}
	d := Delta{Changed: map[string]Change{}, Removed: []string{}}
	w := newNodeWalk(root, opts)
	added := w.diff(mb, ma, rb, ra, "", &d, nil)
	// The added subtrees are known: size the map once for all their
	// entries, then fill it (in no particular order: a map has none).
	var size walkSize
	for _, a := range added {
		s := a.size(len(root))
		size.entries += s.entries
		size.bytes += s.bytes
	}
	d.Added = make(map[string]Entry, size.entries)
	w.names.Grow(size.bytes)
	for _, a := range added {
		if a.self {
			d.Added[a.rel] = w.entry(ma, a.n, a.rel)
		}
		if a.n.isDir() {
			w.treeUnordered(ma, a.n, a.rel, Tree(d.Added))
		}
	}
	slices.Sort(d.Removed)
	return d, nil
}

// addedTree is a node of the later file system whose subtree a diff
// records as added once the walk is over: the node itself (unless only
// its entries are new) and, for a directory, everything below it that
// Skip keeps.
type addedTree struct {
	rel  string
	n    *node
	self bool
}

// addTree appends a to added, which starts with room for a few.
func addTree(added []addedTree, a addedTree) []addedTree {
	if added == nil {
		added = make([]addedTree, 0, 8)
	}
	return append(added, a)
}

// size returns the most the walk of the added subtree can record, under
// a root of rootLen bytes.
func (a addedTree) size(rootLen int) walkSize {
	var s walkSize
	if a.self {
		s.entries = 1
		if a.n.isSymlink() {
			//mutants:equivalent ARITHMETIC_BASE@22
			s.bytes = rootLen + 1 + len(a.rel) // a capacity only
		}
	}
	if a.n.isDir() {
		c := treeSize(a.n, len(a.rel), rootLen)
		s.entries += c.entries
		s.bytes += c.bytes
	}
	return s
}

// rootNodeLocked returns the directory node at root (not following a
// final link), for a snapshot or a diff; the caller holds m.mu.
func (m *MemFS) rootNodeLocked(root string) (*node, error) {
	if err := CheckName("lstat", root); err != nil {
		return nil, err
	}
	res, err := m.walk(root, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: root, Err: err}
	}
	if res.n == nil {
		return nil, &fs.PathError{Op: "lstat", Path: root, Err: syscall.ENOENT}
	}
	if !res.n.isDir() {
		return nil, &fs.PathError{Op: "snapshot", Path: root, Err: ErrNotDir}
	}
	return res.n, nil
}

// diff compares two directory nodes at the relative path rel, and
// returns added with the subtrees found added appended; the callers hold
// both locks. A subtree the two file systems share is not visited.
func (w *nodeWalk) diff(mb, ma *MemFS, b, a *node, rel string, d *Delta, added []addedTree) []addedTree {
	if a == b {
		return added
	}
	// Both lists are sorted by name: walk them side by side.
	bc, ac := b.entries(), a.entries()
	for len(bc) > 0 || len(ac) > 0 {
		switch {
		case len(ac) == 0 || len(bc) > 0 && bc[0].name < ac[0].name:
			name, bn := bc[0].name, bc[0].n
			bc = bc[1:]
			if r := w.join(rel, name); !w.skip(r, name, bn) {
				w.removeSubtree(bn, r, d)
			}
		case len(bc) == 0 || ac[0].name < bc[0].name:
			name, an := ac[0].name, ac[0].n
			ac = ac[1:]
			if r := w.join(rel, name); !w.skip(r, name, an) {
				added = addTree(added, addedTree{rel: r, n: an, self: true})
			}
		default:
			name, bn, an := bc[0].name, bc[0].n, ac[0].n
			bc, ac = bc[1:], ac[1:]
			if an != bn {
				added = w.both(mb, ma, name, bn, an, w.join(rel, name), d, added)
			}
		}
	}
	return added
}

// both compares the entries bn and an, both named name, at rel, like
// diff.
func (w *nodeWalk) both(mb, ma *MemFS, name string, bn, an *node, rel string, d *Delta, added []addedTree) []addedTree {
	skipB := w.skip(rel, name, bn)
	skipA := w.skip(rel, name, an)
	switch {
	case skipA && skipB:
		return added
	case skipA:
		w.removeSubtree(bn, rel, d)
		return added
	}
	if skipB {
		return addTree(added, addedTree{rel: rel, n: an, self: true})
	}
	eb, ea := w.entry(mb, bn, rel), w.entry(ma, an, rel)
	if !eb.Equal(ea) {
		d.Changed[rel] = Change{Before: eb, After: ea}
	}
	switch {
	case bn.isDir() && an.isDir():
		return w.diff(mb, ma, bn, an, rel, d, added)
	case bn.isDir():
		w.removeChildren(bn, rel, d)
	case an.isDir():
		return addTree(added, addedTree{rel: rel, n: an})
	}
	return added
}

func (w *nodeWalk) removeSubtree(n *node, rel string, d *Delta) {
	d.Removed = append(d.Removed, rel)
	if n.isDir() {
		w.removeChildren(n, rel, d)
	}
}

func (w *nodeWalk) removeChildren(dir *node, rel string, d *Delta) {
	for _, e := range dir.entries() {
		r := w.join(rel, e.name)
		if w.skip(r, e.name, e.n) {
			continue
		}
		w.removeSubtree(e.n, r, d)
	}
}
