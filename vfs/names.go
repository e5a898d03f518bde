package vfs

import (
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// CheckName returns the error that [MemFS] gives, before it looks anything
// up, for a name it cannot take, as an *fs.PathError with op and name; nil
// for a name it takes. An empty name is fs.ErrNotExist (ENOENT), a name
// holding a NUL byte or not starting with a slash is fs.ErrInvalid
// (EINVAL), and a name of [PathMax] bytes or more is [ErrNameTooLong]. The
// kernel checks the length of the name as given, redundant slashes
// included, and so does CheckName. Backends built on MemFS use it to give
// the same answers.
func CheckName(op, name string) error {
	if err := nameErr(name); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// nameErr is [CheckName]'s errno.
func nameErr(name string) error {
	if err := formErr(name); err != nil {
		return err
	}
	if len(name) >= PathMax {
		return syscall.ENAMETOOLONG
	}
	return nil
}

// formErr is nameErr without the length limit, for MkdirAll and
// RemoveAll, which package os builds from several calls on shorter names.
func formErr(name string) error {
	if name == "" {
		return syscall.ENOENT
	}
	// A NUL first is caught as no slash: > 0 in the second test (a
	// mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if name[0] != '/' || strings.IndexByte(name, 0) >= 0 {
		return syscall.EINVAL
	}
	return nil
}

// CheckSymlink is [CheckName] for Symlink: it returns the *os.LinkError
// that [MemFS.Symlink] gives, before it looks anything up, for names it
// cannot take, or nil. As with Go and the kernel, a NUL byte in either name
// comes first (EINVAL), then the target (empty: ENOENT; [PathMax] bytes or
// more: [ErrNameTooLong]), then newname as CheckName judges it.
func CheckSymlink(oldname, newname string) error {
	err := nameErr(newname)
	// A NUL first in newname is EINVAL from nameErr already: > 0 for
	// newname (a mutant) is equivalent.
	switch {
	//mutants:equivalent CONDITIONALS_BOUNDARY@75
	case strings.IndexByte(oldname, 0) >= 0 || strings.IndexByte(newname, 0) >= 0:
		err = syscall.EINVAL
	case oldname == "":
		err = syscall.ENOENT
	case len(oldname) >= PathMax:
		err = syscall.ENAMETOOLONG
	}
	if err != nil {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: err}
	}
	return nil
}

// RemoveAllParentTooLong reports whether os.RemoveAll fails on name for
// its length. os.RemoveAll first removes name whole, which fails for a name
// of [PathMax] bytes or more; it then opens name's parent and removes the
// base name from it, so the name as a whole may be too long while the
// parent's name, as os splits it off (leading slashes collapsed to one,
// trailing ones dropped, then everything before the last slash), fits.
// Only when that name too is PathMax bytes or more does os.RemoveAll fail
// with [ErrNameTooLong].
func RemoveAllParentTooLong(name string) bool {
	// A name of PathMax bytes has a shorter parent: <= here (a mutant)
	// is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if len(name) < PathMax {
		return false
	}
	lead := len(name) - len(strings.TrimLeft(name, "/"))
	i := strings.LastIndexByte(strings.TrimRight(name, "/"), '/')
	return i-(lead-1) >= PathMax
}
