package aferofs

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/spf13/afero"

	"github.com/outfitter-go/vfsim/vfs"
)

// ToVFS returns a as a vfs FS. Names are passed to a unchanged (vfs names
// are absolute, so they stay "/x" and never meet afero MemMapFs's separate
// "x" key).
//
// The result has the methods of every vfs capability interface, so type
// assertions on it succeed; the capabilities a cannot honour fail at run
// time with an error wrapping errors.ErrUnsupported, never with a
// look-alike: Symlink needs an afero.Linker, ReadLink an afero.LinkReader,
// and Lstat an afero.Lstater that reports it really used lstat (afero
// MemMapFs's LstatIfPossible only stats, and says so).
func ToVFS(a afero.Fs) vfs.FS {
	if a == nil {
		panic("aferofs: nil afero.Fs")
	}
	return &toVFS{a: a}
}

// toVFS adapts an afero.Fs to the vfs interfaces.
type toVFS struct {
	a afero.Fs
}

var (
	_ vfs.ReadWriteFS = (*toVFS)(nil)
	_ vfs.SyncDirFS   = (*toVFS)(nil)
)

func (v *toVFS) Open(name string) (fs.File, error) {
	f, err := v.a.Open(name)
	if err != nil {
		return nil, err
	}
	return &vfsFile{File: f}, nil
}

func (v *toVFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := v.a.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &vfsFile{File: f}, nil
}

func (v *toVFS) Stat(name string) (fs.FileInfo, error) { return v.a.Stat(name) }

func (v *toVFS) Lstat(name string) (fs.FileInfo, error) {
	l, ok := v.a.(afero.Lstater)
	if !ok {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: errors.ErrUnsupported}
	}
	fi, used, err := l.LstatIfPossible(name)
	if !used {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: errors.ErrUnsupported}
	}
	return fi, err
}

func (v *toVFS) ReadFile(name string) ([]byte, error) { return afero.ReadFile(v.a, name) }

func (v *toVFS) ReadDir(name string) ([]fs.DirEntry, error) {
	infos, err := afero.ReadDir(v.a, name)
	entries := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		entries[i] = fs.FileInfoToDirEntry(fi)
	}
	return entries, err
}

func (v *toVFS) ReadLink(name string) (string, error) {
	r, ok := v.a.(afero.LinkReader)
	if !ok {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: errors.ErrUnsupported}
	}
	target, err := r.ReadlinkIfPossible(name)
	if errors.Is(err, afero.ErrNoReadlink) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: errors.ErrUnsupported}
	}
	return target, err
}

func (v *toVFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return afero.WriteFile(v.a, name, data, perm)
}

func (v *toVFS) Mkdir(name string, perm fs.FileMode) error { return v.a.Mkdir(name, perm) }

func (v *toVFS) MkdirAll(name string, perm fs.FileMode) error { return v.a.MkdirAll(name, perm) }

func (v *toVFS) Remove(name string) error { return v.a.Remove(name) }

func (v *toVFS) RemoveAll(name string) error { return v.a.RemoveAll(name) }

func (v *toVFS) Rename(oldname, newname string) error { return v.a.Rename(oldname, newname) }

func (v *toVFS) Symlink(oldname, newname string) error {
	l, ok := v.a.(afero.Linker)
	if !ok {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: errors.ErrUnsupported}
	}
	err := l.SymlinkIfPossible(oldname, newname)
	if errors.Is(err, afero.ErrNoSymlink) {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: errors.ErrUnsupported}
	}
	return err
}

func (v *toVFS) Chmod(name string, mode fs.FileMode) error { return v.a.Chmod(name, mode) }

func (v *toVFS) Chtimes(name string, atime, mtime time.Time) error {
	return v.a.Chtimes(name, atime, mtime)
}

// vfsFile is an afero.File that also lists directories the io/fs way.
type vfsFile struct {
	afero.File
}

// ReadDir reads directory entries like (*os.File).ReadDir.
func (f *vfsFile) ReadDir(n int) ([]fs.DirEntry, error) {
	infos, err := f.Readdir(n)
	entries := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		entries[i] = fs.FileInfoToDirEntry(fi)
	}
	return entries, err
}

// SyncDir syncs the named directory: it opens it through a and calls the
// afero file's Sync (an fsync of the directory on afero's OsFs; what the
// backend makes of it elsewhere). A name that is not a directory fails
// with vfs.ErrNotDir.
func (v *toVFS) SyncDir(name string) error {
	d, err := v.a.Open(name)
	if err != nil {
		return err
	}
	defer d.Close()
	if fi, err := d.Stat(); err != nil {
		return err
	} else if !fi.IsDir() {
		return &fs.PathError{Op: "sync", Path: name, Err: vfs.ErrNotDir}
	}
	return d.Sync()
}
