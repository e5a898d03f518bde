package vfs

import (
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// MemOptions configures [NewMemFS]. The zero value is ready to use.
type MemOptions struct {
	// Clock returns the time stamped on created and modified entries.
	// Nil means time.Now.
	Clock func() time.Time
	// Umask holds the permission bits cleared from the modes given to
	// creating calls, like a process's umask. The zero value clears none.
	Umask fs.FileMode
	// Platform is the operating system whose default file system the
	// MemFS imitates; "" means [PlatformLinux], whose behaviour is the
	// rest of this documentation's. [PlatformDarwin] is APFS's
	// case-insensitive variant, macOS's default: a name is looked up by
	// its key ([FoldName]: case and Unicode normalization folded), so that
	// "SKILL.md" opens "skill.md" and "Café" (NFC) opens "Café" (NFD); an
	// entry keeps the spelling it was created with, which ReadDir returns
	// and which creating, opening or writing it under another spelling
	// leaves as it is (O_CREATE opens the existing entry, O_EXCL gives
	// EEXIST, Mkdir and Symlink give EEXIST); renaming an entry to another
	// spelling of itself renames it in place, and renaming onto another
	// entry that folds to the new name replaces it under the new
	// spelling; a name created must be valid UTF-8 (EILSEQ otherwise);
	// PATH_MAX is 1024 ([PathMaxOf]), NAME_MAX 255 bytes as on Linux.
	// Every other answer, errno included, is Linux's: the calls MemFS
	// models give the same errno on macOS. [PlatformWin32] folds case
	// only (NTFS's upcase of each UTF-16 unit, no normalization) and
	// keeps spellings the same way; Windows's drive letters, backslashes,
	// reserved names (CON, NUL, …), forbidden characters and path limits
	// are not modelled: names stay absolute slash-separated paths, so that
	// the same fixtures run under every platform. A folding MemFS finds a
	// name that is not stored exactly by scanning the directory's entries.
	Platform Platform
}

// MemFS is an in-memory file system that models a whole machine with the
// semantics of Linux and package os, symbolic links included. Create one
// with [NewMemFS]; the zero value is not usable.
//
// Names are absolute slash-separated paths. They are resolved physically
// by [Resolve], component by component, like the kernel does: intermediate links are
// followed, ".." steps to the parent of the directory actually reached, and
// more than [MaxSymlinkHops] links in one resolution give [ErrLoop]. Absolute
// link targets resolve from the MemFS root, which stands for the machine's
// root. Permission bits are recorded and reported but, as for the superuser,
// never enforced.
//
// A MemFS is safe for concurrent use by multiple goroutines: every call
// holds one lock for its duration (shared for reads, exclusive for
// writes), so each call is atomic with respect to the others. An open file
// may be used by one goroutine at a time, like an *os.File's offset.
type MemFS struct {
	mu   sync.RWMutex
	root *node
	// own is the owner of the nodes this file system may change in place.
	// Calls that change the tree read it holding mu exclusively; Clone,
	// which holds mu shared so that clones of one file system do not wait
	// for each other, replaces it atomically.
	own     atomic.Uint64
	nextIno uint64
	clock   func() time.Time
	umask   fs.FileMode
	handles map[*memFile]struct{}
	slab    slab
	// locks are the advisory locks held, taken with Lock (few at a time,
	// so a slice, kept in lockArr while they fit). Locks are not cloned.
	locks   []*memLock
	lockArr [8]*memLock
	// lockSlab is where the next locks are made, a few at a time.
	lockSlab []memLock
	// syncs counts the calls of Sync on files and of SyncDir (see
	// [MemFS.Syncs]).
	syncs syncCounts
	// p is the platform's personality, nil for Linux.
	p *personality
}

// An owner identifies the MemFS that may mutate a node in place. Nodes
// whose owner is not the file system's current owner are shared with a
// clone and are copied before any change (copy-on-write). Owners are
// numbers drawn from owners, so that a clone allocates none; 0 owns
// nothing.
type owner = uint64

// owners is the last owner handed out.
var owners atomic.Uint64

// newOwner returns an owner that no MemFS has had.
func newOwner() owner { return owners.Add(1) }

type node struct {
	own     owner
	ino     uint64
	mode    fs.FileMode // type bits and permissions
	mtime   time.Time
	data    []byte      // regular file content
	ownData atomic.Bool // data's backing array belongs to this node alone and may change in place
	target  string      // symbolic link target, verbatim
	// A directory's entries: sorted by name in children or, past
	// bigDir entries, in big (children is then nil), so that adding one
	// stays cheap.
	children []dirent
	big      map[string]*node
	// info is the file information last made for the node, given again
	// while it still describes it (see infoOf).
	info atomic.Pointer[memInfo]
}

// bigDir is the number of entries past which a directory keeps them in a
// map rather than in a sorted slice.
const bigDir = 256

// dirent is one entry of a directory.
type dirent struct {
	name string
	n    *node
}

func (n *node) isDir() bool     { return n.mode&fs.ModeDir != 0 }
func (n *node) isSymlink() bool { return n.mode&fs.ModeSymlink != 0 }

// NewMemFS returns an empty MemFS holding only the root directory "/"
// (mode 0755).
func NewMemFS(opts MemOptions) *MemFS {
	m := &MemFS{clock: opts.Clock, umask: opts.Umask & fs.ModePerm, p: personalityOf(opts.Platform)}
	if m.clock == nil {
		m.clock = time.Now
	}
	m.own.Store(newOwner())
	m.nextIno = 1
	m.root = &node{own: m.owner(), ino: m.nextIno, mode: fs.ModeDir | 0o755, mtime: m.clock()}
	return m
}

// Clone returns an independent copy of m in constant time: the two file
// systems share every node until one of them changes it (copy-on-write).
// Files open in m are not carried over to the clone. Clone only reads m:
// concurrent clones of one file system do not wait for each other.
func (m *MemFS) Clone() *MemFS {
	m.mu.RLock()
	defer m.mu.RUnlock()
	// From now on m shares its nodes too: it copies them before a change,
	// like the clone. Reads hold mu shared and never look at own; calls
	// that change the tree hold it exclusively, so none runs meanwhile.
	m.own.Store(newOwner())
	c := &MemFS{root: m.root, nextIno: m.nextIno, clock: m.clock, umask: m.umask, p: m.p}
	c.own.Store(newOwner())
	return c
}

// Platform returns the platform whose file system m imitates
// ([MemOptions].Platform).
func (m *MemFS) Platform() Platform {
	if m.p == nil {
		return PlatformLinux
	}
	return m.p.platform
}

// owner returns the owner of the nodes m may change in place; the caller
// holds m.mu exclusively.
func (m *MemFS) owner() owner { return m.own.Load() }

// --- path resolution ---------------------------------------------------

// MemFS resolves names with [Resolve], the package's one resolver, over
// its nodes: memLookup looks a name up in a directory node, and walk turns
// the resolution into a walkResult, the parent, final name and node that
// the calls need, with the canonical chain of names from the root for
// those that change the tree.

// walkResult is the outcome of resolving a name.
type walkResult struct {
	parent *node  // directory holding the final component
	base   string // final component ("" for the root itself)
	n      *node  // the entry, or nil when it does not exist

	// With walkChain, the canonical names from the root to parent: the
	// first chainLen of chainArr, or chainBig when they do not fit (a
	// mutation of a shallow path allocates nothing for its chain).
	chainArr [12]string
	chainLen int
	chainBig []string
}

// chain returns the canonical names from the root to the parent.
func (r *walkResult) chain() []string {
	if r.chainBig != nil {
		return r.chainBig
	}
	return r.chainArr[:r.chainLen]
}

// setChain records the names of steps as the chain.
func (r *walkResult) setChain(steps []memStep) {
	// Twelve steps fit either way: len(steps) >= len(r.chainArr) (a
	// mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if len(steps) > len(r.chainArr) {
		r.chainBig = make([]string, len(steps))
		for i, s := range steps {
			r.chainBig[i] = s.name
		}
		return
	}
	for i, s := range steps {
		r.chainArr[i] = s.name
	}
	r.chainLen = len(steps)
}

// The flags of walk: the [ResolveMode] bits, and walkChain.
const (
	walkFollow = int(ResolveFollow) // follow a final symbolic link
	walkCreate = int(ResolveCreate) // open with O_CREAT: a final name under a slash is EISDIR before lookup
	walkParent = int(ResolveParent) // mkdir, symlink, unlink, rmdir, rename: the final name as it is
	walkChain  = 1 << 7             // record the canonical chain (for mutations)
)

// memStep is a node on the resolution stack, with its name in its parent
// ("" for the root).
type memStep struct {
	n    *node
	name string
}

// memLookup is MemFS's [Lookup]; p is the file system's personality.
// A name found by folding is returned under its stored spelling, so that
// the chain of names walk records, and the base name of an existing
// entry, are those the tree holds; a missing name keeps the caller's
// spelling, with which it is created.
type memLookup struct{ p *personality }

func (l memLookup) Child(dir memStep, _ string, _ int, name string) (memStep, Kind, error) {
	c := dir.n.child(name)
	if c == nil && l.p != nil {
		if stored, f := l.p.find(dir.n, name); f != nil {
			name, c = stored, f
		}
	}
	return memStep{n: c, name: name}, c.kind(), nil
}

func (memLookup) ReadLink(s memStep) (string, error) { return s.n.target, nil }

// kind returns the [Kind] of n, KindNone for nil.
func (n *node) kind() Kind {
	switch {
	case n == nil:
		return KindNone
	case n.isDir():
		return KindDir
	case n.isSymlink():
		return KindLink
	}
	return KindFile
}

// walk resolves name with [Resolve] in three steps: resolve, take the
// final entry and its parent, and record the chain when flags ask for it.
// The returned error is a bare errno; the caller wraps it with its op and
// the caller's name.
func (m *MemFS) walk(name string, flags int) (walkResult, error) {
	if m.p == nil {
		if res, err, ok := m.walkPlain(name, flags); ok {
			return res, err
		}
	}
	return m.walkResolve(name, flags)
}

// walkResolve is walk through [Resolve], for every name.
func (m *MemFS) walkResolve(name string, flags int) (walkResult, error) {
	if m.p != nil && len(name) >= m.p.pathMax {
		return walkResult{}, syscall.ENAMETOOLONG
	}
	var buf [16]memStep
	parents, r, _, err := Resolve[memStep](memLookup{m.p}, memStep{n: m.root}, name, ResolveMode(flags&^walkChain), buf[:0], nil)
	if err != nil {
		return walkResult{}, err
	}
	var res walkResult
	if r.Kind == KindNone {
		res.parent, res.base = parents[len(parents)-1].n, r.Final.name
	} else {
		parents = parents[:len(parents)-1]
		res.n = r.Final.n
		if len(parents) > 0 {
			res.parent, res.base = parents[len(parents)-1].n, r.Final.name
		}
	}
	if flags&walkChain != 0 && len(parents) > 0 {
		res.setChain(parents[1:])
	}
	return res, nil
}

// walkPlain is walk on a Linux MemFS for the names most calls give: an
// absolute name without a trailing slash whose resolution meets no ".",
// "..", empty or overlong component, no symbolic link to follow and no
// more than twelve directories, resolved in one pass over the nodes. On
// such a name [Resolve] takes the same steps, so the result is the same,
// errors included (a missing or non-directory intermediate component
// ends both before anything later is looked at). ok is false when the
// pass meets anything else: walkResolve then resolves the name from the
// start. It allocates nothing.
func (m *MemFS) walkPlain(name string, flags int) (res walkResult, err error, ok bool) {
	for hops := 0; hops <= plainHops; hops++ {
		var next string
		res, err, ok, next = m.walkPlainOnce(name, flags)
		if next == "" {
			return res, err, ok
		}
		name = next
	}
	return walkResult{}, nil, false
}

// plainHops is how many final links to absolute names walkPlain follows
// before it leaves the name to walkResolve (which ends a loop with ELOOP).
const plainHops = 8

// walkPlainOnce is one pass of walkPlain. When the final component is a
// link to follow whose target is absolute, it returns the target as next:
// [Resolve] goes on with that name from the root, as a new pass does (the
// link's own parent and chain are dropped for the target's).
func (m *MemFS) walkPlainOnce(name string, flags int) (res walkResult, err error, ok bool, next string) {
	if len(name) < 2 || name[0] != '/' || name[len(name)-1] == '/' {
		return walkResult{}, nil, false, ""
	}
	cur := m.root
	for start := 1; ; {
		end := strings.IndexByte(name[start:], '/')
		last := end < 0
		if last {
			end = len(name)
		} else {
			end += start
		}
		comp := name[start:end]
		if comp == "" || comp == "." || comp == ".." || len(comp) > NameMax {
			return walkResult{}, nil, false, ""
		}
		child := cur.child(comp)
		if last {
			if child != nil && child.isSymlink() && flags&walkFollow != 0 {
				if len(child.target) > 1 && child.target[0] == '/' {
					return walkResult{}, nil, false, child.target
				}
				return walkResult{}, nil, false, ""
			}
			res.parent, res.base, res.n = cur, comp, child
			return res, nil, true, ""
		}
		switch {
		case child == nil:
			return walkResult{}, syscall.ENOENT, true, ""
		case child.isSymlink():
			return walkResult{}, nil, false, ""
		case !child.isDir():
			return walkResult{}, syscall.ENOTDIR, true, ""
		}
		if flags&walkChain != 0 {
			if res.chainLen == len(res.chainArr) {
				return walkResult{}, nil, false, ""
			}
			res.chainArr[res.chainLen] = comp
			res.chainLen++
		}
		cur = child
		start = end + 1
	}
}

// mutableDir returns this file system's own copy of the directory reached
// by the canonical chain, copying shared nodes along the way.
func (m *MemFS) mutableDir(chain []string) *node {
	if m.root.own != m.owner() {
		m.root = m.copyNode(m.root)
	}
	cur := m.root
	for _, name := range chain {
		cur = m.mutableChild(cur, name)
	}
	return cur
}

// mutableChild returns this file system's own copy of parent's child name;
// parent must already be owned.
func (m *MemFS) mutableChild(parent *node, name string) *node {
	child := parent.child(name)
	if child.own != m.owner() {
		child = m.copyNode(child)
		m.setChild(parent, name, child)
	}
	return child
}

// copyNode returns this file system's own copy of n; the caller holds
// m.mu exclusively.
func (m *MemFS) copyNode(n *node) *node {
	c := m.slab.node()
	*c = node{own: m.owner(), ino: n.ino, mode: n.mode, mtime: n.mtime, data: n.data, target: n.target}
	if n.children != nil {
		// Room for one more entry: a directory is often copied to add one.
		c.children = m.slab.dirents(len(n.children), len(n.children)+1)
		copy(c.children, n.children)
	}
	if n.big != nil {
		c.big = maps.Clone(n.big)
	}
	c.info.Store(n.info.Load())
	return c
}

// newNode returns a new node with mode; the caller holds m.mu
// exclusively.
func (m *MemFS) newNode(mode fs.FileMode) *node {
	// Inode numbers need only be unique: m.nextIno-- (a mutant) is
	// equivalent.
	//mutants:equivalent INCREMENT_DECREMENT
	m.nextIno++
	n := m.slab.node()
	*n = node{own: m.owner(), ino: m.nextIno, mode: mode, mtime: m.clock()}
	return n
}

// addNode makes a new node with mode the child name of the directory
// parent, which must be owned, and sets the parent's modification time to
// the node's, as creating an entry does.
func (m *MemFS) addNode(parent *node, name string, mode fs.FileMode) *node {
	n := m.newNode(mode)
	m.setChild(parent, name, n)
	parent.mtime = n.mtime
	return n
}

// A slab hands out the nodes, directory entries and small file contents
// of one MemFS in batches, so that building a tree does not allocate each
// of them. Only the MemFS that holds it takes from it, holding its lock
// exclusively; a clone starts with an empty one. What it has handed out is
// never handed out again. A batch lives as long as any part of it is in
// use: the batches are kept small (slabNodes nodes, slabDirents entries,
// slabBytes bytes) to bound what a removed node keeps alive.
type slab struct {
	nodeBuf   []node
	direntBuf []dirent
	byteBuf   []byte
	// The sizes of the last batches.
	nodeN, direntN uint8
	byteN          uint16
}

// The largest batches of a slab.
const (
	slabNodes   = 16
	slabDirents = 64
	slabBytes   = 4096
)

// node returns a zero node of its own.
func (s *slab) node() *node {
	if len(s.nodeBuf) == 0 {
		s.nodeN = min(max(2*s.nodeN, 4), slabNodes)
		s.nodeBuf = make([]node, int(s.nodeN))
	}
	n := &s.nodeBuf[0]
	s.nodeBuf = s.nodeBuf[1:]
	return n
}

// dirents returns a zero slice of n entries with capacity c, its own: an
// append past c moves it elsewhere.
func (s *slab) dirents(n, c int) []dirent {
	// Where a slice comes from changes nothing but allocations: mutants
	// moving the two bounds below are equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if c > slabDirents/4 {
		return make([]dirent, n, c)
	}
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if c > len(s.direntBuf) {
		s.direntN = min(max(2*s.direntN, 16), slabDirents)
		s.direntBuf = make([]dirent, int(s.direntN))
	}
	d := s.direntBuf[:n:c]
	s.direntBuf = s.direntBuf[c:]
	return d
}

// clone returns a copy of data of its own, with no room to grow: an append
// moves it elsewhere. An empty data gives slices.Clone's result.
func (s *slab) clone(data []byte) []byte {
	if len(data) == 0 {
		return slices.Clone(data)
	}
	return slabCopy(s, data)
}

// cloneString is clone of a string's bytes.
func (s *slab) cloneString(data string) []byte {
	if len(data) == 0 {
		return []byte(data)
	}
	return slabCopy(s, data)
}

// slabCopy copies data, not empty, into the slab's byte batch, or into
// memory of its own when it is large.
func slabCopy[S ~string | ~[]byte](s *slab, data S) []byte {
	// As for dirents, mutants moving the two bounds are equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if len(data) > slabBytes/8 {
		b := make([]byte, len(data))
		copy(b, data)
		return b
	}
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if len(data) > len(s.byteBuf) {
		s.byteN = min(max(2*s.byteN, 256, uint16(len(data))), slabBytes)
		s.byteBuf = make([]byte, int(s.byteN))
	}
	b := s.byteBuf[:len(data):len(data)]
	s.byteBuf = s.byteBuf[len(data):]
	copy(b, data)
	return b
}

// numChildren returns the number of entries of the directory n.
func (n *node) numChildren() int { return len(n.children) + len(n.big) }

// entries returns the entries of the directory n sorted by name: its own
// slice (read-only) for a small directory, a new one for a big one.
func (n *node) entries() []dirent {
	if n.big == nil {
		return n.children
	}
	list := make([]dirent, 0, len(n.big))
	for name, c := range n.big {
		list = append(list, dirent{name: name, n: c})
	}
	slices.SortFunc(list, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	return list
}

// find returns the index of the entry name of a small directory n, or
// the index where it would go, and whether it exists.
func (n *node) find(name string) (int, bool) {
	lo, hi := 0, len(n.children)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if n.children[h].name < name {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(n.children) && n.children[lo].name == name
}

// child returns the entry name of the directory n, or nil.
func (n *node) child(name string) *node {
	if n.big != nil {
		return n.big[name]
	}
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	if len(n.children) <= 8 {
		// Equality tests beat a binary search's comparisons here; both
		// find the same entry, so a mutant of the bound is equivalent.
		for i := range n.children {
			if n.children[i].name == name {
				return n.children[i].n
			}
		}
		return nil
	}
	if i, ok := n.find(name); ok {
		return n.children[i].n
	}
	return nil
}

// setChild adds or replaces the entry name of the directory n, which m
// owns; the caller holds m.mu exclusively.
func (m *MemFS) setChild(n *node, name string, c *node) {
	if n.big != nil {
		n.big[name] = c
		return
	}
	i, ok := n.find(name)
	if ok {
		n.children[i].n = c
		return
	}
	// Which representation holds the entries, when the slice grows and
	// by how much change no result, only time and memory: mutants of
	// the bound, the map's size hint and the growth test below are
	// equivalent (TestMemBigDirectories checks both representations).
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	if len(n.children) >= bigDir {
		//mutants:equivalent ARITHMETIC_BASE
		n.big = make(map[string]*node, 2*bigDir)
		for _, e := range n.children {
			n.big[e.name] = e.n
		}
		n.big[name] = c
		clear(n.children)
		n.children = nil
		return
	}
	//mutants:equivalent CONDITIONALS_NEGATION
	if len(n.children) == cap(n.children) {
		// The entries move to a larger slice. The old one is the node's
		// own (a node shared with a clone is copied, entries and all,
		// before a change): clear it, so that the slab holding it keeps
		// no entry alive.
		grown := m.slab.dirents(len(n.children), max(4, 2*len(n.children)))
		copy(grown, n.children)
		clear(n.children)
		n.children = grown
	}
	n.children = slices.Insert(n.children, i, dirent{name: name, n: c})
}

// removeChild removes the entry name, if any, of the directory n.
func (n *node) removeChild(name string) {
	if n.big != nil {
		delete(n.big, name)
		return
	}
	if i, ok := n.find(name); ok {
		n.children = slices.Delete(n.children, i, i+1)
	}
}

// --- file information --------------------------------------------------

type memInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
	ino   uint64 // the node's inode number, which [Inode] reads
}

func (fi *memInfo) Name() string       { return fi.name }
func (fi *memInfo) Size() int64        { return fi.size }
func (fi *memInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *memInfo) ModTime() time.Time { return fi.mtime }
func (fi *memInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *memInfo) Sys() any           { return nil }

// infoOf returns the information of n named name. A FileInfo is a value
// that never changes once made: the node keeps the last one made for it
// and gives it again while it equals the one that would be made now (same
// name, size, mode and time), so that stating an entry over and over (the
// entries of a tree that clones share, above all) allocates once. Readers
// holding a shared lock, of one MemFS or of clones sharing the node, may
// race to keep theirs: each is right, and the pointer is atomic.
func infoOf(name string, n *node) *memInfo {
	fi := nodeInfo(name, n)
	if last := n.info.Load(); last != nil && *last == fi {
		return last
	}
	p := new(memInfo) // fi itself stays on the stack
	*p = fi
	n.info.Store(p)
	return p
}

func nodeInfo(name string, n *node) memInfo {
	fi := memInfo{name: name, mode: n.mode, mtime: n.mtime, ino: n.ino}
	switch {
	case n.isSymlink():
		fi.size = int64(len(n.target))
	case !n.isDir():
		fi.size = int64(len(n.data))
	}
	return fi
}

// memDirEntry is a directory entry as it was when the directory was
// listed: Info describes the entry at that moment and reads nothing
// later, so that it needs no lock and never races with changes.
type memDirEntry struct {
	info memInfo
}

func (d *memDirEntry) Name() string               { return d.info.name }
func (d *memDirEntry) IsDir() bool                { return d.info.mode.IsDir() }
func (d *memDirEntry) Type() fs.FileMode          { return d.info.mode.Type() }
func (d *memDirEntry) Info() (fs.FileInfo, error) { fi := d.info; return &fi, nil }
func (d *memDirEntry) String() string             { return fs.FormatDirEntry(d) }

func sortedEntries(dir *node) []fs.DirEntry {
	entries := dir.entries()
	// One array holds every entry; the list points into it, so that
	// boxing an entry in the interface allocates nothing.
	backing := make([]memDirEntry, len(entries))
	list := make([]fs.DirEntry, len(entries))
	for i, e := range entries {
		backing[i] = memDirEntry{info: nodeInfo(e.name, e.n)}
		list[i] = &backing[i]
	}
	return list
}

// --- read side ---------------------------------------------------------

func (m *MemFS) lookup(op, name string, flags int) (*node, error) {
	if err := CheckName(op, name); err != nil {
		return nil, err
	}
	res, err := m.walk(name, flags)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	if res.n == nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
	}
	return res.n, nil
}

// Stat returns information about the named file, following links.
func (m *MemFS) Stat(name string) (fs.FileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.stat("stat", name, walkFollow)
}

// stat is Stat (walkFollow) and Lstat (no flag) for a caller holding m.mu.
func (m *MemFS) stat(op, name string, flags int) (fs.FileInfo, error) {
	n, err := m.lookup(op, name, flags)
	if err != nil {
		return nil, err
	}
	return infoOf(path.Base(name), n), nil
}

// probe is [Probe] (flags walkFollow) and [Lprobe] (no flag) for a
// MemFS: the mode of the named file, as Stat's or Lstat's FileInfo would
// give it, or the errno their *fs.PathError would wrap. It allocates
// nothing.
func (m *MemFS) probe(name string, flags int) (fs.FileMode, error) {
	if err := nameErr(name); err != nil {
		return 0, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	res, err := m.walk(name, flags)
	if err != nil {
		return 0, err
	}
	if res.n == nil {
		return 0, syscall.ENOENT
	}
	return res.n.mode, nil
}

// Lstat returns information about the named file without following a final
// symbolic link.
func (m *MemFS) Lstat(name string) (fs.FileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.stat("lstat", name, 0)
}

// ReadFile returns a copy of the named file's content, following links.
func (m *MemFS) ReadFile(name string) ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.lookup("open", name, walkFollow)
	if err != nil {
		return nil, err
	}
	if n.isDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	return slices.Clone(n.data), nil
}

// ReadFileAtMost is [MemFS.ReadFile] of a file that may be too large to
// read: when the named file, links followed, is a regular file of more
// than limit bytes, it returns no data, the file's size and a nil error;
// else what ReadFile returns and the length of the data. The name is
// walked once, under one hold of the lock, so the size checked is the size
// of the data read.
func (m *MemFS) ReadFileAtMost(name string, limit int64) ([]byte, int64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.lookup("open", name, walkFollow)
	if err != nil {
		return nil, 0, err
	}
	if n.isDir() {
		return nil, 0, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	size := int64(len(n.data))
	if size > limit {
		return nil, size, nil
	}
	return slices.Clone(n.data), size, nil
}

// ReadDir lists the named directory, following links, sorted by name.
func (m *MemFS) ReadDir(name string) ([]fs.DirEntry, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.lookup("open", name, walkFollow)
	if err != nil {
		return nil, err
	}
	if !n.isDir() {
		return nil, &fs.PathError{Op: "readdirent", Path: name, Err: syscall.ENOTDIR}
	}
	return sortedEntries(n), nil
}

// ReadLink returns the verbatim target of the named symbolic link.
func (m *MemFS) ReadLink(name string) (string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.lookup("readlink", name, 0)
	if err != nil {
		return "", err
	}
	if !n.isSymlink() {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: syscall.EINVAL}
	}
	return n.target, nil
}

// --- write side --------------------------------------------------------

// WriteFile writes data to the named file like os.WriteFile, following
// links (a dangling final link creates its target when the target's parent
// exists).
func (m *MemFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return m.write(name, perm, func(s *slab) []byte { return s.clone(data) })
}

// writeString is WriteFile of a string's bytes, copied once: see
// [WriteFileString].
func (m *MemFS) writeString(name, text string, perm fs.FileMode) error {
	return m.write(name, perm, func(s *slab) []byte { return s.cloneString(text) })
}

// write creates or truncates the named file and gives it the bytes that
// content copies into the file system's slab, under the write lock.
func (m *MemFS) write(name string, perm fs.FileMode, content func(*slab) []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, _, err := m.openLocked("open", name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	n.data = content(&m.slab)
	n.ownData.Store(true)
	return nil
}

// openLocked resolves (and creates or truncates) a file for OpenFile and
// WriteFile. It returns this file system's own copy of the node and the
// resolution, from which [canonical] gives its path.
func (m *MemFS) openLocked(op, name string, flag int, perm fs.FileMode) (*node, walkResult, error) {
	if err := CheckName(op, name); err != nil {
		return nil, walkResult{}, err
	}
	flags := walkFollow | walkChain
	if flag&os.O_CREATE != 0 {
		flags |= walkCreate
		if flag&os.O_EXCL != 0 {
			flags &^= walkFollow
		}
	}
	res, err := m.walk(name, flags)
	if err != nil {
		return nil, walkResult{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	writable := flag&(os.O_WRONLY|os.O_RDWR) != 0
	if res.n != nil {
		if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			return nil, walkResult{}, &fs.PathError{Op: op, Path: name, Err: syscall.EEXIST}
		}
		if res.n.isDir() {
			if writable || flag&os.O_TRUNC != 0 {
				return nil, walkResult{}, &fs.PathError{Op: op, Path: name, Err: syscall.EISDIR}
			}
			return res.n, res, nil
		}
		if !writable && flag&os.O_TRUNC == 0 {
			return res.n, res, nil
		}
		var n *node
		if res.parent == nil {
			return nil, walkResult{}, &fs.PathError{Op: op, Path: name, Err: syscall.EISDIR}
		}
		n = m.mutableChild(m.mutableDir(res.chain()), res.base)
		if flag&os.O_TRUNC != 0 {
			n.data = nil
			n.ownData.Store(true)
			n.mtime = m.clock()
		}
		return n, res, nil
	}
	if flag&os.O_CREATE == 0 {
		return nil, walkResult{}, &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
	}
	if strings.HasSuffix(name, "/") {
		return nil, walkResult{}, &fs.PathError{Op: op, Path: name, Err: syscall.EISDIR}
	}
	if err := m.createErr(res.base); err != nil {
		return nil, walkResult{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	n := m.addNode(m.mutableDir(res.chain()), res.base, perm&fs.ModePerm&^m.umask|perm&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	n.ownData.Store(true)
	return n, res, nil
}

func canonical(res walkResult) string {
	if res.parent == nil {
		return "/"
	}
	return "/" + strings.Join(append(slices.Clone(res.chain()), res.base), "/")
}

// Mkdir creates a directory like os.Mkdir; a final symbolic link, even a
// dangling one, is an existing entry.
func (m *MemFS) Mkdir(name string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mkdirLocked(name, perm)
}

func (m *MemFS) mkdirLocked(name string, perm fs.FileMode) error {
	if err := CheckName("mkdir", name); err != nil {
		return err
	}
	res, err := m.walk(name, walkChain|walkParent)
	if err != nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: err}
	}
	if res.n != nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: syscall.EEXIST}
	}
	if err := m.createErr(res.base); err != nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: err}
	}
	m.addNode(m.mutableDir(res.chain()), res.base, fs.ModeDir|perm&fs.ModePerm&^m.umask|perm&(fs.ModeSetgid|fs.ModeSticky))
	return nil
}

// MkdirAll creates a directory and any missing parents like os.MkdirAll.
func (m *MemFS) MkdirAll(name string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mkdirAllLocked(name, perm)
}

// mkdirAllLocked is MkdirAll for a caller holding m.mu: a plain name in
// one walk, any other with os.MkdirAll's algorithm over the calls of
// [lockedMem].
func (m *MemFS) mkdirAllLocked(name string, perm fs.FileMode) error {
	if done, err := m.mkdirAllPlain(name, perm); done {
		return err
	}
	return mkdirAll(lockedMem{m}, name, perm)
}

// lockedMem is a MemFS seen by a caller that holds its lock: the calls of
// os.MkdirAll's algorithm, taking no lock.
type lockedMem struct{ m *MemFS }

func (l lockedMem) Open(name string) (fs.File, error)         { return l.m.openRead(name) }
func (l lockedMem) Stat(name string) (fs.FileInfo, error)     { return l.m.stat("stat", name, walkFollow) }
func (l lockedMem) Lstat(name string) (fs.FileInfo, error)    { return l.m.stat("lstat", name, 0) }
func (l lockedMem) Mkdir(name string, perm fs.FileMode) error { return l.m.mkdirLocked(name, perm) }

// mkdirAllPlain is MkdirAll in one walk for the common case: a plain name
// (no empty, "." or ".." component, no trailing slash) whose existing
// part holds no symbolic link. It gives the result of the general
// algorithm (os.MkdirAll's: Stat the name, else MkdirAll the parent and
// Mkdir the name), which on such a name reduces to: find the deepest
// existing prefix; it must be a directory; create the rest top-down.
// done is false, and nothing changed, when the name needs the general
// algorithm.
func (m *MemFS) mkdirAllPlain(name string, perm fs.FileMode) (done bool, err error) {
	// Which names take this path changes no result (a test checks it
	// against the general one): mutants of this bound and of the
	// component length test in the first loop are equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	if !plainName(name) || len(name) >= PathMax {
		return false, nil
	}
	// A folding file system finds its entries by their keys: the general
	// algorithm, whose lookups fold, serves it.
	if m.p != nil {
		return false, nil
	}
	cur := m.root
	end := 0 // name[:end] is the deepest existing prefix ("" for the root)
	for end < len(name) {
		start, stop := component(name, end)
		if !cur.isDir() {
			return true, &fs.PathError{Op: "mkdir", Path: name[:end], Err: syscall.ENOTDIR}
		}
		//mutants:equivalent ARITHMETIC_BASE INVERT_NEGATIVES CONDITIONALS_BOUNDARY
		if stop-start > NameMax {
			break // Mkdir reports it below
		}
		child := cur.child(name[start:stop])
		if child == nil {
			break
		}
		if child.isSymlink() {
			return false, nil
		}
		cur, end = child, stop
	}
	if end == len(name) {
		if cur.isDir() {
			return true, nil
		}
		return true, &fs.PathError{Op: "mkdir", Path: name, Err: syscall.ENOTDIR}
	}
	parent := m.mutablePrefix(name[:end])
	mode := fs.ModeDir | perm&fs.ModePerm&^m.umask | perm&(fs.ModeSetgid|fs.ModeSticky)
	for end < len(name) {
		start, stop := component(name, end)
		if stop-start > NameMax {
			return true, &fs.PathError{Op: "mkdir", Path: name[:stop], Err: syscall.ENAMETOOLONG}
		}
		parent, end = m.addNode(parent, name[start:stop], mode), stop
	}
	return true, nil
}

// plainName reports whether name is absolute with no empty, "." or ".."
// component and no trailing slash (the root "/" is not plain). Only fast
// paths ask it, whose results the general ones match: mutants of its
// length bound are equivalent.
func plainName(name string) bool {
	//mutants:equivalent CONDITIONALS_BOUNDARY
	return len(name) >= 2 && name[0] == '/' && PlainRel(name[1:])
}

// PlainRel reports whether p is a relative name that path.Clean leaves as
// it is and that does not climb: non-empty names separated by single
// slashes, none of them "." or "..". Joined to a clean directory with one
// slash, it gives a clean name without calling path.Clean.
func PlainRel(p string) bool {
	if p == "" {
		return false
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch p[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

// mutablePrefix is [MemFS.mutableDir] for a plain name ("" for the root)
// made of existing directories.
func (m *MemFS) mutablePrefix(prefix string) *node {
	if m.root.own != m.owner() {
		m.root = m.copyNode(m.root)
	}
	cur := m.root
	for end := 0; end < len(prefix); {
		start, stop := component(prefix, end)
		cur = m.mutableChild(cur, prefix[start:stop])
		end = stop
	}
	return cur
}

// component returns the bounds of the component of a plain name that
// follows name[:end]. A plain name has no empty component, so the slash
// is never at start: i > 0 (a mutant) is equivalent.
func component(name string, end int) (start, stop int) {
	start = end + 1
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if i := strings.IndexByte(name[start:], '/'); i >= 0 {
		return start, start + i
	}
	return start, len(name)
}

// Remove removes a file, a symbolic link or an empty directory, like
// os.Remove. It never follows a final link.
func (m *MemFS) Remove(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := CheckName("remove", name); err != nil {
		return err
	}
	res, err := m.walk(name, walkChain|walkParent)
	if err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	switch {
	case res.n == nil:
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOENT}
	case res.parent == nil:
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.EBUSY}
	case endsWithDot(name):
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.EINVAL}
	case !res.n.isDir() && strings.HasSuffix(name, "/"):
		// Both unlink and rmdir refuse a non-directory (a link included:
		// it is not followed) named with a trailing slash.
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOTDIR}
	case res.n.isDir() && res.n.numChildren() > 0:
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOTEMPTY}
	}
	parent := m.mutableDir(res.chain())
	parent.removeChild(res.base)
	parent.mtime = m.clock()
	return nil
}

func endsWithDot(name string) bool {
	t := strings.TrimRight(name, "/")
	return t == "." || t == ".." || strings.HasSuffix(t, "/.") || strings.HasSuffix(t, "/..")
}

// RemoveAll removes name and everything below it like os.RemoveAll: links
// are removed, never followed, and a missing name is not an error.
func (m *MemFS) RemoveAll(name string) error {
	if name == "" {
		return nil
	}
	if endsWithDot(name) {
		return &fs.PathError{Op: "RemoveAll", Path: name, Err: syscall.EINVAL}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := formErr(name); err != nil {
		return &fs.PathError{Op: "unlinkat", Path: name, Err: err}
	}
	// A name too long to remove whole is removed from its parent, whose
	// name must fit (see RemoveAllParentTooLong).
	if RemoveAllParentTooLong(name) {
		return &fs.PathError{Op: "unlinkat", Path: name, Err: syscall.ENAMETOOLONG}
	}
	// Like os.RemoveAll, which removes the base name from its parent: a
	// trailing slash never makes it follow a final link.
	if t := strings.TrimRight(name, "/"); t != "" {
		name = t
	}
	res, err := m.walk(name, walkChain)
	if err != nil {
		if err == syscall.ENOENT {
			return nil
		}
		return &fs.PathError{Op: "unlinkat", Path: name, Err: err}
	}
	if res.n == nil {
		return nil
	}
	if res.parent == nil {
		return &fs.PathError{Op: "unlinkat", Path: name, Err: syscall.EBUSY}
	}
	parent := m.mutableDir(res.chain())
	parent.removeChild(res.base)
	parent.mtime = m.clock()
	return nil
}

// Rename renames oldname to newname with the rules of rename(2) on Linux:
// a directory may replace an empty directory but not a non-empty one
// ([ErrNotEmpty]) nor a non-directory ([ErrNotDir]); a non-directory may
// not replace a directory ([ErrIsDir]); a directory may not move into its
// own subtree (EINVAL); renaming an entry onto itself does nothing. Final
// links are renamed, never followed. Note that os.Rename differs: it
// refuses any existing directory as newname (EEXIST); MemFS follows the
// kernel.
func (m *MemFS) Rename(oldname, newname string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	lerr := func(err error) error { return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err} }
	// Like the kernel, take the old name and resolve its parent, then
	// the new name and its parent, before looking at the old entry: a bad
	// new name or parent wins over a missing old name.
	if err := nameErr(oldname); err != nil {
		return lerr(err)
	}
	src, err := m.walk(oldname, walkChain|walkParent)
	if err != nil {
		return lerr(err)
	}
	if err := nameErr(newname); err != nil {
		return lerr(err)
	}
	dst, err := m.walk(newname, walkChain|walkParent)
	if err != nil {
		return lerr(err)
	}
	if src.n == nil {
		return lerr(syscall.ENOENT)
	}
	if src.parent == nil || endsWithDot(oldname) {
		return lerr(syscall.EBUSY)
	}
	if dst.parent == nil {
		return lerr(syscall.EBUSY)
	}
	if endsWithDot(newname) {
		return lerr(syscall.EINVAL)
	}
	if !src.n.isDir() && (strings.HasSuffix(oldname, "/") || strings.HasSuffix(newname, "/")) {
		// A trailing slash on either name wants a directory; the old
		// entry is not followed, so a link is not one.
		return lerr(syscall.ENOTDIR)
	}
	if dst.n == src.n {
		if m.p != nil {
			return m.respell(src, oldname, newname)
		}
		return nil
	}
	spell := dst.base
	if m.p != nil {
		// The new entry takes the caller's spelling; an entry that
		// folds to it is replaced.
		spell = finalName(newname)
		if err := m.createErr(spell); err != nil {
			return lerr(err)
		}
	}
	srcPath := append(slices.Clone(src.chain()), src.base)
	if dst.n != nil {
		// newname must not be an ancestor of oldname (the kernel's rename
		// trap): ENOTEMPTY, whatever the types. (Paths of one length and
		// one prefix are one entry, returned above: >= here, a mutant, is
		// equivalent.)
		dstPath := append(slices.Clone(dst.chain()), dst.base)
		//mutants:equivalent CONDITIONALS_BOUNDARY
		if len(srcPath) > len(dstPath) && slices.Equal(srcPath[:len(dstPath)], dstPath) {
			return lerr(syscall.ENOTEMPTY)
		}
	}
	if src.n.isDir() {
		// newname must not lie inside oldname's subtree.
		if len(dst.chain()) >= len(srcPath) && slices.Equal(dst.chain()[:len(srcPath)], srcPath) {
			return lerr(syscall.EINVAL)
		}
		if dst.n != nil {
			if !dst.n.isDir() {
				return lerr(syscall.ENOTDIR)
			}
			if dst.n.numChildren() > 0 {
				return lerr(syscall.ENOTEMPTY)
			}
		}
	} else if dst.n != nil && dst.n.isDir() {
		return lerr(syscall.EISDIR)
	}
	now := m.clock()
	sp := m.mutableDir(src.chain())
	moved := sp.child(src.base)
	sp.removeChild(src.base)
	sp.mtime = now
	dp := m.mutableDir(dst.chain())
	if spell != dst.base {
		dp.removeChild(dst.base)
	}
	m.setChild(dp, spell, moved)
	dp.mtime = now
	to := dst
	to.base = spell
	m.renameHandles(canonical(src), canonical(to))
	return nil
}

// respell is Rename of an entry to a name that resolves to the entry
// itself, on a folding file system. As in macOS's rename(2), two final
// components spelled alike, byte for byte, rename nothing, whatever the
// entry's stored spelling; otherwise the entry takes the new name's
// spelling, in place (a change of case, or of normalization).
func (m *MemFS) respell(src walkResult, oldname, newname string) error {
	spell := finalName(newname)
	if spell == finalName(oldname) || spell == src.base || FoldName(m.p.platform, spell) != FoldName(m.p.platform, src.base) {
		return nil
	}
	if err := m.createErr(spell); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	sp := m.mutableDir(src.chain())
	moved := sp.child(src.base)
	sp.removeChild(src.base)
	m.setChild(sp, spell, moved)
	sp.mtime = m.clock()
	to := src
	to.base = spell
	m.renameHandles(canonical(src), canonical(to))
	return nil
}

// finalName returns the final component of a name, trailing slashes
// dropped.
func finalName(name string) string {
	return path.Base(strings.TrimRight(name, "/"))
}

// createErr is the platform's errno for creating an entry named base,
// beyond Linux's rules (nil on Linux).
func (m *MemFS) createErr(base string) error {
	if m.p == nil {
		return nil
	}
	return m.p.createErr(base)
}

// Symlink creates newname as a symbolic link to oldname, stored verbatim.
func (m *MemFS) Symlink(oldname, newname string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	lerr := func(err error) error { return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: err} }
	if err := CheckSymlink(oldname, newname); err != nil {
		return err
	}
	res, err := m.walk(newname, walkChain|walkParent)
	if err != nil {
		return lerr(err)
	}
	if res.n != nil {
		return lerr(syscall.EEXIST)
	}
	if strings.HasSuffix(newname, "/") {
		return lerr(syscall.ENOENT)
	}
	if m.p != nil && len(oldname) >= m.p.pathMax {
		return lerr(syscall.ENAMETOOLONG)
	}
	if err := m.createErr(res.base); err != nil {
		return lerr(err)
	}
	m.addNode(m.mutableDir(res.chain()), res.base, fs.ModeSymlink|0o777).target = oldname
	return nil
}

// Chmod changes the permission bits of the named file, following links.
func (m *MemFS) Chmod(name string, mode fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.mutableTarget("chmod", name)
	if err != nil {
		return err
	}
	n.mode = n.mode.Type() | mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	return nil
}

// Chtimes changes the modification time of the named file, following
// links. Access times are not recorded; a zero mtime leaves it unchanged.
func (m *MemFS) Chtimes(name string, atime, mtime time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.mutableTarget("chtimes", name)
	if err != nil {
		return err
	}
	if !mtime.IsZero() {
		n.mtime = mtime
	}
	return nil
}

func (m *MemFS) mutableTarget(op, name string) (*node, error) {
	if err := CheckName(op, name); err != nil {
		return nil, err
	}
	res, err := m.walk(name, walkFollow|walkChain)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	if res.n == nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
	}
	if res.parent == nil {
		if m.root.own != m.owner() {
			m.root = m.copyNode(m.root)
		}
		return m.root, nil
	}
	return m.mutableChild(m.mutableDir(res.chain()), res.base), nil
}

var _ ReadWriteFS = (*MemFS)(nil)
