package vfs

import (
	"io/fs"
	"os"
)

var _ LockFS = (*MemFS)(nil)

// Lock takes the exclusive advisory lock of the named file or directory,
// waiting while another holder has it; see [LockFS]. A missing name is
// created as an empty file. The lock belongs to the file, not to its name:
// it follows the file through a rename, and a file created at the name
// after a removal is another file with a lock of its own. Locks belong to
// m alone: a [MemFS.Clone] starts with none.
func (m *MemFS) Lock(name string) (Unlocker, error) { return m.lock(name, true) }

// TryLock is [MemFS.Lock] without waiting: a held lock fails with an
// *fs.PathError wrapping [ErrLocked].
func (m *MemFS) TryLock(name string) (Unlocker, error) { return m.lock(name, false) }

func (m *MemFS) lock(name string, wait bool) (Unlocker, error) {
	for {
		m.mu.Lock()
		n, _, err := m.openLocked("open", name, os.O_RDONLY|os.O_CREATE, 0o600)
		if err != nil {
			m.mu.Unlock()
			return nil, err
		}
		held, ok := m.locks[n.ino]
		if !ok {
			if m.locks == nil {
				m.locks = map[uint64]chan struct{}{}
			}
			m.locks[n.ino] = make(chan struct{})
			m.mu.Unlock()
			return &memLock{m: m, ino: n.ino, name: name}, nil
		}
		m.mu.Unlock()
		if !wait {
			return nil, &fs.PathError{Op: "flock", Path: name, Err: ErrLocked}
		}
		// Released: look the name up again, it may name another file now.
		<-held
	}
}

// memLock is a lock held on a MemFS inode.
type memLock struct {
	m    *MemFS
	ino  uint64
	name string
	done bool
}

func (l *memLock) Unlock() error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	if l.done {
		return &fs.PathError{Op: "flock", Path: l.name, Err: fs.ErrClosed}
	}
	l.done = true
	close(l.m.locks[l.ino])
	delete(l.m.locks, l.ino)
	return nil
}
