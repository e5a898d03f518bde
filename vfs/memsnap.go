package vfs

// snapshot is [SnapshotWith] for a MemFS: one walk over the nodes under a
// shared lock, without resolving every path again from the root. The
// result is the same as the generic walk's.
func (m *MemFS) snapshot(root string, opts SnapshotOptions) (Tree, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	dir, err := m.rootNodeLocked(root)
	if err != nil {
		return nil, err
	}
	t := make(Tree, countNodes(dir))
	w := newNodeWalk(root, opts)
	w.tree(m, dir, "", t)
	return t, nil
}

// countNodes counts the entries below dir, to size a snapshot's map once.
func countNodes(dir *node) int {
	n := dir.numChildren()
	for _, e := range dir.children {
		if e.n.isDir() {
			n += countNodes(e.n)
		}
	}
	for _, c := range dir.big {
		if c.isDir() {
			n += countNodes(c)
		}
	}
	return n
}

// nodeWalk is the state of a walk over the nodes of a MemFS (a snapshot,
// a diff), kept in buffers that the whole walk reuses.
type nodeWalk struct {
	opts SnapshotOptions
	// abs is the absolute name of the node being visited, through which
	// its links resolve; empty for the root "/".
	abs []byte
	// infos are fresh file information values for Skip, allocated in
	// batches of growing size; each goes to one call, so a Skip that keeps
	// one is safe.
	infos []memInfo
	batch int
}

func newNodeWalk(root string, opts SnapshotOptions) nodeWalk {
	w := nodeWalk{opts: opts}
	if root != "/" {
		w.abs = append(make([]byte, 0, len(root)+64), root...)
	}
	return w
}

// setAbs sets w.abs to the absolute name of rel below root.
func (w *nodeWalk) setAbs(root, rel string) {
	w.abs = w.abs[:0]
	if root != "/" {
		w.abs = append(w.abs, root...)
	}
	w.abs = append(append(w.abs, '/'), rel...)
}

// push appends name to w.abs and returns the length to give to pop.
func (w *nodeWalk) push(name string) int {
	l := len(w.abs)
	w.abs = append(append(w.abs, '/'), name...)
	return l
}

func (w *nodeWalk) pop(l int) { w.abs = w.abs[:l] }

// skip calls the Skip option, if any, for the entry n named name at rel.
func (w *nodeWalk) skip(rel, name string, n *node) bool {
	if w.opts.Skip == nil {
		return false
	}
	if len(w.infos) == 0 {
		w.batch = min(max(2*w.batch, 4), 64)
		w.infos = make([]memInfo, w.batch)
	}
	fi := &w.infos[0]
	w.infos = w.infos[1:]
	*fi = nodeInfo(name, n)
	return w.opts.Skip(rel, fi)
}

// tree records the entries below dir, whose relative path is rel, in t;
// w.abs holds dir's absolute name. Entries are visited in lexical order.
func (w *nodeWalk) tree(m *MemFS, dir *node, rel string, t Tree) {
	for _, e := range dir.entries() {
		w.treeEntry(m, e.name, e.n, rel, t, true)
	}
}

// treeUnordered is tree visiting the entries of a large directory in no
// particular order, for a caller that only fills a map: it spares the
// sorting of a copy of the directory's entries.
func (w *nodeWalk) treeUnordered(m *MemFS, dir *node, rel string, t Tree) {
	if dir.big == nil {
		for _, e := range dir.children {
			w.treeEntry(m, e.name, e.n, rel, t, false)
		}
		return
	}
	for name, n := range dir.big {
		w.treeEntry(m, name, n, rel, t, false)
	}
}

// treeEntry records the entry name of the directory at rel, node n, and
// what is below it (in lexical order when ordered).
func (w *nodeWalk) treeEntry(m *MemFS, name string, n *node, rel string, t Tree, ordered bool) {
	r := name
	if rel != "" {
		r = rel + "/" + name
	}
	if w.skip(r, name, n) {
		return
	}
	l := w.push(name)
	t[r] = w.entry(m, n)
	if n.isDir() {
		if ordered {
			w.tree(m, n, r, t)
		} else {
			w.treeUnordered(m, n, r, t)
		}
	}
	w.pop(l)
}

// entry returns the snapshot entry of n, whose absolute name is w.abs.
func (w *nodeWalk) entry(m *MemFS, n *node) Entry {
	switch {
	case n.isSymlink():
		res, err := m.walk(string(w.abs), walkFollow)
		return Entry{Type: TypeSymlink, Target: n.target, TargetExists: err == nil && res.n != nil}
	case n.isDir():
		return Entry{Type: TypeDir, Mode: n.mode.Perm()}
	}
	return Entry{Type: TypeFile, Mode: n.mode.Perm(), Data: n.shareData()}
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
