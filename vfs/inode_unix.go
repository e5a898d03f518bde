//go:build unix

package vfs

import (
	"io/fs"
	"syscall"
)

// osInode returns the inode number of the OS's file information.
func osInode(fi fs.FileInfo) (uint64, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), true
	}
	return 0, false
}
