package vfs

import (
	"io/fs"
	"os"
	"slices"
)

var _ SharedLockFS = (*MemFS)(nil)

// Lock takes the exclusive advisory lock of the named file or directory,
// waiting while another holder has it; see [LockFS]. A missing name is
// created as an empty file. The lock belongs to the file, not to its name:
// it follows the file through a rename, and a file created at the name
// after a removal is another file with a lock of its own. Locks belong to
// m alone: a [MemFS.Clone] starts with none.
func (m *MemFS) Lock(name string) (Unlocker, error) { return m.lock(name, false, true) }

// TryLock is [MemFS.Lock] without waiting: a held lock fails with an
// *fs.PathError wrapping [ErrLocked].
func (m *MemFS) TryLock(name string) (Unlocker, error) { return m.lock(name, false, false) }

// LockShared takes a shared advisory lock of the named file or directory,
// waiting while an exclusive holder has it; see [SharedLockFS]. It is
// [MemFS.Lock] otherwise: it creates a missing name, and its lock belongs
// to the file.
func (m *MemFS) LockShared(name string) (Unlocker, error) { return m.lock(name, true, true) }

// TryLockShared is [MemFS.LockShared] without waiting: an exclusive lock
// held fails with an *fs.PathError wrapping [ErrLocked].
func (m *MemFS) TryLockShared(name string) (Unlocker, error) { return m.lock(name, true, false) }

func (m *MemFS) lock(name string, shared, wait bool) (Unlocker, error) {
	for {
		m.mu.Lock()
		n, _, err := m.openLocked("open", name, os.O_RDONLY|os.O_CREATE, 0o600)
		if err != nil {
			m.mu.Unlock()
			return nil, err
		}
		held := m.heldLock(n.ino, shared)
		if held == nil {
			l := m.newLock()
			*l = memLock{m: m, ino: n.ino, name: name, shared: shared}
			if m.locks == nil {
				m.locks = m.lockArr[:0]
			}
			m.locks = append(m.locks, l)
			m.mu.Unlock()
			return l, nil
		}
		if !wait {
			m.mu.Unlock()
			return nil, &fs.PathError{Op: "flock", Path: name, Err: ErrLocked}
		}
		if held.released == nil {
			held.released = make(chan struct{})
		}
		released := held.released
		m.mu.Unlock()
		// Released: look the name up again, it may name another file now.
		<-released
	}
}

// newLock returns a lock not yet used, made with a few others in one
// allocation: a run takes several. A lock is never reused, so that an
// Unlock of a released lock still fails. The caller holds m.mu.
func (m *MemFS) newLock() *memLock {
	if len(m.lockSlab) == 0 {
		m.lockSlab = make([]memLock, 8)
	}
	l := &m.lockSlab[0]
	m.lockSlab = m.lockSlab[1:]
	return l
}

// heldLock returns a lock held on inode ino that excludes a new one
// (shared or not), or nil; the caller holds m.mu. Shared locks exclude
// only exclusive ones.
func (m *MemFS) heldLock(ino uint64, shared bool) *memLock {
	for _, l := range m.locks {
		if l.ino == ino && !(shared && l.shared) {
			return l
		}
	}
	return nil
}

// memLock is a lock held on a MemFS inode, shared or exclusive. released
// is made by the first Lock that waits for it, and closed when it is
// released.
type memLock struct {
	m        *MemFS
	ino      uint64
	name     string
	shared   bool
	done     bool
	released chan struct{}
}

func (l *memLock) Unlock() error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	if l.done {
		return &fs.PathError{Op: "flock", Path: l.name, Err: fs.ErrClosed}
	}
	l.done = true
	if l.released != nil {
		close(l.released)
	}
	if i := slices.Index(l.m.locks, l); i >= 0 {
		l.m.locks = slices.Delete(l.m.locks, i, i+1)
	}
	return nil
}
