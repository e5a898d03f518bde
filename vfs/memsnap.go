package vfs

import "slices"

// snapshot is [SnapshotWith] for a MemFS: one walk over the nodes under a
// shared lock, without resolving every path again from the root. The
// result is the same as the generic walk's.
func (m *MemFS) snapshot(root string, opts SnapshotOptions) (Tree, error) {
	dir, err := m.rootNode(root)
	if err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	t := make(Tree, countNodes(dir))
	m.snapshotNode(dir, root, "", t, opts)
	return t, nil
}

// countNodes counts the entries below dir, to size a snapshot's map once.
func countNodes(dir *node) int {
	n := len(dir.children)
	for _, c := range dir.children {
		if c.isDir() {
			n += countNodes(c)
		}
	}
	return n
}

func (m *MemFS) snapshotNode(dir *node, abs, rel string, t Tree, opts SnapshotOptions) {
	names := make([]string, 0, len(dir.children))
	for name := range dir.children {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		n := dir.children[name]
		r := name
		if rel != "" {
			r = rel + "/" + name
		}
		childAbs := abs + "/" + name
		if abs == "/" {
			childAbs = "/" + name
		}
		if opts.Skip != nil && opts.Skip(r, infoOf(name, n)) {
			continue
		}
		switch {
		case n.isSymlink():
			target, terr := m.walk(childAbs, walkFollow)
			t[r] = Entry{Type: TypeSymlink, Target: n.target, TargetExists: terr == nil && target.n != nil}
		case n.isDir():
			t[r] = Entry{Type: TypeDir, Mode: n.mode.Perm()}
			m.snapshotNode(n, childAbs, r, t, opts)
		default:
			t[r] = Entry{Type: TypeFile, Mode: n.mode.Perm(), Data: n.shareData()}
		}
	}
}

// shareData returns the node's content for a snapshot without copying it:
// the node gives up changing that array in place (a later write through an
// open file copies it first), so the snapshot's Data stays as it was.
func (n *node) shareData() []byte {
	if n.ownData.Load() {
		n.ownData.Store(false)
	}
	return n.data[:len(n.data):len(n.data)]
}
