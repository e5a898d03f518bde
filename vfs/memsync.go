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

// mkdirAllSynced is [MkdirAllSynced] on a MemFS in one step under its
// lock (plain says name is [plainFits], so clean), for a name that resolves to a directory (nothing is made or
// synced) or that is missing below directories (made as MkdirAll makes
// them, and counted as synced once each, as the general way syncs the
// deepest directory that existed and each one made down to name's
// parent). Done is false, and nothing is changed, for any other name:
// the general way reports it.
func (m *MemFS) mkdirAllSynced(name string, plain bool, perm fs.FileMode) (done bool, err error) {
	if nameErr(name) != nil {
		return false, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	before := m.nextIno
	if plain {
		// Without a link on the way, in one pass over the nodes; its
		// errors (a file on the way) come before anything is made, and
		// are the general way's to report.
		if done, err := m.mkdirAllPlain(name, perm); done {
			if err != nil {
				return false, nil
			}
			m.syncs.dirs.Add(int64(m.nextIno - before))
			return true, nil
		}
	}
	res, err := m.walk(name, walkFollow)
	switch {
	case err == nil && res.n != nil:
		return res.n.isDir(), nil
	case err != nil && err != syscall.ENOENT:
		return false, nil
	}
	if err := m.mkdirAllLocked(name, perm); err != nil {
		return true, err
	}
	// Each directory made is a new inode, and nothing else is made.
	m.syncs.dirs.Add(int64(m.nextIno - before))
	return true, nil
}

// plainFits reports whether name is plain ([plainName]) with no
// component longer than [NameMax], for a MemFS without a platform's
// folding: one that mkdirAllPlain makes whole or, failing before it
// makes anything, not at all.
func plainFits(name string) bool {
	if len(name) < 2 || len(name) >= PathMax || name[0] != '/' {
		return false
	}
	start := 1
	for i := 1; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		switch c := name[start:i]; {
		case c == "", c == ".", c == "..", len(c) > NameMax:
			return false
		}
		start = i + 1
	}
	return true
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
	return osInode(fi)
}
