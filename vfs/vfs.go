package vfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Sentinel errors wrapped by the errors of every backend. They are the
// kernel's own errno values, so an error from the OS backend and one from
// [MemFS] match the same sentinel with [errors.Is] and print the same text.
var (
	// ErrNotDir reports that a path component is not a directory (ENOTDIR).
	ErrNotDir error = syscall.ENOTDIR
	// ErrIsDir reports that a file operation was applied to a directory (EISDIR).
	ErrIsDir error = syscall.EISDIR
	// ErrNotEmpty reports the removal of, or a rename over, a non-empty directory (ENOTEMPTY).
	ErrNotEmpty error = syscall.ENOTEMPTY
	// ErrLoop reports too many levels of symbolic links (ELOOP).
	ErrLoop error = syscall.ELOOP
	// ErrCrossDevice reports a rename between file systems (EXDEV).
	ErrCrossDevice error = syscall.EXDEV
	// ErrNoSpace reports that the device is full (ENOSPC).
	ErrNoSpace error = syscall.ENOSPC
	// ErrIO reports an input/output failure (EIO).
	ErrIO error = syscall.EIO
	// ErrReadOnly reports a write to a read-only file system (EROFS).
	ErrReadOnly error = syscall.EROFS
	// ErrNameTooLong reports a name or link target of [PathMax] bytes or
	// more, or a component of more than [NameMax] bytes (ENAMETOOLONG).
	ErrNameTooLong error = syscall.ENAMETOOLONG
)

// Linux's limits on names, which every backend enforces.
const (
	// PathMax is Linux's PATH_MAX: the size of the buffer the kernel
	// copies a name argument into, its terminating NUL included. A name
	// argument, or a symbolic link target, of PathMax bytes or more fails
	// with [ErrNameTooLong] before anything is looked up. The limit
	// applies to the string as given (redundant slashes count), not to
	// the path a resolution reaches: a link's target does not add to the
	// length of the name that passes through the link.
	PathMax = 4096
	// NameMax is Linux's NAME_MAX: the longest component, in bytes. A
	// longer one fails with [ErrNameTooLong] when it is looked up.
	NameMax = 255
)

// MaxSymlinkHops is the number of symbolic links followed while resolving one
// path before [ErrLoop] is returned; it is Linux's limit.
const MaxSymlinkHops = 40

// FS is the minimal file system: it opens the named file for reading.
// Names are absolute, slash-separated paths ("/fixture/home/x"); an FS models
// a whole machine. Open follows symbolic links.
type FS interface {
	Open(name string) (fs.File, error)
}

// File is an open file that can also be written. Files returned by
// [OpenFileFS.OpenFile] implement it; directories opened for reading also
// implement [fs.ReadDirFile].
type File interface {
	fs.File
	io.Writer
}

// A StatFS can stat a file, following symbolic links.
type StatFS interface {
	FS
	// Stat returns a FileInfo describing the named file, following links.
	// If there is an error, it is of type *fs.PathError.
	Stat(name string) (fs.FileInfo, error)
}

// An LstatFS can stat a file without following a final symbolic link.
type LstatFS interface {
	FS
	// Lstat returns a FileInfo describing the named file; if it is a
	// symbolic link, the FileInfo describes the link itself.
	// If there is an error, it is of type *fs.PathError.
	Lstat(name string) (fs.FileInfo, error)
}

// A ReadFileFS can read a whole file.
type ReadFileFS interface {
	FS
	// ReadFile reads the named file, following links, and returns its
	// contents. The caller may modify the returned slice.
	ReadFile(name string) ([]byte, error)
}

// A ReadDirFS can list a directory.
type ReadDirFS interface {
	FS
	// ReadDir reads the named directory (following links) and returns its
	// entries sorted by name.
	ReadDir(name string) ([]fs.DirEntry, error)
}

// A ReadLinkFS can read the target of a symbolic link.
type ReadLinkFS interface {
	FS
	// ReadLink returns the target of the named symbolic link, verbatim.
	// If there is an error, it is of type *fs.PathError.
	ReadLink(name string) (string, error)
}

// A WriteFileFS can write a whole file.
type WriteFileFS interface {
	FS
	// WriteFile writes data to the named file, creating it with perm
	// (before umask) if necessary and truncating it otherwise, like
	// os.WriteFile. It follows symbolic links, including a dangling final
	// link whose target's parent exists.
	WriteFile(name string, data []byte, perm fs.FileMode) error
}

// An OpenFileFS can open files with flags, like os.OpenFile.
type OpenFileFS interface {
	FS
	// OpenFile opens the named file with the given os.O_* flags and perm.
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
}

// A MkdirFS can create one directory.
type MkdirFS interface {
	FS
	// Mkdir creates a new directory; its parent must exist.
	// If there is an error, it is of type *fs.PathError.
	Mkdir(name string, perm fs.FileMode) error
}

// A MkdirAllFS can create a directory and any missing parents.
type MkdirAllFS interface {
	FS
	// MkdirAll creates a directory named name, along with any necessary
	// parents, like os.MkdirAll.
	MkdirAll(name string, perm fs.FileMode) error
}

// A RemoveFS can remove a file, a symbolic link or an empty directory.
type RemoveFS interface {
	FS
	// Remove removes the named file, link or empty directory; it never
	// follows a final symbolic link.
	Remove(name string) error
}

// A RemoveAllFS can remove a tree.
type RemoveAllFS interface {
	FS
	// RemoveAll removes name and any children, like os.RemoveAll: it never
	// follows symbolic links and returns nil if name does not exist.
	RemoveAll(name string) error
}

// A RenameFS can rename files and directories.
type RenameFS interface {
	FS
	// Rename renames oldname to newname, like os.Rename.
	// If there is an error, it is of type *os.LinkError.
	Rename(oldname, newname string) error
}

// A SymlinkFS is a file system that can create symbolic links.
type SymlinkFS interface {
	FS
	// Symlink creates newname as a symbolic link to oldname, stored verbatim.
	// If there is an error, it is of type *os.LinkError.
	Symlink(oldname, newname string) error
}

// A ChmodFS can change permission bits.
type ChmodFS interface {
	FS
	// Chmod changes the mode of the named file (following links) to mode.
	Chmod(name string, mode fs.FileMode) error
}

// A ChtimesFS can change access and modification times.
type ChtimesFS interface {
	FS
	// Chtimes changes the access and modification times of the named file,
	// following links. A zero time leaves that time unchanged.
	Chtimes(name string, atime, mtime time.Time) error
}

// ReadWriteFS is the set of every capability. [MemFS] and the OS backend
// implement it; consumers should ask for the narrow interfaces they need.
type ReadWriteFS interface {
	StatFS
	LstatFS
	ReadFileFS
	ReadDirFS
	ReadLinkFS
	WriteFileFS
	OpenFileFS
	MkdirFS
	MkdirAllFS
	RemoveFS
	RemoveAllFS
	RenameFS
	SymlinkFS
	ChmodFS
	ChtimesFS
}

// unsupported returns the error for a missing capability.
func unsupported(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: errors.ErrUnsupported}
}

// Stat returns a FileInfo for name, following links. It uses
// [StatFS] when available, else opens the file and stats it.
func Stat(fsys FS, name string) (fs.FileInfo, error) {
	if s, ok := fsys.(StatFS); ok {
		return s.Stat(name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// Lstat returns a FileInfo for name without following a final link. It
// never falls back to Stat: without [LstatFS] it returns an error wrapping
// errors.ErrUnsupported.
func Lstat(fsys FS, name string) (fs.FileInfo, error) {
	if s, ok := fsys.(LstatFS); ok {
		return s.Lstat(name)
	}
	return nil, unsupported("lstat", name)
}

// ReadFile reads the named file. It uses [ReadFileFS] when available, else
// Open and io.ReadAll.
func ReadFile(fsys FS, name string) ([]byte, error) {
	if r, ok := fsys.(ReadFileFS); ok {
		return r.ReadFile(name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ReadDir lists the named directory sorted by name. It uses [ReadDirFS]
// when available, else a directory opened with Open that implements
// fs.ReadDirFile.
func ReadDir(fsys FS, name string) ([]fs.DirEntry, error) {
	if r, ok := fsys.(ReadDirFS); ok {
		return r.ReadDir(name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdirent", Path: name, Err: ErrNotDir}
	}
	list, err := d.ReadDir(-1)
	sortEntries(list)
	return list, err
}

// ReadLink returns the target of a symbolic link, or an error wrapping
// errors.ErrUnsupported when fsys has no [ReadLinkFS].
func ReadLink(fsys FS, name string) (string, error) {
	if r, ok := fsys.(ReadLinkFS); ok {
		return r.ReadLink(name)
	}
	return "", unsupported("readlink", name)
}

// WriteFileString is [WriteFile] of the bytes of s. A *MemFS itself copies
// them once, into the file; any other file system, a type that embeds a
// *MemFS included, is given []byte(s) by WriteFile.
func WriteFileString(fsys FS, name, s string, perm fs.FileMode) error {
	if m, ok := fsys.(*MemFS); ok {
		return m.writeString(name, s, perm)
	}
	return WriteFile(fsys, name, []byte(s), perm)
}

// WriteFile writes a whole file through [WriteFileFS] or, failing that,
// [OpenFileFS]; otherwise it returns an error wrapping errors.ErrUnsupported.
func WriteFile(fsys FS, name string, data []byte, perm fs.FileMode) error {
	if w, ok := fsys.(WriteFileFS); ok {
		return w.WriteFile(name, data, perm)
	}
	if o, ok := fsys.(OpenFileFS); ok {
		f, err := o.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if err1 := f.Close(); err == nil {
			err = err1
		}
		return err
	}
	return unsupported("open", name)
}

// OpenFile opens a file with flags through [OpenFileFS], or returns an
// error wrapping errors.ErrUnsupported.
func OpenFile(fsys FS, name string, flag int, perm fs.FileMode) (File, error) {
	if o, ok := fsys.(OpenFileFS); ok {
		return o.OpenFile(name, flag, perm)
	}
	return nil, unsupported("open", name)
}

// Mkdir creates one directory through [MkdirFS], or returns an error
// wrapping errors.ErrUnsupported.
func Mkdir(fsys FS, name string, perm fs.FileMode) error {
	if m, ok := fsys.(MkdirFS); ok {
		return m.Mkdir(name, perm)
	}
	return unsupported("mkdir", name)
}

// MkdirAll creates a directory and its missing parents through
// [MkdirAllFS], or else through [MkdirFS] and [Stat] with os.MkdirAll's
// semantics; otherwise it returns an error wrapping errors.ErrUnsupported.
func MkdirAll(fsys FS, name string, perm fs.FileMode) error {
	if m, ok := fsys.(MkdirAllFS); ok {
		return m.MkdirAll(name, perm)
	}
	if _, ok := fsys.(MkdirFS); !ok {
		return unsupported("mkdir", name)
	}
	return mkdirAll(fsys, name, perm)
}

// mkdirAll is os.MkdirAll's algorithm, which MemFS and the overlay use
// too: Stat the name (a directory, through links, is success), else make
// the parent (the name without its last component and the slashes before
// it) the same way and Mkdir the name; a Mkdir that fails where Lstat then
// finds a directory is success. The names are never cleaned: the file
// system resolves ".." physically, and refuses a name too long to pass.
func mkdirAll(fsys FS, name string, perm fs.FileMode) error {
	if fi, err := Stat(fsys, name); err == nil {
		if fi.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: name, Err: ErrNotDir}
	}
	trimmed := strings.TrimRight(name, "/")
	if i := strings.LastIndexByte(trimmed, '/'); i > 0 {
		if err := mkdirAll(fsys, trimmed[:i], perm); err != nil {
			return err
		}
	}
	err := Mkdir(fsys, name, perm)
	if err != nil {
		if fi, err1 := Lstat(fsys, name); err1 == nil && fi.IsDir() {
			return nil
		}
	}
	return err
}

// Remove removes a file, link or empty directory through [RemoveFS], or
// returns an error wrapping errors.ErrUnsupported.
func Remove(fsys FS, name string) error {
	if r, ok := fsys.(RemoveFS); ok {
		return r.Remove(name)
	}
	return unsupported("remove", name)
}

// RemoveAll removes a tree without following links, through [RemoveAllFS]
// or else through [RemoveFS], [LstatFS] and [ReadDir] with os.RemoveAll's
// semantics (a trailing slash never makes it follow a final link, and
// names are never cleaned: ".." is the file system's, physical);
// otherwise it returns an error wrapping errors.ErrUnsupported.
func RemoveAll(fsys FS, name string) error {
	if r, ok := fsys.(RemoveAllFS); ok {
		return r.RemoveAll(name)
	}
	if _, ok := fsys.(RemoveFS); !ok {
		return unsupported("removeall", name)
	}
	if _, ok := fsys.(LstatFS); !ok {
		return unsupported("removeall", name)
	}
	if name == "" {
		return nil
	}
	if endsWithDot(name) {
		return &fs.PathError{Op: "RemoveAll", Path: name, Err: syscall.EINVAL}
	}
	if t := strings.TrimRight(name, "/"); t != "" {
		name = t
	}
	return removeAll(fsys, name)
}

func removeAll(fsys FS, name string) error {
	fi, err := Lstat(fsys, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if fi.IsDir() {
		list, err := ReadDir(fsys, name)
		if err != nil {
			return err
		}
		dir := name
		if dir != "/" {
			dir += "/"
		}
		for _, e := range list {
			if err := removeAll(fsys, dir+e.Name()); err != nil {
				return err
			}
		}
	}
	err = Remove(fsys, name)
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Rename renames through [RenameFS], or returns an error wrapping
// errors.ErrUnsupported (as an *os.LinkError).
func Rename(fsys FS, oldname, newname string) error {
	if r, ok := fsys.(RenameFS); ok {
		return r.Rename(oldname, newname)
	}
	return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: errors.ErrUnsupported}
}

// Symlink creates newname as a link to oldname through [SymlinkFS], or
// returns an error wrapping errors.ErrUnsupported (as an *os.LinkError).
func Symlink(fsys FS, oldname, newname string) error {
	if s, ok := fsys.(SymlinkFS); ok {
		return s.Symlink(oldname, newname)
	}
	return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: errors.ErrUnsupported}
}

// Chmod changes a mode through [ChmodFS], or returns an error wrapping
// errors.ErrUnsupported.
func Chmod(fsys FS, name string, mode fs.FileMode) error {
	if c, ok := fsys.(ChmodFS); ok {
		return c.Chmod(name, mode)
	}
	return unsupported("chmod", name)
}

// Chtimes changes times through [ChtimesFS], or returns an error wrapping
// errors.ErrUnsupported.
func Chtimes(fsys FS, name string, atime, mtime time.Time) error {
	if c, ok := fsys.(ChtimesFS); ok {
		return c.Chtimes(name, atime, mtime)
	}
	return unsupported("chtimes", name)
}

func sortEntries(list []fs.DirEntry) {
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

func isUnsupported(err error) bool { return errors.Is(err, errors.ErrUnsupported) }

// Probe reports what [Stat] would say of name's existence and kind: the
// mode of the file, following links, or an error that errors.Is matches
// exactly as it matches Stat's error (fs.ErrNotExist for a missing name).
// It is for callers that only test existence or kind: a *MemFS itself
// answers without allocating, its error the bare errno that Stat's
// *fs.PathError would wrap; any other file system, a type that embeds a
// *MemFS included (it may give Stat other answers), falls back to Stat,
// returning its error as it is.
func Probe(fsys FS, name string) (fs.FileMode, error) {
	if m, ok := fsys.(*MemFS); ok {
		return m.probe(name, walkFollow)
	}
	fi, err := Stat(fsys, name)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

// Lprobe is [Probe] for [Lstat]: what Lstat would say of name's existence
// and kind, a final symbolic link not followed (its mode has
// fs.ModeSymlink). A *MemFS answers without allocating, its error the
// bare errno; any other file system falls back to Lstat, returning its
// error as it is (one wrapping errors.ErrUnsupported without [LstatFS]).
func Lprobe(fsys FS, name string) (fs.FileMode, error) {
	if m, ok := fsys.(*MemFS); ok {
		return m.probe(name, 0)
	}
	fi, err := Lstat(fsys, name)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}
