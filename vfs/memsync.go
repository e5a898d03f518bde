package vfs

import (
	"io/fs"
	"sync/atomic"
	"syscall"
)

var (
	_ SyncFile  = (*memFile)(nil)
	_ SyncDirFS = (*MemFS)(nil)
)

// syncCounts counts the syncs a [MemFS] was asked for.
type syncCounts struct {
	files, dirs atomic.Int64
}

// SyncDir records that the named directory was synced (see
// [MemFS.Syncs]). It fails as the OS backend's does, with an
// *fs.PathError whose Op is "sync": wrapping fs.ErrNotExist for a missing
// name, [ErrNotDir] for one that is not a directory, following links.
func (m *MemFS) SyncDir(name string) error {
	m.mu.RLock()
	n, err := m.lookup("sync", name, walkFollow)
	m.mu.RUnlock()
	if err != nil {
		return err
	}
	if !n.isDir() {
		return &fs.PathError{Op: "sync", Path: name, Err: syscall.ENOTDIR}
	}
	m.syncs.dirs.Add(1)
	return nil
}

// Syncs returns the number of times the files of m were synced and the
// number of times its directories were, since m was made (a clone starts
// from zero). Tests use it to check that a durable write asked for the
// syncs a disk needs.
func (m *MemFS) Syncs() (files, dirs int64) {
	return m.syncs.files.Load(), m.syncs.dirs.Load()
}

// Inode returns the inode number fi describes and true, for the file
// information of a [MemFS] and of the OS (a *syscall.Stat_t in Sys), or
// 0 and false. Two names with the same inode number on one file system
// are the same file.
func Inode(fi fs.FileInfo) (uint64, bool) {
	switch fi := fi.(type) {
	case *memInfo:
		return fi.ino, true
	case nil:
		return 0, false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), true
	}
	return 0, false
}
