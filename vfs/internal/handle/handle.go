// Package handle holds what the in-memory file handles of package vfs and
// of the overlay share: the offset a Seek moves to, a read from a byte
// slice and the paging of a directory listing, each as *os.File does it.
// Errors are bare errnos; the handles wrap them in an *fs.PathError.
package handle

import (
	"io"
	"io/fs"
	"syscall"
)

// Seek returns the offset that Seek(offset, whence) moves a handle at cur
// to. size returns the file's size; it is called for io.SeekEnd only. An
// unknown whence or a negative result is syscall.EINVAL.
func Seek(cur, offset int64, whence int, size func() int64) (int64, error) {
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = cur
	case io.SeekEnd:
		base = size()
	default:
		return 0, syscall.EINVAL
	}
	if base+offset < 0 {
		return 0, syscall.EINVAL
	}
	return base + offset, nil
}

// ReadAt copies data from off into p and returns how many bytes it
// copied: io.EOF at or past the end of data, unless p is empty. off must
// not be negative.
func ReadAt(p, data []byte, off int64) (int, error) {
	if off >= int64(len(data)) {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	return copy(p, data[off:]), nil
}

// ReadDir returns the next entries of the listing *rest and drops them
// from it, as (*os.File).ReadDir(count) does: for count <= 0 all of them,
// an empty list (never nil) when none is left; else at most count of them,
// and io.EOF when none is left.
func ReadDir(rest *[]fs.DirEntry, count int) ([]fs.DirEntry, error) {
	if count <= 0 {
		list := *rest
		*rest = (*rest)[len(*rest):]
		if list == nil {
			list = []fs.DirEntry{}
		}
		return list, nil
	}
	if len(*rest) == 0 {
		return nil, io.EOF
	}
	count = min(count, len(*rest))
	list := (*rest)[:count:count]
	*rest = (*rest)[count:]
	return list, nil
}
