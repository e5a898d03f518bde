package osfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

// FS is the operating system's file system seen through the vfs
// interfaces. It holds no mutable state and is safe for concurrent use.
// Create one with [New] or [NewRooted].
type FS struct {
	// root is the host directory that "/" maps to; empty for the host FS.
	root string
	// rooted reports a confined FS, which resolves links itself.
	rooted bool
}

var _ vfs.ReadWriteFS = (*FS)(nil)

// New returns the host file system: names are absolute host paths, passed
// to the kernel unchanged. A relative name yields an *fs.PathError wrapping
// fs.ErrInvalid.
func New() *FS { return &FS{} }

// NewRooted returns a file system confined to the host directory dir, which
// should exist: the vfs name "/x/y" is the host path "<dir>/x/y". Symbolic
// links are resolved by the FS itself, like in a chroot: absolute targets
// start again at dir, and ".." stops at dir, so no name or link reaches
// outside it. A relative dir is made absolute from the working directory.
func NewRooted(dir string) *FS {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return &FS{root: filepath.Clean(dir), rooted: true}
}

// Root returns the host directory that "/" maps to, or "" for the host FS.
func (f *FS) Root() string { return f.root }

// pathErr returns err as an *fs.PathError naming the caller's name. An error
// from package os keeps its op and errno but loses its host path.
func pathErr(op, name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return &fs.PathError{Op: op, Path: name, Err: se.Err}
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// linkErr returns err as an *os.LinkError naming the caller's names.
func linkErr(op, oldname, newname string, err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return &os.LinkError{Op: le.Op, Old: oldname, New: newname, Err: le.Err}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &os.LinkError{Op: op, Old: oldname, New: newname, Err: err}
}

// openFlags returns flag with O_NOFOLLOW added on a rooted FS: a resolved
// host path never ends in a link unless it changed since resolution, and
// then the open fails rather than follow it out of the root.
func (f *FS) openFlags(flag int) int {
	if f.rooted {
		return flag | syscall.O_NOFOLLOW
	}
	return flag
}

// Open opens the named file for reading, following links.
func (f *FS) Open(name string) (fs.File, error) {
	return f.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens the named file with os.O_* flags, like os.OpenFile. With
// O_CREATE|O_EXCL a final link is not followed, so it fails with
// fs.ErrExist, as in the kernel.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	fin := followFinal
	switch {
	case flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0:
		fin = noFollowFinal
	case flag&os.O_CREATE != 0:
		fin = createFinal
	}
	host, err := f.hostPath(name, fin)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	osf, err := os.OpenFile(host, f.openFlags(flag), perm)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	return &file{f: osf, name: name}, nil
}

// Stat returns a FileInfo for the named file, following links. Its Name is
// the base of name, as with os.Stat.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	host, err := f.hostPath(name, followFinal)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	fi, err := os.Stat(host)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return renamed(fi, name), nil
}

// Lstat returns a FileInfo for the named file without following a final
// link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	host, err := f.hostPath(name, noFollowFinal)
	if err != nil {
		return nil, pathErr("lstat", name, err)
	}
	fi, err := os.Lstat(host)
	if err != nil {
		return nil, pathErr("lstat", name, err)
	}
	return renamed(fi, name), nil
}

// ReadFile reads the named file, following links.
func (f *FS) ReadFile(name string) ([]byte, error) {
	fl, err := f.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer fl.Close()
	var size int
	if fi, err := fl.Stat(); err == nil && fi.Mode().IsRegular() {
		size = int(fi.Size())
	}
	data := make([]byte, 0, size+512)
	for {
		n, err := fl.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// ReadDir lists the named directory, following links, sorted by name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	host, err := f.hostPath(name, followFinal)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	list, err := os.ReadDir(host)
	if err != nil {
		return list, pathErr("open", name, err)
	}
	return list, nil
}

// ReadLink returns the target of the named link exactly as it was stored.
func (f *FS) ReadLink(name string) (string, error) {
	host, err := f.hostPath(name, noFollowFinal)
	if err != nil {
		return "", pathErr("readlink", name, err)
	}
	target, err := os.Readlink(host)
	if err != nil {
		return "", pathErr("readlink", name, err)
	}
	return target, nil
}

// WriteFile writes data to the named file like os.WriteFile, following
// links, including a dangling final link.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return vfs.WriteFile(basic{f}, name, data, perm)
}

// Mkdir creates a directory; its parent must exist. A final link, even a
// dangling one, is not followed: the call fails with fs.ErrExist.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	host, err := f.hostPath(name, noFollowFinal)
	if err != nil {
		return pathErr("mkdir", name, err)
	}
	if err := os.Mkdir(host, perm); err != nil {
		return pathErr("mkdir", name, err)
	}
	return nil
}

// MkdirAll creates a directory and its missing parents, like os.MkdirAll.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	if !f.rooted {
		if _, err := f.hostPath(name, followFinal); err != nil {
			return pathErr("mkdir", name, err)
		}
		return os.MkdirAll(name, perm)
	}
	return vfs.MkdirAll(basic{f}, name, perm)
}

// basic offers only the methods of an [FS] from which the vfs helpers
// build WriteFile and MkdirAll with package os's semantics.
type basic struct{ f *FS }

func (b basic) Open(name string) (fs.File, error) { return b.f.Open(name) }

func (b basic) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return b.f.OpenFile(name, flag, perm)
}

func (b basic) Mkdir(name string, perm fs.FileMode) error { return b.f.Mkdir(name, perm) }
func (b basic) Stat(name string) (fs.FileInfo, error)     { return b.f.Stat(name) }
func (b basic) Lstat(name string) (fs.FileInfo, error)    { return b.f.Lstat(name) }

// Remove removes a file, link or empty directory without following a final
// link. On a rooted FS, removing "/" fails with EBUSY, as it does in the
// kernel.
func (f *FS) Remove(name string) error {
	host, err := f.hostPath(name, noFollowFinal)
	if err != nil {
		return pathErr("remove", name, err)
	}
	if f.rooted && host == f.root {
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.EBUSY}
	}
	if err := os.Remove(host); err != nil {
		return pathErr("remove", name, err)
	}
	return nil
}

// RemoveAll removes name and its children without following links, like
// os.RemoveAll, and returns nil if name does not exist. On a rooted FS,
// RemoveAll("/") empties the root and then fails with EBUSY.
func (f *FS) RemoveAll(name string) error {
	// Like os.RemoveAll, which removes the base name from its parent: a
	// trailing slash never makes it follow a final link.
	host, err := f.hostPath(trimSlashes(name), noFollowFinal)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return pathErr("unlinkat", name, err)
	}
	if f.rooted && host == f.root {
		list, err := os.ReadDir(host)
		if err != nil {
			return pathErr("open", name, err)
		}
		for _, e := range list {
			if err := os.RemoveAll(host + "/" + e.Name()); err != nil {
				return pathErr("unlinkat", name, err)
			}
		}
		return &fs.PathError{Op: "unlinkat", Path: name, Err: syscall.EBUSY}
	}
	if err := os.RemoveAll(host); err != nil {
		return pathErr("unlinkat", name, err)
	}
	return nil
}

// Rename renames oldname to newname with the kernel's rename(2), so a
// directory may replace an empty directory (os.Rename refuses that with
// EEXIST). Neither final component is followed.
func (f *FS) Rename(oldname, newname string) error {
	oldHost, err := f.hostPath(oldname, noFollowFinal)
	if err != nil {
		return linkErr("rename", oldname, newname, err)
	}
	newHost, err := f.hostPath(newname, noFollowFinal)
	if err != nil {
		return linkErr("rename", oldname, newname, err)
	}
	if f.rooted && (oldHost == f.root || newHost == f.root) {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EBUSY}
	}
	if err := syscall.Rename(oldHost, newHost); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	return nil
}

// Symlink creates newname as a link whose target is oldname, stored
// verbatim (never rewritten to a host path).
func (f *FS) Symlink(oldname, newname string) error {
	host, err := f.hostPath(newname, noFollowFinal)
	if err != nil {
		return linkErr("symlink", oldname, newname, err)
	}
	if err := os.Symlink(oldname, host); err != nil {
		return linkErr("symlink", oldname, newname, err)
	}
	return nil
}

// Chmod changes the mode of the named file, following links.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	host, err := f.hostPath(name, followFinal)
	if err != nil {
		return pathErr("chmod", name, err)
	}
	if err := os.Chmod(host, mode); err != nil {
		return pathErr("chmod", name, err)
	}
	return nil
}

// Chtimes changes the access and modification times of the named file,
// following links; a zero time leaves that time unchanged.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	host, err := f.hostPath(name, followFinal)
	if err != nil {
		return pathErr("chtimes", name, err)
	}
	if err := os.Chtimes(host, atime, mtime); err != nil {
		return pathErr("chtimes", name, err)
	}
	return nil
}

// trimSlashes drops trailing slashes, keeping "/" itself.
func trimSlashes(name string) string {
	t := strings.TrimRight(name, "/")
	if t == "" && strings.HasPrefix(name, "/") {
		return "/"
	}
	return t
}
