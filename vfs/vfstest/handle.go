package vfstest

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

// CheckReadAt checks the io.ReaderAt of an open file whose content is
// "hello" and whose name is name: ReadAt reads at the offset it is given
// (3 bytes at 0 are "hel", at 1 "ell"), says io.EOF with a short read (3 bytes at 3
// are "lo") and refuses a negative offset with a *fs.PathError "readat"
// wrapping EINVAL.
func CheckReadAt(tb TB, f fs.File, name string) {
	tb.Helper()
	ra, ok := f.(io.ReaderAt)
	if !ok {
		tb.Fatalf("%s: %T is no io.ReaderAt", name, f)
	}
	p := make([]byte, 3)
	if n, err := ra.ReadAt(p, 0); n != 3 || err != nil || string(p[:n]) != "hel" {
		tb.Errorf("ReadAt(3 bytes, 0) = %d %q, %v; want 3 \"hel\", nil", n, p[:n], err)
	}
	if n, err := ra.ReadAt(p, 1); n != 3 || err != nil || string(p[:n]) != "ell" {
		tb.Errorf("ReadAt(3 bytes, 1) = %d %q, %v; want 3 \"ell\", nil", n, p[:n], err)
	}
	if n, err := ra.ReadAt(p, 3); n != 2 || err != io.EOF || string(p[:n]) != "lo" {
		tb.Errorf("ReadAt(3 bytes, 3) = %d %q, %v; want 2 \"lo\", io.EOF", n, p[:n], err)
	}
	_, err := ra.ReadAt(p, -1)
	WantPathError(tb, "ReadAt(-1)", err, "readat", name, syscall.EINVAL)
}

// WantPathError checks that err, what a call described by what returned,
// is a *fs.PathError with operation op and path name wrapping errno.
func WantPathError(tb TB, what string, err error, op, name string, errno syscall.Errno) {
	tb.Helper()
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != op || pe.Path != name || !errors.Is(err, errno) {
		tb.Errorf("%s = %v (%T); want *fs.PathError %s %s: %v", what, err, err, op, name, errno)
	}
}
