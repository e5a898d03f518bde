package vfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"

	"github.com/outfitter-go/vfsim/vfs/internal/handle"
)

// memFile is an open file or directory of a [MemFS]. It refers to its entry
// by canonical path and inode number, so it keeps working across clones'
// copy-on-write; renames of an open writable file are tracked, and a file
// removed while open keeps its last content, private to the handle.
type memFile struct {
	m      *MemFS
	name   string // the caller's name
	path   string // canonical path of the entry
	ino    uint64
	last   *node // the entry as last seen
	flag   int
	off    int64
	closed bool

	dirList []fs.DirEntry
	dirRead bool
}

var (
	_ File           = (*memFile)(nil)
	_ fs.ReadDirFile = (*memFile)(nil)
	_ io.Seeker      = (*memFile)(nil)
	_ io.ReaderAt    = (*memFile)(nil)
	_ io.WriterAt    = (*memFile)(nil)
)

// Open opens the named file or directory for reading, following links.
func (m *MemFS) Open(name string) (fs.File, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.openRead(name)
}

// openRead is Open for a caller holding m.mu.
func (m *MemFS) openRead(name string) (fs.File, error) {
	if err := CheckName("open", name); err != nil {
		return nil, err
	}
	res, err := m.walk(name, walkFollow)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if res.n == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	return &memFile{m: m, name: name, path: "", ino: res.n.ino, last: res.n, flag: os.O_RDONLY}, nil
}

// OpenFile opens the named file with os.O_* flags like os.OpenFile,
// following links (with O_CREATE|O_EXCL a final link, even dangling, is an
// existing entry). Directories can be opened read-only only.
func (m *MemFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, res, err := m.openLocked("open", name, flag, perm)
	if err != nil {
		return nil, err
	}
	f := &memFile{m: m, name: name, path: canonical(res), ino: n.ino, last: n, flag: flag}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		if m.handles == nil {
			m.handles = map[*memFile]struct{}{}
		}
		m.handles[f] = struct{}{}
	}
	return f, nil
}

// renameHandles rewrites the paths of open writable files after a rename.
// The caller holds m.mu.
func (m *MemFS) renameHandles(oldPath, newPath string) {
	for f := range m.handles {
		switch {
		case f.path == oldPath:
			f.path = newPath
		case strings.HasPrefix(f.path, oldPath+"/"):
			f.path = newPath + f.path[len(oldPath):]
		}
	}
}

// current returns the entry the handle refers to; with mutable set it is
// this file system's own copy. The caller holds m.mu (exclusively when
// mutable).
func (f *memFile) current(mutable bool) *node {
	if f.path != "" {
		res, err := f.m.walk(f.path, walkChain)
		if err == nil && res.n != nil && res.n.ino == f.ino {
			n := res.n
			if mutable && n.own != f.m.owner() {
				if res.parent == nil {
					n = f.m.copyNode(n)
					f.m.root = n
				} else {
					n = f.m.mutableChild(f.m.mutableDir(res.chain()), res.base)
				}
			}
			f.last = n
			return n
		}
		// The entry is gone: the handle keeps a private copy of a file. A
		// directory, which no handle writes to, stays shared, so that its
		// listing follows the directory like an open descriptor's.
		f.path = ""
		if !f.last.isDir() {
			f.last = &node{ino: f.last.ino, mode: f.last.mode, mtime: f.last.mtime, data: f.last.data, target: f.last.target}
		}
	}
	// Read-only handles from Open, and detached handles, use the entry
	// they hold.
	return f.last
}

func (f *memFile) pathErr(op string, err error) error {
	return &fs.PathError{Op: op, Path: f.name, Err: err}
}

// Stat returns information about the open file.
func (f *memFile) Stat() (fs.FileInfo, error) {
	if f.closed {
		return nil, f.pathErr("stat", fs.ErrClosed)
	}
	f.m.mu.RLock()
	defer f.m.mu.RUnlock()
	return infoOf(path.Base(f.name), f.current(false)), nil
}

func (f *memFile) readable() bool { return f.flag&os.O_WRONLY == 0 }
func (f *memFile) writable() bool { return f.flag&(os.O_WRONLY|os.O_RDWR) != 0 }

// Read reads from the current offset.
func (f *memFile) Read(p []byte) (int, error) {
	n, err := f.readAt(p, f.off, "read")
	f.off += int64(n)
	return n, err
}

// ReadAt reads at an absolute offset, returning io.EOF when it reads short.
func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, f.pathErr("readat", syscall.EINVAL)
	}
	n, err := f.readAt(p, off, "read")
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

func (f *memFile) readAt(p []byte, off int64, op string) (int, error) {
	if f.closed {
		return 0, f.pathErr(op, fs.ErrClosed)
	}
	if !f.readable() {
		return 0, f.pathErr(op, syscall.EBADF)
	}
	f.m.mu.RLock()
	defer f.m.mu.RUnlock()
	n := f.current(false)
	if n.isDir() {
		return 0, f.pathErr(op, syscall.EISDIR)
	}
	return handle.ReadAt(p, n.data, off)
}

// Write writes at the current offset, or at the end with O_APPEND.
func (f *memFile) Write(p []byte) (int, error) {
	if f.closed {
		return 0, f.pathErr("write", fs.ErrClosed)
	}
	if f.flag&os.O_APPEND != 0 {
		f.m.mu.RLock()
		f.off = int64(len(f.current(false).data))
		f.m.mu.RUnlock()
	}
	n, err := f.writeAt(p, f.off, "write")
	f.off += int64(n)
	return n, err
}

// WriteAt writes at an absolute offset; it fails with O_APPEND, like
// *os.File.
func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	if f.closed {
		return 0, f.pathErr("write", fs.ErrClosed)
	}
	if f.flag&os.O_APPEND != 0 {
		return 0, f.pathErr("writeat", syscall.EINVAL)
	}
	if off < 0 {
		return 0, f.pathErr("writeat", syscall.EINVAL)
	}
	return f.writeAt(p, off, "write")
}

func (f *memFile) writeAt(p []byte, off int64, op string) (int, error) {
	if !f.writable() {
		return 0, f.pathErr(op, syscall.EBADF)
	}
	f.m.mu.Lock()
	defer f.m.mu.Unlock()
	n := f.current(true)
	end := off + int64(len(p))
	switch {
	case !n.ownData.Load():
		grown := make([]byte, max(int64(len(n.data)), end))
		copy(grown, n.data)
		n.data = grown
		n.ownData.Store(true)
	// Grow allocates only when the capacity is short. At end == len it
	// leaves the data as it is, and its count is a capacity: mutants of
	// this bound or of that count are equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	case end > int64(len(n.data)):
		//mutants:equivalent ARITHMETIC_BASE INVERT_NEGATIVES
		n.data = slices.Grow(n.data, int(end)-len(n.data))[:end]
	}
	copy(n.data[off:], p)
	n.mtime = f.m.clock()
	return len(p), nil
}

// Truncate changes the size of the file.
func (f *memFile) Truncate(size int64) error {
	if f.closed {
		return f.pathErr("truncate", fs.ErrClosed)
	}
	if !f.writable() || size < 0 {
		return f.pathErr("truncate", syscall.EINVAL)
	}
	f.m.mu.Lock()
	defer f.m.mu.Unlock()
	n := f.current(true)
	data := make([]byte, size)
	copy(data, n.data)
	n.data = data
	n.ownData.Store(true)
	n.mtime = f.m.clock()
	return nil
}

// Seek sets the offset for the next Read or Write.
func (f *memFile) Seek(offset int64, whence int) (int64, error) {
	if f.closed {
		return 0, f.pathErr("seek", fs.ErrClosed)
	}
	off, err := handle.Seek(f.off, offset, whence, func() int64 {
		f.m.mu.RLock()
		defer f.m.mu.RUnlock()
		return int64(len(f.current(false).data))
	})
	if err != nil {
		return 0, f.pathErr("seek", err)
	}
	f.off = off
	return off, nil
}

// ReadDir reads directory entries in name order, like *os.File.ReadDir.
func (f *memFile) ReadDir(count int) ([]fs.DirEntry, error) {
	if f.closed {
		return nil, f.pathErr("readdirent", fs.ErrClosed)
	}
	if !f.dirRead {
		f.m.mu.RLock()
		n := f.current(false)
		if !n.isDir() {
			f.m.mu.RUnlock()
			return nil, f.pathErr("readdirent", syscall.ENOTDIR)
		}
		f.dirList = sortedEntries(n)
		f.m.mu.RUnlock()
		f.dirRead = true
	}
	return handle.ReadDir(&f.dirList, count)
}

// Name returns the name the file was opened with.
func (f *memFile) Name() string { return f.name }

// Sync records that the file was synced (see [MemFS.Syncs]): memory has
// no stable storage to reach, so it writes nothing. It fails only on a
// closed file, with an error wrapping fs.ErrClosed.
func (f *memFile) Sync() error {
	if f.closed {
		return f.pathErr("sync", fs.ErrClosed)
	}
	f.m.syncs.files.Add(1)
	return nil
}

// Close closes the file; a second Close returns an error wrapping
// fs.ErrClosed.
func (f *memFile) Close() error {
	if f.closed {
		return f.pathErr("close", fs.ErrClosed)
	}
	f.closed = true
	if f.writable() {
		f.m.mu.Lock()
		delete(f.m.handles, f)
		f.m.mu.Unlock()
	}
	return nil
}
