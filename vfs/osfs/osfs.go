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
	// rooted reports a confined FS, whose every call resolves its names
	// below root with the kernel's help (see rooted_linux.go).
	rooted bool
}

var (
	_ vfs.ReadWriteFS = (*FS)(nil)
	_ vfs.SyncDirFS   = (*FS)(nil)
)

// New returns the host file system: names are absolute host paths, passed
// to the kernel unchanged. A relative name yields an *fs.PathError wrapping
// fs.ErrInvalid.
func New() *FS { return &FS{} }

// NewRooted returns a file system confined to the host directory dir, which
// should exist: the vfs name "/x/y" is the host path "<dir>/x/y". Symbolic
// links are resolved like in a chroot: absolute targets start again at dir,
// and ".." stops at dir, so no name or link reaches outside it, even while
// another process swaps directories for links. A relative dir is made
// absolute from the working directory. See the package documentation for
// the platforms that support it.
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
	if _, ok := errors.AsType[*fs.PathError](err); ok {
		return vfs.WithNames(err, func(string) string { return name })
	}
	if se, ok := errors.AsType[*os.SyscallError](err); ok {
		err = se.Err
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// linkErr returns err as an *os.LinkError naming the caller's names. An
// error from package os keeps its errno, and a link error its op.
func linkErr(op, oldname, newname string, err error) error {
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		op = le.Op
	}
	return &os.LinkError{Op: op, Old: oldname, New: newname, Err: vfs.Cause(err)}
}

// checkAbs refuses a relative name, which neither view gives a meaning.
func checkAbs(name string) error {
	if !strings.HasPrefix(name, "/") {
		return fs.ErrInvalid
	}
	return nil
}

// Open opens the named file for reading, following links.
func (f *FS) Open(name string) (fs.File, error) {
	return f.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens the named file with os.O_* flags, like os.OpenFile. With
// O_CREATE|O_EXCL a final link is not followed, so it fails with
// fs.ErrExist, as in the kernel.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	var osf *os.File
	err := f.call("open", name, func() (err error) {
		osf, err = f.rootedOpen(name, flag, perm)
		return err
	}, func() (err error) {
		osf, err = os.OpenFile(name, flag, perm)
		return err
	})
	if err != nil {
		return nil, err
	}
	fl := &file{f: osf, name: name}
	if f.rooted {
		fl.fsys = f
	}
	return fl, nil
}

// Stat returns a FileInfo for the named file, following links. Its Name is
// the base of name, as with os.Stat.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	return f.stat("stat", name, true)
}

// Lstat returns a FileInfo for the named file without following a final
// link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	return f.stat("lstat", name, false)
}

// stat is Stat when follow is set, else Lstat; op is the verb of its errors.
func (f *FS) stat(op, name string, follow bool) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := f.call(op, name, func() (err error) {
		fi, err = f.rootedStat(name, follow)
		return err
	}, func() (err error) {
		if follow {
			fi, err = os.Stat(name)
		} else {
			fi, err = os.Lstat(name)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return fi, nil
}

// call runs an operation on name: refused when name is relative, else its
// rooted form on a rooted FS and its host form on the host FS. A failure
// is an *fs.PathError with op and name.
func (f *FS) call(op, name string, rooted, host func() error) error {
	err := checkAbs(name)
	if err == nil {
		if f.rooted {
			err = rooted()
		} else {
			err = host()
		}
	}
	if err != nil {
		return pathErr(op, name, err)
	}
	return nil
}

// ReadFile reads the named file, following links.
func (f *FS) ReadFile(name string) ([]byte, error) {
	fl, err := f.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer fl.Close()
	// The size only reserves room: a read from 512 bytes up gives the
	// same bytes (TestReadFileOfAFIFO), so negating this test (a
	// mutant) is equivalent.
	var size int
	//mutants:equivalent CONDITIONALS_NEGATION
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
	var list []fs.DirEntry
	err := f.call("open", name, func() (err error) {
		list, err = f.rootedReadDir(name)
		f.entries(name, list)
		return err
	}, func() (err error) {
		list, err = os.ReadDir(name)
		return err
	})
	return list, err
}

// ReadLink returns the target of the named link exactly as it was stored.
func (f *FS) ReadLink(name string) (string, error) {
	var target string
	err := f.call("readlink", name, func() (err error) {
		target, err = f.rootedReadLink(name)
		return err
	}, func() (err error) {
		target, err = os.Readlink(name)
		return err
	})
	if err != nil {
		return "", err
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
	return f.call("mkdir", name, func() error { return f.rootedMkdir(name, perm) }, func() error { return os.Mkdir(name, perm) })
}

// MkdirAll creates a directory and its missing parents, like os.MkdirAll.
// On a rooted FS it is os.MkdirAll's loop of Stat, Mkdir and Lstat calls
// ([vfs.MkdirAll]'s fallback, which MemFS and the overlay share),
// each of them confined.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	if err := checkAbs(name); err != nil {
		return pathErr("mkdir", name, err)
	}
	if !f.rooted {
		return os.MkdirAll(name, perm)
	}
	return vfs.MkdirAll(basic{f}, name, perm)
}

// basic offers only the calls of an [FS] from which [vfs.WriteFile] and
// [vfs.MkdirAll] build WriteFile and MkdirAll with package os's
// algorithms. Names are not cleaned: "f/" for a file f fails in MkdirAll
// as in package os (EEXIST from mkdir).
type basic struct{ f *FS }

func (b basic) Open(name string) (fs.File, error)         { return b.f.Open(name) }
func (b basic) Mkdir(name string, perm fs.FileMode) error { return b.f.Mkdir(name, perm) }
func (b basic) Stat(name string) (fs.FileInfo, error)     { return b.f.Stat(name) }
func (b basic) Lstat(name string) (fs.FileInfo, error)    { return b.f.Lstat(name) }

func (b basic) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return b.f.OpenFile(name, flag, perm)
}

// Remove removes a file, link or empty directory without following a final
// link. On a rooted FS, removing "/" fails with EBUSY, as it does in the
// kernel.
func (f *FS) Remove(name string) error {
	return f.call("remove", name, func() error { return f.rootedRemove(name) }, func() error { return os.Remove(name) })
}

// RemoveAll removes name and its children without following links, like
// os.RemoveAll, and returns nil if name does not exist. On a rooted FS,
// RemoveAll("/") empties the root and then fails with EBUSY.
func (f *FS) RemoveAll(name string) error {
	return f.call("unlinkat", name, func() error { return f.rootedRemoveAll(name) }, func() error { return os.RemoveAll(name) })
}

// Rename renames oldname to newname with the kernel's rename(2), so a
// directory may replace an empty directory (os.Rename refuses that with
// EEXIST). Neither final component is followed.
func (f *FS) Rename(oldname, newname string) error {
	err := checkAbs(oldname)
	if err == nil {
		err = checkAbs(newname)
	}
	if err == nil {
		if f.rooted {
			err = f.rootedRename(oldname, newname)
		} else {
			err = syscall.Rename(oldname, newname)
		}
	}
	if err != nil {
		return linkErr("rename", oldname, newname, err)
	}
	return nil
}

// Symlink creates newname as a link whose target is oldname, stored
// verbatim (never rewritten to a host path).
func (f *FS) Symlink(oldname, newname string) error {
	err := checkAbs(newname)
	if err == nil {
		if f.rooted {
			err = f.rootedSymlink(oldname, newname)
		} else {
			err = os.Symlink(oldname, newname)
		}
	}
	if err != nil {
		return linkErr("symlink", oldname, newname, err)
	}
	return nil
}

// Chmod changes the mode of the named file, following links.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	return f.call("chmod", name, func() error { return f.rootedChmod(name, mode) }, func() error { return os.Chmod(name, mode) })
}

// Chtimes changes the access and modification times of the named file,
// following links; a zero time leaves that time unchanged.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	return f.call("chtimes", name, func() error { return f.rootedChtimes(name, atime, mtime) }, func() error { return os.Chtimes(name, atime, mtime) })
}

// SyncDir commits the entries of the named directory to stable storage,
// following links: it opens the directory and fsyncs it, so that a file
// created, renamed into or removed from it before the call keeps its new
// name after a power cut. A name that is not a directory fails with
// [vfs.ErrNotDir]. Errors are *fs.PathError with Op "sync".
func (f *FS) SyncDir(name string) error {
	return f.call("sync", name, func() error { return f.rootedSyncDir(name) }, func() error { return syncDir(name) })
}

// syncDir fsyncs the host directory name.
func syncDir(name string) error {
	d, err := os.Open(name)
	if err != nil {
		// The errno alone: the caller's error says "sync".
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			return pe.Err
		}
		return err
	}
	defer d.Close()
	if fi, err := d.Stat(); err != nil {
		return err
	} else if !fi.IsDir() {
		return vfs.ErrNotDir
	}
	return d.Sync()
}
