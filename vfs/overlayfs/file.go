package overlayfs

import (
	"io"
	"io/fs"
	"syscall"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/internal/handle"
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
	}
	return handle.ReadAt(p, rf.data, off)
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
	off, err := handle.Seek(rf.off, offset, whence, func() int64 { return int64(len(rf.data)) })
	if err != nil {
		return 0, rf.pathErr("seek", err)
	}
	rf.off = off
	return off, nil
}

// ReadDir reads directory entries in name order, like *os.File.ReadDir.
func (rf *readFile) ReadDir(count int) ([]fs.DirEntry, error) {
	if rf.closed {
		return nil, rf.pathErr("readdirent", fs.ErrClosed)
	}
	if !rf.info.IsDir() {
		return nil, rf.pathErr("readdirent", syscall.ENOTDIR)
	}
	return handle.ReadDir(&rf.dir, count)
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
