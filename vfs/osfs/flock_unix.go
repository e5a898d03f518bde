//go:build unix

package osfs

import (
	"io/fs"
	"os"
	"syscall"
)

// flock takes the flock of an open file, shared (LOCK_SH) or exclusive
// (LOCK_EX), waiting for it when wait is set; a lock held that excludes
// it gives EWOULDBLOCK without wait.
func flock(f *os.File, shared, wait bool) error {
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := raw.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), how)
			if ferr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	return ferr
}

// sameFile reports whether two FileInfos of the host describe one file.
func sameFile(a, b fs.FileInfo) bool {
	x, ok1 := a.Sys().(*syscall.Stat_t)
	y, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && x.Dev == y.Dev && x.Ino == y.Ino
}
