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
	d := Delta{Added: map[string]Entry{}, Changed: map[string]Change{}, Removed: []string{}}
	w := newNodeWalk(root, opts)
	w.diff(mb, ma, rb, ra, "", &d)
	slices.Sort(d.Removed)
	return d, nil
}

// rootNodeLocked returns the directory node at root (not following a
// final link), for a snapshot or a diff; the caller holds m.mu.
func (m *MemFS) rootNodeLocked(root string) (*node, error) {
	if err := validName("lstat", root); err != nil {
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

// diff compares two directory nodes at the relative path rel, whose
// absolute name is w.abs; the callers hold both locks. A subtree the two
// file systems share is not visited.
func (w *nodeWalk) diff(mb, ma *MemFS, b, a *node, rel string, d *Delta) {
	if a == b {
		return
	}
	join := func(name string) string {
		if rel == "" {
			return name
		}
		return rel + "/" + name
	}
	for name, bn := range b.children {
		an := a.children[name]
		if an == bn {
			continue
		}
		r := join(name)
		skipB := w.skip(r, name, bn)
		if an == nil {
			if !skipB {
				w.removeSubtree(bn, r, d)
			}
			continue
		}
		skipA := w.skip(r, name, an)
		switch {
		case skipA && skipB:
		case skipA:
			w.removeSubtree(bn, r, d)
		default:
			l := w.push(name)
			if skipB {
				w.addSubtree(ma, an, r, d)
				w.pop(l)
				continue
			}
			eb, ea := w.entry(mb, bn), w.entry(ma, an)
			if !eb.Equal(ea) {
				d.Changed[r] = Change{Before: eb, After: ea}
			}
			switch {
			case bn.isDir() && an.isDir():
				w.diff(mb, ma, bn, an, r, d)
			case bn.isDir():
				w.removeChildren(bn, r, d)
			case an.isDir():
				w.tree(ma, an, r, Tree(d.Added))
			}
			w.pop(l)
		}
	}
	for name, an := range a.children {
		if _, ok := b.children[name]; ok {
			continue
		}
		r := join(name)
		if w.skip(r, name, an) {
			continue
		}
		l := w.push(name)
		w.addSubtree(ma, an, r, d)
		w.pop(l)
	}
}

// addSubtree records n, whose absolute name is w.abs, and the entries
// below it as added. d.Added has the shape of a Tree: the walk fills it
// directly.
func (w *nodeWalk) addSubtree(m *MemFS, n *node, rel string, d *Delta) {
	d.Added[rel] = w.entry(m, n)
	if n.isDir() {
		w.tree(m, n, rel, Tree(d.Added))
	}
}

func (w *nodeWalk) removeSubtree(n *node, rel string, d *Delta) {
	d.Removed = append(d.Removed, rel)
	if n.isDir() {
		w.removeChildren(n, rel, d)
	}
}

func (w *nodeWalk) removeChildren(dir *node, rel string, d *Delta) {
	for name, c := range dir.children {
		r := rel + "/" + name
		if w.skip(r, name, c) {
			continue
		}
		w.removeSubtree(c, r, d)
	}
}
