package overlayfs

import (
	"errors"
	"io/fs"
	"os"
	"sync"

	"github.com/outfitter-go/vfsim/vfs"
)

var _ vfs.SharedLockFS = (*FS)(nil)

// locks is the overlay's table of advisory locks, by canonical name.
type locks struct {
	mu   sync.Mutex
	held map[string]*heldLock
}

// heldLock is the lock of one name: exclusive, or shared by shared
// holders; released is closed when the last holder releases it.
type heldLock struct {
	released  chan struct{}
	exclusive bool
	shared    int
}

// Lock takes the exclusive advisory lock of the named file or directory,
// waiting while another holder has it; see [vfs.LockFS]. A missing name is
// created in the upper layer, as OpenFile with O_CREATE creates it; an
// existing lower file is not copied up, since a lock changes nothing in
// the file. The overlay keeps its locks in memory, by the name the file
// has once links are resolved: they exclude the other Locks of this
// overlay, and nothing of the lower layer is ever locked. A file renamed
// while it is locked leaves its lock on its old name.
func (f *FS) Lock(name string) (vfs.Unlocker, error) { return f.lock(name, false, true) }

// TryLock is [FS.Lock] without waiting: a held lock fails with an
// *fs.PathError wrapping [vfs.ErrLocked].
func (f *FS) TryLock(name string) (vfs.Unlocker, error) { return f.lock(name, false, false) }

// LockShared takes a shared advisory lock of the named file or directory,
// waiting while an exclusive holder has it; see [vfs.SharedLockFS]. It is
// [FS.Lock] otherwise, in the same table.
func (f *FS) LockShared(name string) (vfs.Unlocker, error) { return f.lock(name, true, true) }

// TryLockShared is [FS.LockShared] without waiting: an exclusive lock
// held fails with an *fs.PathError wrapping [vfs.ErrLocked].
func (f *FS) TryLockShared(name string) (vfs.Unlocker, error) { return f.lock(name, true, false) }

func (f *FS) lock(name string, shared, wait bool) (vfs.Unlocker, error) {
	for {
		f.locks.mu.Lock()
		canon, err := f.lockTarget(name)
		if err != nil {
			f.locks.mu.Unlock()
			return nil, err
		}
		held, ok := f.locks.held[canon]
		if !ok {
			if f.locks.held == nil {
				f.locks.held = map[string]*heldLock{}
			}
			held = &heldLock{released: make(chan struct{}), exclusive: !shared}
			f.locks.held[canon] = held
		}
		if !ok || shared && !held.exclusive {
			if shared {
				held.shared++
			}
			f.locks.mu.Unlock()
			return &lock{l: &f.locks, canon: canon, name: name, shared: shared}, nil
		}
		f.locks.mu.Unlock()
		if !wait {
			return nil, &fs.PathError{Op: "flock", Path: name, Err: vfs.ErrLocked}
		}
		<-held.released
	}
}

// lockTarget makes sure name exists, creating an empty file when it does
// not, and returns its canonical name.
func (f *FS) lockTarget(name string) (string, error) {
	fl, err := f.OpenFile(name, os.O_RDONLY|os.O_CREATE, 0o600)
	if errors.Is(err, vfs.ErrIsDir) {
		fl, err = f.OpenFile(name, os.O_RDONLY, 0)
	}
	if err != nil {
		return "", err
	}
	if err := fl.Close(); err != nil {
		return "", err
	}
	canon, err := vfs.EvalSymlinks(f, name)
	if err != nil {
		return "", &fs.PathError{Op: "flock", Path: name, Err: vfs.Cause(err)}
	}
	return canon, nil
}

// lock is a lock held in an overlay's table.
type lock struct {
	l      *locks
	canon  string
	name   string
	shared bool
	done   bool
}

func (k *lock) Unlock() error {
	k.l.mu.Lock()
	defer k.l.mu.Unlock()
	if k.done {
		return &fs.PathError{Op: "flock", Path: k.name, Err: fs.ErrClosed}
	}
	k.done = true
	held := k.l.held[k.canon]
	if k.shared {
		held.shared--
		if held.shared > 0 {
			return nil
		}
	}
	close(held.released)
	delete(k.l.held, k.canon)
	return nil
}
