package osfs

import (
	"io/fs"
	"os"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
)

// file is an open host file whose errors and Name speak of the vfs name.
// Besides [vfs.File] and fs.ReadDirFile it offers the io.Seeker,
// io.ReaderAt, io.WriterAt, Sync and Truncate methods of *os.File.
type file struct {
	f    *os.File
	name string
	// fsys is the rooted FS the file was opened on, nil on the host FS.
	fsys *FS
}

// Name returns the vfs name the file was opened with.
func (fl *file) Name() string { return fl.name }

// fix names the vfs name in an error of the host file.
func (fl *file) fix(err error) error {
	return vfs.WithNames(err, func(string) string { return fl.name })
}

// Read reads from the file.
func (fl *file) Read(p []byte) (int, error) {
	n, err := fl.f.Read(p)
	return n, fl.fix(err)
}

// ReadAt reads from the file at an offset.
func (fl *file) ReadAt(p []byte, off int64) (int, error) {
	n, err := fl.f.ReadAt(p, off)
	return n, fl.fix(err)
}

// Write writes to the file.
func (fl *file) Write(p []byte) (int, error) {
	n, err := fl.f.Write(p)
	return n, fl.fix(err)
}

// WriteAt writes to the file at an offset.
func (fl *file) WriteAt(p []byte, off int64) (int, error) {
	n, err := fl.f.WriteAt(p, off)
	return n, fl.fix(err)
}

// Seek sets the offset of the next Read or Write.
func (fl *file) Seek(offset int64, whence int) (int64, error) {
	n, err := fl.f.Seek(offset, whence)
	return n, fl.fix(err)
}

// Stat describes the open file; its Name is the base of the vfs name, the
// name the host file was opened with.
func (fl *file) Stat() (fs.FileInfo, error) {
	fi, err := fl.f.Stat()
	if err != nil {
		return nil, fl.fix(err)
	}
	return fi, nil
}

// ReadDir reads directory entries, like (*os.File).ReadDir.
func (fl *file) ReadDir(n int) ([]fs.DirEntry, error) {
	list, err := fl.f.ReadDir(n)
	if fl.fsys != nil {
		fl.fsys.entries(fl.name, list)
	}
	return list, fl.fix(err)
}

// Sync commits the file to stable storage.
func (fl *file) Sync() error { return fl.fix(fl.f.Sync()) }

// Truncate changes the size of the file.
func (fl *file) Truncate(size int64) error { return fl.fix(fl.f.Truncate(size)) }

// Chmod changes the mode of the file.
func (fl *file) Chmod(mode fs.FileMode) error { return fl.fix(fl.f.Chmod(mode)) }

// Close closes the file.
func (fl *file) Close() error { return fl.fix(fl.f.Close()) }

// dirEntry is an entry of a directory of a rooted FS. Package os would
// answer Info with an lstat of the host path it made from the name the
// directory was opened with; dirEntry asks the rooted FS instead.
type dirEntry struct {
	fs.DirEntry
	fsys *FS
	dir  string // the vfs name of the directory, as the caller gave it
}

// Info returns the FileInfo of the entry, without following a link.
func (e *dirEntry) Info() (fs.FileInfo, error) {
	return e.fsys.Lstat(strings.TrimRight(e.dir, "/") + "/" + e.Name())
}

// entries makes the entries of the directory dir, read from the host,
// answer Info through f. The entry's name is joined to dir as it is, not
// cleaned, since ".." after a link is not lexical.
func (f *FS) entries(dir string, list []fs.DirEntry) {
	for i, e := range list {
		list[i] = &dirEntry{DirEntry: e, fsys: f, dir: dir}
	}
}
