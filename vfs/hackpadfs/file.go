package hackpadfs

import (
	"io"
	"io/fs"

	hpfs "github.com/hack-pad/hackpadfs"

	"github.com/outfitter-go/vfsim/vfs"
)

// file is an open vfs file seen as a hackpadfs file. Methods the vfs file
// lacks fail with hackpadfs.ErrNotImplemented, which hackpadfs callers
// recognise; errors name hackpadfs names.
type file struct {
	fsys *FS
	f    vfs.File
	name string
}

func (fl *file) notImplemented(op string) error {
	return &fs.PathError{Op: op, Path: fl.name, Err: hpfs.ErrNotImplemented}
}

// Read reads from the file.
func (fl *file) Read(p []byte) (int, error) {
	n, err := fl.f.Read(p)
	return n, fl.fsys.fix(err)
}

// Write writes to the file.
func (fl *file) Write(p []byte) (int, error) {
	n, err := fl.f.Write(p)
	return n, fl.fsys.fix(err)
}

// Stat describes the file.
func (fl *file) Stat() (fs.FileInfo, error) {
	fi, err := fl.f.Stat()
	return fi, fl.fsys.fix(err)
}

// Close closes the file.
func (fl *file) Close() error { return fl.fsys.fix(fl.f.Close()) }

// ReadAt reads at an offset.
func (fl *file) ReadAt(p []byte, off int64) (int, error) {
	r, ok := fl.f.(io.ReaderAt)
	if !ok {
		return 0, fl.notImplemented("readat")
	}
	n, err := r.ReadAt(p, off)
	return n, fl.fsys.fix(err)
}

// WriteAt writes at an offset.
func (fl *file) WriteAt(p []byte, off int64) (int, error) {
	w, ok := fl.f.(io.WriterAt)
	if !ok {
		return 0, fl.notImplemented("writeat")
	}
	n, err := w.WriteAt(p, off)
	return n, fl.fsys.fix(err)
}

// Seek sets the offset of the next Read or Write.
func (fl *file) Seek(offset int64, whence int) (int64, error) {
	s, ok := fl.f.(io.Seeker)
	if !ok {
		return 0, fl.notImplemented("seek")
	}
	n, err := s.Seek(offset, whence)
	return n, fl.fsys.fix(err)
}

// ReadDir reads directory entries.
func (fl *file) ReadDir(n int) ([]fs.DirEntry, error) {
	d, ok := fl.f.(fs.ReadDirFile)
	if !ok {
		return nil, fl.notImplemented("readdir")
	}
	list, err := d.ReadDir(n)
	return list, fl.fsys.fix(err)
}

// Sync commits the file to storage.
func (fl *file) Sync() error {
	s, ok := fl.f.(interface{ Sync() error })
	if !ok {
		return fl.notImplemented("sync")
	}
	return fl.fsys.fix(s.Sync())
}

// Truncate changes the size of the file.
func (fl *file) Truncate(size int64) error {
	t, ok := fl.f.(interface{ Truncate(int64) error })
	if !ok {
		return fl.notImplemented("truncate")
	}
	return fl.fsys.fix(t.Truncate(size))
}

// Chmod changes the mode of the open file.
func (fl *file) Chmod(mode fs.FileMode) error {
	c, ok := fl.f.(interface{ Chmod(fs.FileMode) error })
	if !ok {
		return fl.notImplemented("chmod")
	}
	return fl.fsys.fix(c.Chmod(mode))
}
