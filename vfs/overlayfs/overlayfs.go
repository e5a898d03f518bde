package overlayfs

import (
	"errors"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

// Options configures [New]. The zero value is ready to use.
type Options struct {
	// Upper is the layer that receives every change. Nil means a fresh
	// MemFS made with Clock and Umask, whose root takes the permission bits
	// and modification time of the lower layer's root. A given Upper is
	// used as it is; nothing else may change it while the FS is in use.
	Upper *vfs.MemFS
	// Clock returns the time stamped on entries created or changed in a
	// fresh upper layer. Nil means time.Now. It is ignored when Upper is
	// set.
	Clock func() time.Time
	// Umask holds the permission bits cleared from the modes given to
	// creating calls of a fresh upper layer. It is ignored when Upper is
	// set.
	Umask fs.FileMode
}

// FS is a copy-on-write overlay of a read-only lower file system and an
// in-memory upper layer. Create one with [New]; the zero value is not
// usable. See the package documentation for the layering rules.
//
// An FS is safe for concurrent use by multiple goroutines: every call holds
// one lock for its duration (shared for reads, exclusive for writes), so
// each call is atomic with respect to the others. An open file may be used
// by one goroutine at a time. The lower layer must not change while the FS
// is in use, and the upper layer must only be changed through the FS.
type FS struct {
	mu    sync.RWMutex
	lower vfs.FS
	upper *vfs.MemFS
	// whiteouts holds the canonical names whose lower entries never show
	// again: removed or replaced names. A directory of the upper layer
	// whose name has a whiteout is opaque. No whiteout lies below another.
	whiteouts map[string]struct{}
	// cacheMu guards lowerInfo and known, which readers fill while they
	// share mu.
	cacheMu sync.Mutex
	// lowerInfo caches the lower layer's Lstat information by canonical
	// name, nil where it has no entry: a fact of the lower layer alone,
	// which never changes, so that a name is asked of it once. It grows
	// with the names the overlay resolves below lower directories.
	lowerInfo map[string]fs.FileInfo
	// known caches the merged view's entries by canonical name for the
	// calls that only read. Every call that writes empties it when it
	// takes mu, and neither reads nor fills it (writing is set while it
	// holds mu).
	known   map[string]knownEntry
	writing bool
	// locks are the advisory locks of Lock and TryLock.
	locks locks
}

// knownEntry is an entry of the merged view as [FS.known] keeps it.
type knownEntry struct {
	info  fs.FileInfo // nil when there is no entry
	upper bool
}

// maxKeptKnown is the size up to which the cache of merged entries is
// emptied in place rather than dropped, so that emptying it stays cheap.
const maxKeptKnown = 64

// lockWrite takes mu for a call that writes; unlockWrite releases it.
func (f *FS) lockWrite() {
	f.mu.Lock()
	f.writing = true
	// Either way the cache ends empty: mutants moving or negating the
	// first bound, or letting the second clear an empty map, change only
	// the memory kept (equivalent).
	switch n := len(f.known); {
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	case n > maxKeptKnown:
		f.known = map[string]knownEntry{}
	//mutants:equivalent CONDITIONALS_BOUNDARY
	case n > 0:
		clear(f.known)
	}
}

func (f *FS) unlockWrite() {
	f.writing = false
	f.mu.Unlock()
}

var (
	_ vfs.ReadWriteFS = (*FS)(nil)
	_ vfs.SyncDirFS   = (*FS)(nil)
)

// New returns an overlay of lower, which it only reads (through Lstat,
// ReadLink, ReadDir and ReadFile, or their fallbacks in package vfs). It
// panics if lower is nil.
func New(lower vfs.FS, opts Options) *FS {
	if lower == nil {
		panic("overlayfs: nil lower FS")
	}
	up := opts.Upper
	if up == nil {
		up = vfs.NewMemFS(vfs.MemOptions{Clock: opts.Clock, Umask: opts.Umask})
		if fi, err := vfs.Lstat(lower, "/"); err == nil && fi.IsDir() {
			// The fresh root is a directory, so neither call can fail.
			_ = up.Chmod("/", fi.Mode()&modeBits)
			_ = up.Chtimes("/", fi.ModTime(), fi.ModTime())
		}
	}
	return &FS{lower: lower, upper: up, whiteouts: map[string]struct{}{},
		lowerInfo: map[string]fs.FileInfo{}, known: map[string]knownEntry{}}
}

// Upper returns the upper layer. Reading it shows what the overlay holds
// in memory (copied-up and new entries); changing it directly is not
// allowed.
func (f *FS) Upper() *vfs.MemFS { return f.upper }

// Lower returns the lower layer.
func (f *FS) Lower() vfs.FS { return f.lower }

// modeBits are the mode bits that Chmod sets.
const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// --- the merged view ---------------------------------------------------

// entry is one entry of the merged view.
type entry struct {
	path  string      // canonical name
	info  fs.FileInfo // Lstat information from the layer holding it
	upper bool        // the entry lives in the upper layer
	// typeOnly says that info is good for the entry's type only: an
	// upper entry's information taken from [FS.known], whose size, mode
	// and time an open handle may have changed since.
	typeOnly bool
}

// freshInfo returns e's current Lstat information.
func (f *FS) freshInfo(e *entry) (fs.FileInfo, error) {
	if !e.typeOnly {
		return e.info, nil
	}
	fi, err := f.upper.Lstat(e.path)
	return fi, vfs.Cause(err)
}

// isDir reports whether e is a directory. The root's information is read
// only when a caller needs it (a nil info stands for the root).
func (e *entry) isDir() bool  { return e.info == nil || e.info.IsDir() }
func (e *entry) isLink() bool { return e.info != nil && e.info.Mode()&fs.ModeSymlink != 0 }

// frame is an entry on the resolution stack: the handle of the merged
// view's entries in [vfs.Resolve].
type frame struct {
	e entry
	// lower says whether the lower layer's children of the entry show
	// through.
	lower lowerState
}

// lowerState says whether the lower layer's children of an entry show
// through the merged view.
type lowerState uint8

const (
	lowerUnknown lowerState = iota // not looked up yet
	lowerShown
	lowerHidden
)

// stackRoom is the depth of the resolution stacks kept on the caller's
// stack; deeper ones move to the heap.
const stackRoom = 8

// walkResult is the outcome of resolving a name in the merged view.
type walkResult struct {
	// stack holds the entries from the root to the parent of the final
	// name, then the final entry itself when it exists.
	stack []frame
	// path is the canonical name of the final entry, existing or not.
	path string
	// exists reports whether the final entry exists.
	exists bool
}

// final returns the final entry; it is valid only when r.exists.
func (r *walkResult) final() *entry { return &r.stack[len(r.stack)-1].e }

// The modes of a resolution in the merged view: those of [vfs.Resolve].
const (
	walkFollow = vfs.ResolveFollow
	walkCreate = vfs.ResolveCreate
	walkParent = vfs.ResolveParent
)

func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// missing reports whether a lower-layer error means that the name has no
// entry.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, vfs.ErrNotDir)
}

// hasWhiteout reports whether the canonical name itself has a whiteout.
func (f *FS) hasWhiteout(name string) bool {
	_, ok := f.whiteouts[name]
	return ok
}

// whiteOut records a whiteout on name: the lower entry at name, and
// everything below it, never shows again. The whiteouts below name are
// folded into it.
func (f *FS) whiteOut(name string) {
	for d := range f.whiteouts {
		if name == "/" || len(d) > len(name) && d[len(name)] == '/' && d[:len(name)] == name {
			delete(f.whiteouts, d)
		}
	}
	// The name may be part of a caller's longer string: keep a copy.
	f.whiteouts[strings.Clone(name)] = struct{}{}
}

// rootInfo returns the information of "/", which always lives in the
// upper layer.
func (f *FS) rootInfo() (fs.FileInfo, error) {
	fi, err := f.upper.Lstat("/")
	return fi, vfs.Cause(err)
}

// lowerShows reports whether the lower layer's children of the directory
// fr show through, caching the answer in fr.
func (f *FS) lowerShows(fr *frame) (bool, error) {
	if fr.lower == lowerUnknown {
		ok, err := f.lowerShowsAt(fr.e.path)
		if err != nil {
			return false, err
		}
		fr.lower = lowerHidden
		if ok {
			fr.lower = lowerShown
		}
	}
	return fr.lower == lowerShown, nil
}

// lowerShowsAt reports whether the lower layer's children of the
// directory at the canonical name dir show through: dir and every
// directory above it are directories of the lower layer, and none of them
// was removed or replaced.
func (f *FS) lowerShowsAt(dir string) (bool, error) {
	shows := func(p string) (bool, error) {
		if f.hasWhiteout(p) {
			return false, nil
		}
		fi, err := f.lowerLstat(p)
		return fi != nil && fi.IsDir(), err
	}
	if ok, err := shows("/"); !ok || err != nil || dir == "/" {
		return ok, err
	}
	for i := 1; i < len(dir); i++ {
		if dir[i] == '/' {
			if ok, err := shows(dir[:i]); !ok || err != nil {
				return ok, err
			}
		}
	}
	return shows(dir)
}

// lowerLstat returns the lower layer's Lstat information for the
// canonical name p, or nil when the lower layer has no entry there; the
// error is bare.
func (f *FS) lowerLstat(p string) (fs.FileInfo, error) {
	f.cacheMu.Lock()
	fi, known := f.lowerInfo[p]
	f.cacheMu.Unlock()
	if known {
		return fi, nil
	}
	fi, err := vfs.Lstat(f.lower, p)
	if err != nil {
		if !missing(err) {
			return nil, vfs.Cause(err)
		}
		fi = nil
	}
	f.cacheMu.Lock()
	f.lowerInfo[p] = fi
	f.cacheMu.Unlock()
	return fi, nil
}

// childPath returns the canonical name of comp in the directory dir,
// where comp starts at byte i of src. When dir is the part of src before
// comp, with one slash between them (the root's own slash only for the
// root), that is a prefix of src, which costs no allocation.
func childPath(src string, i int, dir, comp string) string {
	// The prefix and join give the same name: mutants of this test that
	// only send a name to join instead are equivalent (dir == "/" or
	// src[i-1] == '/' negated, i-1 == len(dir) made i+1, src[:i-1] made
	// src[:i+1]); one that took the prefix wrongly would name another
	// entry, which the tests see.
	//mutants:equivalent CONDITIONALS_NEGATION@9 CONDITIONALS_NEGATION@71 ARITHMETIC_BASE@44 INVERT_NEGATIVES@44 ARITHMETIC_BASE@87 INVERT_NEGATIVES@87
	if dir == "/" && i == 1 || dir != "/" && i-1 == len(dir) && src[i-1] == '/' && src[:i-1] == dir {
		return src[:i+len(comp)]
	}
	return join(dir, comp)
}

// child looks up p, a child of the directory dir.
// Only the children of upper directories are cached in f.known: those of
// a lower one are the lower layer's, which f.lowerInfo keeps.
func (f *FS) child(dir *frame, p string) (entry, bool, error) {
	if f.writing || !dir.e.upper {
		return f.lookChild(dir, p)
	}
	f.cacheMu.Lock()
	k, known := f.known[p]
	f.cacheMu.Unlock()
	if known {
		return entry{path: p, info: k.info, upper: k.upper, typeOnly: k.upper}, k.info != nil, nil
	}
	e, ok, err := f.lookChild(dir, p)
	if err == nil {
		f.cacheMu.Lock()
		f.known[p] = knownEntry{info: e.info, upper: e.upper}
		f.cacheMu.Unlock()
	}
	return e, ok, err
}

// lookChild is child without the cache.
func (f *FS) lookChild(dir *frame, p string) (entry, bool, error) {
	if dir.e.upper {
		if fi, err := f.upper.Lstat(p); err == nil {
			return entry{path: p, info: fi, upper: true}, true, nil
		}
	}
	if f.hasWhiteout(p) {
		return entry{path: p}, false, nil
	}
	ok, err := f.lowerShows(dir)
	if err != nil || !ok {
		return entry{path: p}, false, err
	}
	fi, err := f.lowerLstat(p)
	if err != nil || fi == nil {
		return entry{path: p}, false, err
	}
	return entry{path: p, info: fi}, true, nil
}

// readLink returns the target of the link e from its layer.
func (f *FS) readLink(e *entry) (string, error) {
	var t string
	var err error
	if e.upper {
		t, err = f.upper.ReadLink(e.path)
	} else {
		t, err = vfs.ReadLink(f.lower, e.path)
	}
	return t, vfs.Cause(err)
}

// walk resolves name in the merged view with [vfs.Resolve], the rules of
// MemFS. The error is bare (an errno, or an error of a layer without its
// path); callers wrap it. The stack is appended to stackBuf, room on the
// caller's stack.
func (f *FS) walk(name string, mode vfs.ResolveMode, stackBuf []frame) (walkResult, error) {
	res, _, err := f.walkRecord(name, mode, stackBuf, nil)
	return res, err
}

// walkRecord is walk that, unless touched is nil, also returns touched
// with the entries the resolution passed through (directories descended
// into and links followed) appended in order, even when it fails.
func (f *FS) walkRecord(name string, mode vfs.ResolveMode, stackBuf, touched []frame) (walkResult, []frame, error) {
	root := frame{e: entry{path: "/", upper: true}}
	stack, r, touched, err := vfs.Resolve[frame](mergedLookup{f}, root, name, mode, stackBuf, touched)
	if err != nil {
		return walkResult{}, touched, err
	}
	if r.Kind == vfs.KindNone {
		return walkResult{stack: stack, path: r.Final.e.path}, touched, nil
	}
	if top := &stack[len(stack)-1]; top.e.info == nil {
		// The root, whose information is read only when a caller needs it.
		fi, err := f.rootInfo()
		if err != nil {
			return walkResult{}, touched, err
		}
		top.e.info = fi
	}
	return walkResult{stack: stack, path: r.Final.e.path, exists: true}, touched, nil
}

// mergedLookup is the merged view's [vfs.Lookup].
type mergedLookup struct{ f *FS }

func (l mergedLookup) Child(dir frame, src string, at int, name string) (frame, vfs.Kind, error) {
	c, ok, err := l.f.child(&dir, childPath(src, at, dir.e.path, name))
	if err != nil || !ok {
		return frame{e: c}, vfs.KindNone, err
	}
	fr := frame{e: c}
	kind := vfs.KindFile
	switch {
	case c.isDir():
		kind = vfs.KindDir
	case c.isLink():
		kind = vfs.KindLink
	}
	if !c.upper {
		// A lower entry shows, so its parent's lower children do: a
		// lower directory's own lower children show too.
		fr.lower = lowerHidden
		if kind == vfs.KindDir {
			fr.lower = lowerShown
		}
	}
	return fr, kind, nil
}

func (l mergedLookup) ReadLink(fr frame) (string, error) { return l.f.readLink(&fr.e) }

// readDir lists the directory on top of stack, merging both layers.
func (f *FS) readDir(stack []frame) ([]fs.DirEntry, error) {
	top := &stack[len(stack)-1]
	var up []fs.DirEntry
	if top.e.upper {
		l, err := f.upper.ReadDir(top.e.path)
		if err != nil {
			return nil, vfs.Cause(err)
		}
		up = l
	}
	ok, err := f.lowerShows(top)
	if err != nil || !ok {
		return up, err
	}
	low, err := vfs.ReadDir(f.lower, top.e.path)
	if err != nil {
		return nil, vfs.Cause(err)
	}
	// key holds the directory's name and a slash; a child's name is
	// appended to it to look it up among the whiteouts.
	var keyBuf [128]byte
	key := append(keyBuf[:0], top.e.path...)
	if top.e.path != "/" {
		key = append(key, '/')
	}
	shows := func(de fs.DirEntry) bool {
		if len(f.whiteouts) == 0 {
			return true
		}
		_, hidden := f.whiteouts[string(append(key, de.Name()...))]
		return !hidden
	}
	if len(up) == 0 {
		// The listing is the caller's: keep the lower entries that show in
		// place.
		list := low[:0]
		for _, de := range low {
			if shows(de) {
				list = append(list, de)
			}
		}
		return list, nil
	}
	// Both listings are sorted by name: merge them, the upper entry
	// winning over a lower one of the same name.
	list := make([]fs.DirEntry, 0, len(up)+len(low))
	i := 0
	for _, de := range low {
		name := de.Name()
		for i < len(up) && up[i].Name() < name {
			list = append(list, up[i])
			i++
		}
		if i < len(up) && up[i].Name() == name || !shows(de) {
			continue
		}
		list = append(list, de)
	}
	return append(list, up[i:]...), nil
}
