package vfs

import (
	"io/fs"
	"path"
)

// Sub returns an io/fs view of the tree below dir: names are unrooted
// ("a/b.txt", "." for dir itself) and validated with fs.ValidPath, as io/fs
// requires. The view implements fs.StatFS, fs.ReadFileFS, fs.ReadDirFS and
// fs.SubFS, and fs.ReadLinkFS when fsys has both [LstatFS] and
// [ReadLinkFS] (otherwise fs.Lstat falls back to Stat, as io/fs intends).
//
// Symbolic links resolve in fsys's whole namespace, exactly as in fsys: the
// view is a window, not a confinement, and ReadLink returns targets
// verbatim (an absolute target names a path of fsys, not of the view).
// Errors carry the view's names.
func Sub(fsys FS, dir string) fs.FS {
	return newSub(fsys, path.Clean(dir))
}

func newSub(fsys FS, dir string) fs.FS {
	s := &subFS{fsys: fsys, dir: dir}
	_, lstat := fsys.(LstatFS)
	_, readlink := fsys.(ReadLinkFS)
	if lstat && readlink {
		return &subLinkFS{s}
	}
	return s
}

// subLinkFS is a view that can read links.
type subLinkFS struct{ *subFS }

type subFS struct {
	fsys FS
	dir  string
}

var (
	_ fs.StatFS     = (*subFS)(nil)
	_ fs.ReadFileFS = (*subFS)(nil)
	_ fs.ReadDirFS  = (*subFS)(nil)
	_ fs.ReadLinkFS = (*subLinkFS)(nil)
	_ fs.SubFS      = (*subFS)(nil)
)

func (s *subFS) full(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return s.dir, nil
	}
	return path.Join(s.dir, name), nil
}

// rename gives err the view's name.
func (s *subFS) rename(err error, name string) error {
	return WithNames(err, func(string) string { return name })
}

// Open opens the named file of the view.
func (s *subFS) Open(name string) (fs.File, error) {
	full, err := s.full("open", name)
	if err != nil {
		return nil, err
	}
	f, err := s.fsys.Open(full)
	if err != nil {
		return nil, s.rename(err, name)
	}
	return &subFile{File: f, name: name}, nil
}

// Stat stats the named file of the view, following links.
func (s *subFS) Stat(name string) (fs.FileInfo, error) {
	full, err := s.full("stat", name)
	if err != nil {
		return nil, err
	}
	fi, err := Stat(s.fsys, full)
	if err != nil {
		return nil, s.rename(err, name)
	}
	return renamedInfo{fi, path.Base(name)}, nil
}

// Lstat stats the named file of the view without following a final link.
func (s *subLinkFS) Lstat(name string) (fs.FileInfo, error) {
	full, err := s.full("lstat", name)
	if err != nil {
		return nil, err
	}
	fi, err := Lstat(s.fsys, full)
	if err != nil {
		return nil, s.rename(err, name)
	}
	return renamedInfo{fi, path.Base(name)}, nil
}

// ReadFile reads the named file of the view.
func (s *subFS) ReadFile(name string) ([]byte, error) {
	full, err := s.full("open", name)
	if err != nil {
		return nil, err
	}
	data, err := ReadFile(s.fsys, full)
	if err != nil {
		return nil, s.rename(err, name)
	}
	return data, nil
}

// ReadDir lists the named directory of the view.
func (s *subFS) ReadDir(name string) ([]fs.DirEntry, error) {
	full, err := s.full("open", name)
	if err != nil {
		return nil, err
	}
	list, err := ReadDir(s.fsys, full)
	if err != nil {
		return nil, s.rename(err, name)
	}
	return list, nil
}

// ReadLink returns the verbatim target of the named link of the view.
func (s *subLinkFS) ReadLink(name string) (string, error) {
	full, err := s.full("readlink", name)
	if err != nil {
		return "", err
	}
	t, err := ReadLink(s.fsys, full)
	if err != nil {
		return "", s.rename(err, name)
	}
	return t, nil
}

// Sub returns the view of a subdirectory.
func (s *subFS) Sub(dir string) (fs.FS, error) {
	full, err := s.full("sub", dir)
	if err != nil {
		return nil, err
	}
	return newSub(s.fsys, full), nil
}

type renamedInfo struct {
	fs.FileInfo
	name string
}

func (r renamedInfo) Name() string { return r.name }

// subFile gives an open file the view's base name.
type subFile struct {
	fs.File
	name string
}

func (f *subFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return renamedInfo{fi, path.Base(f.name)}, nil
}

func (f *subFile) ReadDir(n int) ([]fs.DirEntry, error) {
	d, ok := f.File.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdirent", Path: f.name, Err: ErrNotDir}
	}
	return d.ReadDir(n)
}

func (f *subFile) Read(p []byte) (int, error) { return f.File.Read(p) }
