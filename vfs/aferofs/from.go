package aferofs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/spf13/afero"

	"github.com/outfitter-go/vfsim/vfs"
)

// FromVFS returns fsys as an afero.Fs. The result is also an
// afero.Symlinker: SymlinkIfPossible, ReadlinkIfPossible and
// LstatIfPossible call fsys's Symlink, ReadLink and Lstat, and
// LstatIfPossible always reports that Lstat was used. Chown is not part of
// the vfs interfaces and fails with an error wrapping errors.ErrUnsupported.
func FromVFS(fsys vfs.ReadWriteFS) afero.Fs {
	if fsys == nil {
		panic("aferofs: nil FS")
	}
	return &fromVFS{fsys: fsys}
}

// fromVFS adapts a vfs FS to afero.
type fromVFS struct {
	fsys vfs.ReadWriteFS
}

var (
	_ afero.Fs        = (*fromVFS)(nil)
	_ afero.Symlinker = (*fromVFS)(nil)
)

func (a *fromVFS) Name() string { return "vfs" }

func (a *fromVFS) Create(name string) (afero.File, error) {
	return a.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (a *fromVFS) Open(name string) (afero.File, error) {
	f, err := a.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return &aferoFile{f: f, name: name}, nil
}

func (a *fromVFS) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := a.fsys.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &aferoFile{f: f, name: name}, nil
}

func (a *fromVFS) Mkdir(name string, perm os.FileMode) error { return a.fsys.Mkdir(name, perm) }

func (a *fromVFS) MkdirAll(name string, perm os.FileMode) error {
	return a.fsys.MkdirAll(name, perm)
}

func (a *fromVFS) Remove(name string) error    { return a.fsys.Remove(name) }
func (a *fromVFS) RemoveAll(name string) error { return a.fsys.RemoveAll(name) }

func (a *fromVFS) Rename(oldname, newname string) error { return a.fsys.Rename(oldname, newname) }

func (a *fromVFS) Stat(name string) (os.FileInfo, error) { return a.fsys.Stat(name) }

func (a *fromVFS) Chmod(name string, mode os.FileMode) error { return a.fsys.Chmod(name, mode) }

func (a *fromVFS) Chown(name string, _, _ int) error {
	return &fs.PathError{Op: "chown", Path: name, Err: errors.ErrUnsupported}
}

func (a *fromVFS) Chtimes(name string, atime, mtime time.Time) error {
	return a.fsys.Chtimes(name, atime, mtime)
}

func (a *fromVFS) SymlinkIfPossible(oldname, newname string) error {
	return a.fsys.Symlink(oldname, newname)
}

func (a *fromVFS) ReadlinkIfPossible(name string) (string, error) { return a.fsys.ReadLink(name) }

func (a *fromVFS) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	fi, err := a.fsys.Lstat(name)
	return fi, true, err
}

// aferoFile is an open vfs file seen as an afero.File. Methods the vfs
// file lacks fail with an *fs.PathError wrapping errors.ErrUnsupported.
type aferoFile struct {
	f    fs.File
	name string
}

var _ afero.File = (*aferoFile)(nil)

func (f *aferoFile) unsupported(op string) error {
	return &fs.PathError{Op: op, Path: f.name, Err: errors.ErrUnsupported}
}

func (f *aferoFile) Name() string                      { return f.name }
func (f *aferoFile) Close() error                      { return f.f.Close() }
func (f *aferoFile) Read(p []byte) (int, error)        { return f.f.Read(p) }
func (f *aferoFile) Stat() (os.FileInfo, error)        { return f.f.Stat() }
func (f *aferoFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *aferoFile) Write(p []byte) (int, error) {
	if w, ok := f.f.(io.Writer); ok {
		return w.Write(p)
	}
	return 0, f.unsupported("write")
}

func (f *aferoFile) ReadAt(p []byte, off int64) (int, error) {
	if r, ok := f.f.(io.ReaderAt); ok {
		return r.ReadAt(p, off)
	}
	return 0, f.unsupported("readat")
}

func (f *aferoFile) WriteAt(p []byte, off int64) (int, error) {
	if w, ok := f.f.(io.WriterAt); ok {
		return w.WriteAt(p, off)
	}
	return 0, f.unsupported("writeat")
}

func (f *aferoFile) Seek(offset int64, whence int) (int64, error) {
	if s, ok := f.f.(io.Seeker); ok {
		return s.Seek(offset, whence)
	}
	return 0, f.unsupported("seek")
}

func (f *aferoFile) Sync() error {
	if s, ok := f.f.(interface{ Sync() error }); ok {
		return s.Sync()
	}
	return f.unsupported("sync")
}

func (f *aferoFile) Truncate(size int64) error {
	if t, ok := f.f.(interface{ Truncate(int64) error }); ok {
		return t.Truncate(size)
	}
	return f.unsupported("truncate")
}

// Readdir lists the directory like (*os.File).Readdir.
func (f *aferoFile) Readdir(count int) ([]os.FileInfo, error) {
	d, ok := f.f.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdirent", Path: f.name, Err: vfs.ErrNotDir}
	}
	entries, err := d.ReadDir(count)
	infos := make([]os.FileInfo, 0, len(entries))
	for _, e := range entries {
		fi, ierr := e.Info()
		if ierr != nil {
			if err == nil {
				err = ierr
			}
			continue
		}
		infos = append(infos, fi)
	}
	return infos, err
}

// Readdirnames lists the names in the directory like
// (*os.File).Readdirnames.
func (f *aferoFile) Readdirnames(n int) ([]string, error) {
	d, ok := f.f.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdirent", Path: f.name, Err: vfs.ErrNotDir}
	}
	entries, err := d.ReadDir(n)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, err
}
