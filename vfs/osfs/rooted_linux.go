//go:build linux

package osfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/outfitter-go/vfsim/vfs"
)

// The rooted FS on Linux never hands the kernel a host path below its root.
// Each call opens the root directory (O_PATH), and every name is resolved
// from that descriptor by openat2(2) with RESOLVE_IN_ROOT: the kernel
// treats the descriptor as the process root for the whole lookup, links
// included, so absolute targets start again at the root and ".." stops
// there, exactly the chroot semantics the package promises, and a
// directory swapped for a link during the call can send the lookup nowhere
// outside. RESOLVE_NO_MAGICLINKS refuses /proc-style links, which would
// jump to whatever they designate.
//
// Calls that act on a final component without following it (Mkdir,
// Symlink, Remove, Rename) open its parent that way and then use the *at
// system call on the last component, which never follows a link there:
// the parent is pinned by its descriptor, so a later swap cannot move the
// operation. Calls that follow the final link, and Lstat and ReadLink,
// open the whole name and act on the descriptor (fstat, readlinkat and
// fchmodat2 with an empty path, utimensat with AT_EMPTY_PATH). RemoveAll
// walks the tree by descriptors (openat with O_NOFOLLOW|O_DIRECTORY,
// getdents, unlinkat), as os.RemoveAll does.
//
// Names are given to openat2 as they are, trailing slashes and "." and
// ".." included, so the kernel applies its own rules to them (a trailing
// slash requires a directory and follows a final link; creating a file
// under one is EISDIR; a dot as the last component of a mkdir, unlink or
// rename is refused before any lookup).

// resolveFlags confine every lookup to the root.
const resolveFlags = unix.RESOLVE_IN_ROOT | unix.RESOLVE_NO_MAGICLINKS

// retries bounds the attempts of an openat2 that the kernel answered with
// EAGAIN: a lookup through ".." fails that way when any rename or mount
// happened on the system while it ran, since ".." might then have left the
// root. A lookup that keeps losing that race fails with EAGAIN.
const retries = 128

// errNoOpenat2 is the error of every call of a rooted FS on a kernel
// without openat2 (before Linux 5.6, or where a sandbox forbids it).
var errNoOpenat2 = fmt.Errorf("rooted file system needs openat2 (Linux 5.6 or later): %w", errors.ErrUnsupported)

// openRoot opens the root directory as an O_PATH descriptor.
func (f *FS) openRoot() (int, error) {
	for {
		fd, err := unix.Open(f.root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openIn opens name below the directory root, resolved in it as in a
// chroot. mode is used only with O_CREAT.
func openIn(root int, name string, flag int, mode uint32) (int, error) {
	how := unix.OpenHow{Flags: uint64(flag | unix.O_CLOEXEC), Resolve: resolveFlags}
	if flag&unix.O_CREAT != 0 || flag&unix.O_TMPFILE == unix.O_TMPFILE {
		how.Mode = uint64(mode)
	}
	for range retries {
		fd, err := unix.Openat2(root, name, &how)
		switch err {
		case unix.EAGAIN, unix.EINTR:
			continue
		case unix.ENOSYS:
			// As in open below, no caller reads the descriptor beside an
			// error: +1 (a mutant) is equivalent.
			//mutants:equivalent INVERT_NEGATIVES
			return -1, errNoOpenat2
		}
		return fd, err
	}
	// Nor here: +1 (a mutant) is equivalent.
	//mutants:equivalent INVERT_NEGATIVES
	return -1, unix.EAGAIN
}

// open opens the root and name in it, closing the root again.
func (f *FS) open(name string, flag int, mode uint32) (int, error) {
	root, err := f.openRoot()
	if err != nil {
		// No caller reads the descriptor beside an error: +1 (a mutant)
		// is equivalent.
		//mutants:equivalent INVERT_NEGATIVES
		return -1, err
	}
	defer unix.Close(root)
	return openIn(root, name, flag, mode)
}

// split returns the directory part of name, without the slash that ends
// it, as os.RemoveAll's splitPath (so the kernel counts the same length),
// and its last component with any trailing slashes. dir is "/" when the
// parent is the root, and base is "." when name is the root itself.
func split(name string) (dir, base string) {
	t := strings.TrimRight(name, "/")
	if t == "" {
		return "/", "."
	}
	i := strings.LastIndexByte(t, '/')
	if i == 0 {
		return "/", name[1:]
	}
	return name[:i], name[i+1:]
}

// tooLong reports whether the kernel would refuse name for its length
// (PATH_MAX) before looking anything up. The calls that hand the kernel
// only the name's last component check it themselves.
func tooLong(name string) bool { return len(name) >= vfs.PathMax }

// isRoot reports whether name, absolute, is "/" written with any number of
// slashes.
func isRoot(name string) bool { return strings.Trim(name, "/") == "" }

// parentIn opens the directory holding name's last component, resolved
// below root, and returns it with that component (see split). The
// descriptor is root itself when the directory is "/"; the caller closes
// it only when it differs from root.
func parentIn(root int, name string) (int, string, error) {
	dir, base := split(name)
	if dir == "/" {
		return root, base, nil
	}
	fd, err := openIn(root, dir, unix.O_PATH|unix.O_DIRECTORY, 0)
	return fd, base, err
}

// atParent runs op with the descriptor of name's parent, resolved in the
// root, and name's last component.
func (f *FS) atParent(name string, op func(dir int, base string) error) error {
	if tooLong(name) {
		return unix.ENAMETOOLONG
	}
	root, err := f.openRoot()
	if err != nil {
		return err
	}
	defer unix.Close(root)
	dir, base, err := parentIn(root, name)
	if err != nil {
		return err
	}
	if dir != root {
		defer unix.Close(dir)
	}
	return op(dir, base)
}

// ignoringEINTR calls op until it fails with another error than EINTR.
func ignoringEINTR(op func() error) error {
	for {
		if err := op(); err != unix.EINTR {
			return err
		}
	}
}

// sysMode returns the bits of mode that open, mkdir and chmod take, as
// package os computes them.
func sysMode(mode fs.FileMode) uint32 {
	m := uint32(mode.Perm())
	if mode&fs.ModeSetuid != 0 {
		m |= unix.S_ISUID
	}
	if mode&fs.ModeSetgid != 0 {
		m |= unix.S_ISGID
	}
	if mode&fs.ModeSticky != 0 {
		m |= unix.S_ISVTX
	}
	return m
}

func (f *FS) rootedOpen(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := f.open(name, flag|unix.O_LARGEFILE, sysMode(perm))
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

func (f *FS) rootedStat(name string, follow bool) (fs.FileInfo, error) {
	flag := unix.O_PATH
	if !follow {
		flag |= unix.O_NOFOLLOW
	}
	fd, err := f.open(name, flag, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	fi := &statInfo{name: baseName(name)}
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &fi.sys) }); err != nil {
		return nil, err
	}
	fi.setMode()
	return fi, nil
}

func (f *FS) rootedReadDir(name string) ([]fs.DirEntry, error) {
	fd, err := f.open(name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	d := os.NewFile(uintptr(fd), name)
	defer d.Close()
	list, err := d.ReadDir(-1)
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, err
}

func (f *FS) rootedReadLink(name string) (string, error) {
	fd, err := f.open(name, unix.O_PATH|unix.O_NOFOLLOW, 0)
	if err != nil {
		return "", err
	}
	defer unix.Close(fd)
	for size := 128; ; size *= 2 {
		buf := make([]byte, size)
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = unix.Readlinkat(fd, "", buf)
			return err
		})
		if err == unix.ENOENT {
			// With an empty path, readlinkat reports a descriptor that is
			// not a link as ENOENT; readlink(2) of its name says EINVAL.
			return "", unix.EINVAL
		}
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

func (f *FS) rootedMkdir(name string, perm fs.FileMode) error {
	return f.atParent(name, func(dir int, base string) error {
		return ignoringEINTR(func() error { return unix.Mkdirat(dir, base, sysMode(perm)) })
	})
}

func (f *FS) rootedSymlink(target, name string) error {
	if tooLong(target) {
		// The kernel copies the target in before it looks at the name.
		return unix.ENAMETOOLONG
	}
	return f.atParent(name, func(dir int, base string) error {
		return ignoringEINTR(func() error { return unix.Symlinkat(target, dir, base) })
	})
}

func (f *FS) rootedRemove(name string) error {
	if tooLong(name) {
		return unix.ENAMETOOLONG
	}
	if isRoot(name) {
		return unix.EBUSY
	}
	return f.atParent(name, func(dir int, base string) error {
		// As os.Remove: unlink, then rmdir; rmdir's error unless it says
		// the name is not a directory.
		err := ignoringEINTR(func() error { return unix.Unlinkat(dir, base, 0) })
		if err == nil {
			return nil
		}
		err1 := ignoringEINTR(func() error { return unix.Unlinkat(dir, base, unix.AT_REMOVEDIR) })
		if err1 == nil {
			return nil
		}
		if err1 != unix.ENOTDIR {
			err = err1
		}
		return err
	})
}

func (f *FS) rootedRename(oldname, newname string) error {
	// In the kernel's order: the old name's length, its parent, the new
	// name's length, its parent, and only then the last components.
	if tooLong(oldname) {
		return unix.ENAMETOOLONG
	}
	root, err := f.openRoot()
	if err != nil {
		return err
	}
	defer unix.Close(root)
	oldDir, oldBase, err := parentIn(root, oldname)
	if err != nil {
		return err
	}
	if oldDir != root {
		defer unix.Close(oldDir)
	}
	if tooLong(newname) {
		return unix.ENAMETOOLONG
	}
	newDir, newBase, err := parentIn(root, newname)
	if err != nil {
		return err
	}
	if newDir != root {
		defer unix.Close(newDir)
	}
	if isRoot(oldname) || isRoot(newname) {
		return unix.EBUSY
	}
	return ignoringEINTR(func() error { return unix.Renameat(oldDir, oldBase, newDir, newBase) })
}

func (f *FS) rootedChmod(name string, mode fs.FileMode) error {
	fd, err := f.open(name, unix.O_PATH, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	m := sysMode(mode)
	err = ignoringEINTR(func() error { return unix.Fchmodat(fd, "", m, unix.AT_EMPTY_PATH) })
	// Where fchmodat2 works, the /proc entry changes the same file the same
	// way and a real error comes back from both: negating either test (a
	// mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_NEGATION
	if err == unix.EOPNOTSUPP || err == unix.EPERM {
		// No fchmodat2 (before Linux 6.6; the x/sys wrapper reports its
		// ENOSYS as EOPNOTSUPP), or a sandbox that refuses system calls
		// it does not know with EPERM: the descriptor's own entry in /proc
		// names the same file, and a real EPERM comes back from there.
		return chmodProc(fd, m)
	}
	return err
}

// chmodProc changes the mode of the file open as fd through its
// /proc/self/fd entry, for kernels without fchmodat2.
func chmodProc(fd int, mode uint32) error {
	return ignoringEINTR(func() error { return unix.Chmod(procPath(fd), mode) })
}

// procPath returns the /proc entry of the open descriptor fd.
func procPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

func (f *FS) rootedChtimes(name string, atime, mtime time.Time) error {
	fd, err := f.open(name, unix.O_PATH, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ts := []unix.Timespec{utime(atime), utime(mtime)}
	err = ignoringEINTR(func() error { return unix.UtimesNanoAt(fd, "", ts, unix.AT_EMPTY_PATH) })
	// As for Chmod, the /proc entry sets the same times where
	// AT_EMPTY_PATH works: negating this test (a mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_NEGATION
	if err == unix.EINVAL {
		// A kernel whose utimensat does not take AT_EMPTY_PATH.
		return chtimesProc(fd, ts)
	}
	return err
}

// chtimesProc sets the times of the file open as fd through its
// /proc/self/fd entry, for kernels whose utimensat lacks AT_EMPTY_PATH.
func chtimesProc(fd int, ts []unix.Timespec) error {
	return ignoringEINTR(func() error { return unix.UtimesNanoAt(unix.AT_FDCWD, procPath(fd), ts, 0) })
}

// utime returns t for utimensat, or UTIME_OMIT for the zero time, which
// leaves that time unchanged as in os.Chtimes.
func utime(t time.Time) unix.Timespec {
	if t.IsZero() {
		return unix.Timespec{Sec: unix.UTIME_OMIT, Nsec: unix.UTIME_OMIT}
	}
	return unix.NsecToTimespec(t.UnixNano())
}

func (f *FS) rootedRemoveAll(name string) error {
	if !isRoot(name) && endsWithDot(name) {
		// As os.RemoveAll: a name ending in "." or ".." is refused.
		return &fs.PathError{Op: "RemoveAll", Path: name, Err: unix.EINVAL}
	}
	root, err := f.openRoot()
	if err != nil {
		return err
	}
	defer unix.Close(root)
	if isRoot(name) {
		// The kernel refuses to remove "/" (EBUSY); like `rm -rf /`, what
		// is below it goes first.
		if err := removeChildren(root, "/"); err != nil {
			return err
		}
		return unix.EBUSY
	}
	// Like os.RemoveAll, which removes the base name from its parent: a
	// trailing slash never makes it follow a final link.
	dir, base, err := parentIn(root, strings.TrimRight(name, "/"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if dir != root {
		defer unix.Close(dir)
	}
	return removeAllAt(dir, base)
}

// endsWithDot reports whether name's last component is "." or "..".
func endsWithDot(name string) bool {
	_, base := split(name)
	base = strings.TrimRight(base, "/")
	return base == "." || base == ".."
}

// removeAllAt removes base and everything below it from the directory
// dir, without following links, as os.RemoveAll's removeAllFrom does: the
// walk holds a descriptor of each directory it empties, opened with
// O_NOFOLLOW|O_DIRECTORY, so a directory swapped for a link stops it
// rather than sending it elsewhere.
func removeAllAt(dir int, base string) error {
	err := ignoringEINTR(func() error { return unix.Unlinkat(dir, base, 0) })
	if err == nil || err == unix.ENOENT {
		return nil
	}
	// EISDIR: a directory to empty first. EPERM, EACCES: perhaps a
	// directory all the same, whose children may be removable.
	if err != unix.EISDIR && err != unix.EPERM && err != unix.EACCES {
		return &fs.PathError{Op: "unlinkat", Path: base, Err: err}
	}
	unlinkErr := err
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dir, base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	switch {
	case err == unix.ENOENT:
		return nil
	case err == unix.ENOTDIR || err == unix.ELOOP:
		// Not a directory (now): the unlink's error stands.
		return &fs.PathError{Op: "unlinkat", Path: base, Err: unlinkErr}
	case err != nil:
		return &fs.PathError{Op: "openfdat", Path: base, Err: err}
	}
	childErr := removeChildren(fd, base)
	unix.Close(fd)
	err = ignoringEINTR(func() error { return unix.Unlinkat(dir, base, unix.AT_REMOVEDIR) })
	if err == nil || err == unix.ENOENT {
		return nil
	}
	if childErr != nil {
		return childErr
	}
	return &fs.PathError{Op: "unlinkat", Path: base, Err: err}
}

// removeChildren removes everything below the open directory fd, named
// name in errors, and returns the first error met. As os.RemoveAll does,
// it reads the directory afresh after each batch it removed entries from,
// since removing entries while reading may make getdents skip some.
func removeChildren(fd int, name string) error {
	const batch = 1024
	var first error
	for {
		// A descriptor of its own for each pass, so that it reads from the
		// start.
		sub, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return &fs.PathError{Op: "openfdat", Path: name, Err: err}
		}
		d := os.NewFile(uintptr(sub), name)
		var n int
		for {
			names, err := d.Readdirnames(batch)
			// io.EOF comes only from a directory found empty, whose own
			// unlink then succeeds and drops the error: err == io.EOF here
			// (a mutant) changes nothing but under a concurrent writer.
			//mutants:equivalent CONDITIONALS_NEGATION@25
			if err != nil && err != io.EOF {
				d.Close()
				return err
			}
			n = len(names)
			failed := 0
			for _, child := range names {
				if err := removeAllAt(fd, child); err != nil {
					failed++
					if first == nil {
						first = err
					}
				}
			}
			// A batch in which nothing could be removed is skipped: read
			// the next one from the same descriptor.
			if failed != batch {
				break
			}
		}
		d.Close()
		if n < batch {
			return first
		}
	}
}

// baseName returns the last component of name without trailing slashes,
// or "/" for the root, as os.Stat names its FileInfo.
func baseName(name string) string {
	t := strings.TrimRight(name, "/")
	if t == "" {
		return "/"
	}
	return t[strings.LastIndexByte(t, '/')+1:]
}

// statInfo is the FileInfo of an fstat, named after the caller's name.
type statInfo struct {
	name string
	mode fs.FileMode
	sys  syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.sys.Size }
func (s *statInfo) Mode() fs.FileMode  { return s.mode }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.sys.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.mode.IsDir() }

// Sys returns the *syscall.Stat_t, as package os does.
func (s *statInfo) Sys() any { return &s.sys }

// setMode computes the FileMode from the stat mode, as package os does.
func (s *statInfo) setMode() {
	m := fs.FileMode(s.sys.Mode & 0o777)
	switch s.sys.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.sys.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.sys.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.sys.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	s.mode = m
}

func (f *FS) rootedSyncDir(name string) error {
	fd, err := f.open(name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return ignoringEINTR(func() error { return unix.Fsync(fd) })
}
