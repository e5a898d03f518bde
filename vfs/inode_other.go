//go:build !unix

package vfs

import "io/fs"

// osInode reports no inode number: the OS's file information carries
// none here.
func osInode(fs.FileInfo) (uint64, bool) { return 0, false }
