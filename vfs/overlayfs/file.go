package overlayfs

import (
	"io"
	"io/fs"
	"syscall"

	"github.com/outfitter-go/vfsim/vfs"
)

// readFile is a read-only handle on the merged view: a regular file's
// content or a directory's listing, as they were when it was opened.
type readFile struct {
	name   string
	info   fs.FileInfo
	data   []byte
	dir    []fs.DirEntry // nil for a regular file
	off    int64
	closed bool
}

var (
	_ vfs.File       = (*readFile)(nil)
	_ fs.ReadDirFile = (*readFile)(nil)
	_ io.Seeker      = (*readFile)(nil)
	_ io.ReaderAt    = (*readFile)(nil)
)

func (rf *readFile) pathErr(op string, err error) error {
	return &fs.PathError{Op: op, Path: rf.name, Err: err}
}

// Stat returns information about the file as it was opened.
func (rf *readFile) Stat() (fs.FileInfo, error) {
	if rf.closed {
		return nil, rf.pathErr("stat", fs.ErrClosed)
	}
	return rf.info, nil
}

// Read reads from the current offset.
func (rf *readFile) Read(p []byte) (int, error) {
	n, err := rf.readAt(p, rf.off)
	rf.off += int64(n)
	return n, err
}

// ReadAt reads at an absolute offset, returning io.EOF when it reads short.
func (rf *readFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, rf.pathErr("readat", syscall.EINVAL)
	}
	n, err := rf.readAt(p, off)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

func (rf *readFile) readAt(p []byte, off int64) (int, error) {
	switch {
	case rf.closed:
		return 0, rf.pathErr("read", fs.ErrClosed)
	case rf.info.IsDir():
		return 0, rf.pathErr("read", syscall.EISDIR)
	case off >= int64(len(rf.data)):
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	return copy(p, rf.data[off:]), nil
}

// Write fails: the handle is read-only.
func (rf *readFile) Write([]byte) (int, error) {
	if rf.closed {
		return 0, rf.pathErr("write", fs.ErrClosed)
	}
	return 0, rf.pathErr("write", syscall.EBADF)
}

// Seek sets the offset for the next Read.
func (rf *readFile) Seek(offset int64, whence int) (int64, error) {
	if rf.closed {
		return 0, rf.pathErr("seek", fs.ErrClosed)
	}
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = rf.off
	case io.SeekEnd:
		base = int64(len(rf.data))
	default:
		return 0, rf.pathErr("seek", syscall.EINVAL)
	}
	if base+offset < 0 {
		return 0, rf.pathErr("seek", syscall.EINVAL)
	}
	rf.off = base + offset
	return rf.off, nil
}

// ReadDir reads directory entries in name order, like *os.File.ReadDir.
func (rf *readFile) ReadDir(count int) ([]fs.DirEntry, error) {
	if rf.closed {
		return nil, rf.pathErr("readdirent", fs.ErrClosed)
	}
	if !rf.info.IsDir() {
		return nil, rf.pathErr("readdirent", syscall.ENOTDIR)
	}
	if count <= 0 {
		list := rf.dir
		rf.dir = rf.dir[len(rf.dir):]
		if list == nil {
			list = []fs.DirEntry{}
		}
		return list, nil
	}
	if len(rf.dir) == 0 {
		return nil, io.EOF
	}
	count = min(count, len(rf.dir))
	list := rf.dir[:count:count]
	rf.dir = rf.dir[count:]
	return list, nil
}

// Close closes the file; a second Close returns an error wrapping
// fs.ErrClosed.
func (rf *readFile) Close() error {
	if rf.closed {
		return rf.pathErr("close", fs.ErrClosed)
	}
	rf.closed = true
	return nil
}
