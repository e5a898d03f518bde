package jsstack

import (
	"errors"
	"syscall"
)

// nodeErrnos are the codes and texts (libuv's) Node gives the errors of
// file system calls.
var nodeErrnos = map[syscall.Errno][2]string{
	syscall.ENOENT:       {"ENOENT", "no such file or directory"},
	syscall.ENOTDIR:      {"ENOTDIR", "not a directory"},
	syscall.EISDIR:       {"EISDIR", "illegal operation on a directory"},
	syscall.ELOOP:        {"ELOOP", "too many symbolic links encountered"},
	syscall.EACCES:       {"EACCES", "permission denied"},
	syscall.EPERM:        {"EPERM", "operation not permitted"},
	syscall.ENAMETOOLONG: {"ENAMETOOLONG", "name too long"},
	syscall.EEXIST:       {"EEXIST", "file already exists"},
	syscall.EINVAL:       {"EINVAL", "invalid argument"},
	syscall.EIO:          {"EIO", "i/o error"},
	syscall.ENOSPC:       {"ENOSPC", "no space left on device"},
	syscall.ENOTEMPTY:    {"ENOTEMPTY", "directory not empty"},
	syscall.EROFS:        {"EROFS", "read-only file system"},
	syscall.EMFILE:       {"EMFILE", "too many open files"},
}

// FSError returns String(error) of the error Node's fs would throw for
// err, a failed syscall (Node's name: "scandir", "open", "stat") on name:
// "Error: ENOTDIR: not a directory, scandir '<name>'". An error without a
// known errno is "Error: " and its text. A read of a directory is Node's
// "Error: EISDIR: illegal operation on a directory, read", without a name.
func FSError(err error, syscallName, name string) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return "Error: " + err.Error()
	}
	code, ok := nodeErrnos[errno]
	if !ok {
		return "Error: " + err.Error()
	}
	if errno == syscall.EISDIR && syscallName == "open" {
		return "Error: EISDIR: illegal operation on a directory, read"
	}
	return "Error: " + code[0] + ": " + code[1] + ", " + syscallName + " '" + name + "'"
}
