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
	rb, err := mb.rootNode(root)
	if err != nil {
		return Delta{}, err
	}
	ra, err := ma.rootNode(root)
	if err != nil {
		return Delta{}, err
	}
	if mb != ma {
		mb.mu.RLock()
		defer mb.mu.RUnlock()
	}
	ma.mu.RLock()
	defer ma.mu.RUnlock()
	d := Delta{Added: map[string]Entry{}, Changed: map[string]Change{}, Removed: []string{}}
	diffNodes(mb, ma, rb, ra, root, "", opts, &d)
	slices.Sort(d.Removed)
	return d, nil
}

// rootNode returns the directory node at root (not following a final
// link), for a diff.
func (m *MemFS) rootNode(root string) (*node, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
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

// diffNodes compares two directory nodes; the callers hold both locks.
func diffNodes(mb, ma *MemFS, b, a *node, abs, rel string, opts SnapshotOptions, d *Delta) {
	if a == b {
		return
	}
	join := func(name string) (string, string) {
		r, ab := name, abs+"/"+name
		if rel != "" {
			r = rel + "/" + name
		}
		if abs == "/" {
			ab = "/" + name
		}
		return ab, r
	}
	for name, bn := range b.children {
		ab, r := join(name)
		an := a.children[name]
		if an == bn {
			continue
		}
		skipB := opts.Skip != nil && opts.Skip(r, infoOf(name, bn))
		if an == nil {
			if !skipB {
				removeSubtree(bn, r, opts, d)
			}
			continue
		}
		skipA := opts.Skip != nil && opts.Skip(r, infoOf(name, an))
		switch {
		case skipA && skipB:
		case skipA:
			removeSubtree(bn, r, opts, d)
		case skipB:
			addSubtree(ma, an, ab, r, opts, d)
		default:
			eb, ea := mb.entryOfNode(bn, ab), ma.entryOfNode(an, ab)
			if !eb.Equal(ea) {
				d.Changed[r] = Change{Before: eb, After: ea}
			}
			switch {
			case bn.isDir() && an.isDir():
				diffNodes(mb, ma, bn, an, ab, r, opts, d)
			case bn.isDir():
				removeChildren(bn, r, opts, d)
			case an.isDir():
				addChildren(ma, an, ab, r, opts, d)
			}
		}
	}
	for name, an := range a.children {
		if _, ok := b.children[name]; ok {
			continue
		}
		ab, r := join(name)
		if opts.Skip != nil && opts.Skip(r, infoOf(name, an)) {
			continue
		}
		addSubtree(ma, an, ab, r, opts, d)
	}
}

func (m *MemFS) entryOfNode(n *node, abs string) Entry {
	switch {
	case n.isSymlink():
		res, err := m.walk(abs, walkFollow)
		return Entry{Type: TypeSymlink, Target: n.target, TargetExists: err == nil && res.n != nil}
	case n.isDir():
		return Entry{Type: TypeDir, Mode: n.mode.Perm()}
	}
	return Entry{Type: TypeFile, Mode: n.mode.Perm(), Data: n.shareData()}
}

func addSubtree(m *MemFS, n *node, abs, rel string, opts SnapshotOptions, d *Delta) {
	d.Added[rel] = m.entryOfNode(n, abs)
	if n.isDir() {
		addChildren(m, n, abs, rel, opts, d)
	}
}

func addChildren(m *MemFS, dir *node, abs, rel string, opts SnapshotOptions, d *Delta) {
	// d.Added has the shape of a Tree: the walk fills it directly.
	m.snapshotNode(dir, abs, rel, Tree(d.Added), opts)
}

func removeSubtree(n *node, rel string, opts SnapshotOptions, d *Delta) {
	d.Removed = append(d.Removed, rel)
	if n.isDir() {
		removeChildren(n, rel, opts, d)
	}
}

func removeChildren(dir *node, rel string, opts SnapshotOptions, d *Delta) {
	for name, c := range dir.children {
		r := rel + "/" + name
		if opts.Skip != nil && opts.Skip(r, infoOf(name, c)) {
			continue
		}
		removeSubtree(c, r, opts, d)
	}
}
