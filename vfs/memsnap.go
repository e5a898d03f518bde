package vfs

import "strings"

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
	size := treeSize(dir, 0, len(root))
	t := make(Tree, size.entries)
	w := newNodeWalk(root, opts)
	w.names.Grow(size.bytes)
	w.tree(m, dir, "", t)
	return t, nil
}

// A walkSize is what a walk below a directory records: its entries, and
// the bytes of the names it makes (see [nodeWalk.names]).
type walkSize struct{ entries, bytes int }

// treeSize returns the size of a walk below dir, whose relative name is
// relLen bytes long, under a root of rootLen bytes. The sizes are
// capacities only (a name stays valid whatever the builder grows to), so
// mutants of this arithmetic, and of reserve's and its callers' counts,
// are equivalent.
func treeSize(dir *node, relLen, rootLen int) walkSize {
	var s walkSize
	add := func(name string, n *node) {
		//mutants:equivalent INCREMENT_DECREMENT
		s.entries++
		l := len(name)
		//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
		if relLen > 0 {
			//mutants:equivalent ARITHMETIC_BASE
			l += relLen + 1
			s.bytes += l
		}
		if n.isSymlink() {
			//mutants:equivalent ARITHMETIC_BASE@23
			s.bytes += rootLen + 1 + l
		}
		if n.isDir() {
			c := treeSize(n, l, rootLen)
			s.entries += c.entries
			s.bytes += c.bytes
		}
	}
	for _, e := range dir.children {
		add(e.name, e.n)
	}
	for name, c := range dir.big {
		add(name, c)
	}
	return s
}

// nodeWalk is the state of a walk over the nodes of a MemFS (a snapshot,
// a diff), kept in buffers that the whole walk reuses.
type nodeWalk struct {
	opts SnapshotOptions
	root string
	// names holds the names the walk makes, relative (the keys of a tree,
	// the paths given to Skip) and absolute (those through which links
	// resolve), one after the other: each is a substring of the builder's
	// string, which later writes append to and never change, so that a
	// name costs no allocation of its own.
	names strings.Builder
	// infos are fresh file information values for Skip, allocated in
	// batches of growing size; each goes to one call, so a Skip that keeps
	// one is safe.
	infos []memInfo
	batch int
}

func newNodeWalk(root string, opts SnapshotOptions) nodeWalk {
	return nodeWalk{opts: opts, root: root}
}

// reserve makes room in w.names for n more bytes: a walk whose names
// were not counted beforehand (a diff's) grows it by at least namesMin.
func (w *nodeWalk) reserve(n int) {
	//mutants:equivalent ARITHMETIC_BASE INVERT_NEGATIVES CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	if w.names.Cap()-w.names.Len() < n {
		w.names.Grow(max(n, namesMin))
	}
}

// namesMin is the least a walk grows its names by.
const namesMin = 256

// join returns rel + "/" + name, or name when rel is empty.
func (w *nodeWalk) join(rel, name string) string {
	if rel == "" {
		return name
	}
	//mutants:equivalent ARITHMETIC_BASE
	w.reserve(len(rel) + 1 + len(name))
	start := w.names.Len()
	w.names.WriteString(rel)
	w.names.WriteByte('/')
	w.names.WriteString(name)
	return w.names.String()[start:]
}

// absolute returns the absolute name of rel, relative to the root.
func (w *nodeWalk) absolute(rel string) string {
	//mutants:equivalent ARITHMETIC_BASE
	w.reserve(len(w.root) + 1 + len(rel))
	start := w.names.Len()
	if w.root != "/" {
		w.names.WriteString(w.root)
	}
	w.names.WriteByte('/')
	w.names.WriteString(rel)
	return w.names.String()[start:]
}

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

// tree records the entries below dir, whose relative path is rel, in t.
// Entries are visited in lexical order.
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
	r := w.join(rel, name)
	if w.skip(r, name, n) {
		return
	}
	t[r] = w.entry(m, n, r)
	if n.isDir() {
		if ordered {
			w.tree(m, n, r, t)
		} else {
			w.treeUnordered(m, n, r, t)
		}
	}
}

// entry returns the snapshot entry of n, whose relative name is rel.
func (w *nodeWalk) entry(m *MemFS, n *node, rel string) Entry {
	switch {
	case n.isSymlink():
		res, err := m.walk(w.absolute(rel), walkFollow)
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
