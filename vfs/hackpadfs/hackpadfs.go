package hackpadfs

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	hpfs "github.com/hack-pad/hackpadfs"

	"github.com/outfitter-go/vfsim/vfs"
)

// FS is a vfs file system seen as a hackpadfs file system below one
// directory. Create one with [New].
type FS struct {
	fsys vfs.ReadWriteFS
	root string
}

var (
	_ hpfs.OpenFileFS  = (*FS)(nil)
	_ hpfs.MkdirFS     = (*FS)(nil)
	_ hpfs.MkdirAllFS  = (*FS)(nil)
	_ hpfs.RemoveFS    = (*FS)(nil)
	_ hpfs.RemoveAllFS = (*FS)(nil)
	_ hpfs.RenameFS    = (*FS)(nil)
	_ hpfs.StatFS      = (*FS)(nil)
	_ hpfs.LstatFS     = (*FS)(nil)
	_ hpfs.SymlinkFS   = (*FS)(nil)
	_ hpfs.ChmodFS     = (*FS)(nil)
	_ hpfs.ChtimesFS   = (*FS)(nil)
	_ hpfs.ReadDirFS   = (*FS)(nil)
	_ hpfs.ReadFileFS  = (*FS)(nil)
	_ hpfs.WriteFileFS = (*FS)(nil)
)

// New returns the tree of fsys below the absolute directory root as a
// hackpadfs FS: the hackpadfs name "a/b" is the vfs name root+"/a/b", and
// "." is root itself. It panics if fsys is nil or root is not absolute.
func New(fsys vfs.ReadWriteFS, root string) *FS {
	if fsys == nil {
		panic("hackpadfs: nil FS")
	}
	if !strings.HasPrefix(root, "/") {
		panic("hackpadfs: root " + root + " is not absolute")
	}
	return &FS{fsys: fsys, root: path.Clean(root)}
}

// vname returns the vfs name of a hackpadfs name, or an *fs.PathError
// wrapping hackpadfs.ErrInvalid (EINVAL) if name is not valid for io/fs.
func (f *FS) vname(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: hpfs.ErrInvalid}
	}
	return path.Join(f.root, name), nil
}

// hname returns the hackpadfs name of a vfs name below the root; a name
// elsewhere is returned unchanged.
func (f *FS) hname(vname string) string {
	if vname == f.root {
		return "."
	}
	prefix := f.root + "/"
	if f.root == "/" {
		prefix = "/"
	}
	if rel, ok := strings.CutPrefix(vname, prefix); ok {
		return rel
	}
	return vname
}

// fix rewrites the names in an error from fsys to hackpadfs names, and an
// *os.LinkError to a *hackpadfs.LinkError.
func (f *FS) fix(err error) error {
	err = vfs.WithNames(err, f.hname)
	if le, ok := err.(*os.LinkError); ok {
		return &hpfs.LinkError{Op: le.Op, Old: le.Old, New: le.New, Err: le.Err}
	}
	return err
}

// linkName is vname for the two-name operations: an invalid name yields a
// *hackpadfs.LinkError wrapping hackpadfs.ErrInvalid.
func (f *FS) linkName(op, oldname, newname string, name string) (string, error) {
	v, err := f.vname(op, name)
	if err != nil {
		return "", &hpfs.LinkError{Op: op, Old: oldname, New: newname, Err: hpfs.ErrInvalid}
	}
	return v, nil
}

// Open opens the named file for reading.
func (f *FS) Open(name string) (fs.File, error) {
	return f.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens the named file with os.O_* flags.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (hpfs.File, error) {
	v, err := f.vname("open", name)
	if err != nil {
		return nil, err
	}
	fl, err := f.fsys.OpenFile(v, flag, perm)
	if err != nil {
		return nil, f.fix(err)
	}
	return &file{fsys: f, f: fl, name: name}, nil
}

// Mkdir creates a directory.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	v, err := f.vname("mkdir", name)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.Mkdir(v, perm))
}

// MkdirAll creates a directory and its missing parents.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	v, err := f.vname("mkdir", name)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.MkdirAll(v, perm))
}

// Remove removes a file, link or empty directory.
func (f *FS) Remove(name string) error {
	v, err := f.vname("remove", name)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.Remove(v))
}

// RemoveAll removes a tree.
func (f *FS) RemoveAll(name string) error {
	v, err := f.vname("removeall", name)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.RemoveAll(v))
}

// Rename renames oldname to newname; errors are *hackpadfs.LinkError.
func (f *FS) Rename(oldname, newname string) error {
	vo, err := f.linkName("rename", oldname, newname, oldname)
	if err != nil {
		return err
	}
	vn, err := f.linkName("rename", oldname, newname, newname)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.Rename(vo, vn))
}

// Stat describes the named file, following links.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	v, err := f.vname("stat", name)
	if err != nil {
		return nil, err
	}
	fi, err := f.fsys.Stat(v)
	return fi, f.fix(err)
}

// Lstat describes the named file without following a final link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	v, err := f.vname("lstat", name)
	if err != nil {
		return nil, err
	}
	fi, err := f.fsys.Lstat(v)
	return fi, f.fix(err)
}

// Symlink creates newname as a link to oldname. The target is stored
// verbatim: a relative target resolves from the link's directory as
// usual, an absolute one from the root of the vfs FS, not from root.
func (f *FS) Symlink(oldname, newname string) error {
	vn, err := f.linkName("symlink", oldname, newname, newname)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.Symlink(oldname, vn))
}

// Chmod changes the mode of the named file, following links.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	v, err := f.vname("chmod", name)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.Chmod(v, mode))
}

// Chtimes changes the times of the named file, following links.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	v, err := f.vname("chtimes", name)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.Chtimes(v, atime, mtime))
}

// ReadDir lists the named directory sorted by name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	v, err := f.vname("open", name)
	if err != nil {
		return nil, err
	}
	list, err := f.fsys.ReadDir(v)
	return list, f.fix(err)
}

// ReadFile reads the named file.
func (f *FS) ReadFile(name string) ([]byte, error) {
	v, err := f.vname("open", name)
	if err != nil {
		return nil, err
	}
	data, err := f.fsys.ReadFile(v)
	return data, f.fix(err)
}

// WriteFile writes a whole file, like os.WriteFile.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	v, err := f.vname("open", name)
	if err != nil {
		return err
	}
	return f.fix(f.fsys.WriteFile(v, data, perm))
}
