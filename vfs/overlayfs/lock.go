package overlayfs

import (
	"errors"
	"io/fs"
	"os"
	"sync"

	"github.com/outfitter-go/vfsim/vfs"
)

var _ vfs.SharedLockFS = (*FS)(nil)

// locks is the overlay's table of advisory locks, by canonical name. Its
// mutex is taken before the overlay's own (see [FS.Rename] and
// [FS.Remove]).
type locks struct {
	mu   sync.Mutex
	held map[string]*heldLock
}

// heldLock is the lock of one file: exclusive, or shared by shared
// holders; released is closed when the last holder releases it. name is
// the canonical name it is kept under in the table, which [FS.Rename]
// changes with the file's; "" once the file was removed, or a rename put
// another file at that name, when the lock is its holders' alone.
type heldLock struct {
	name      string
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
// overlay, and nothing of the lower layer is ever locked. A lock belongs
// to the file, as flock's to the inode: it follows the file through a
// rename of it or of a directory above it ([FS.Rename]), and a file
// renamed over a locked one, or created at its name after it was removed
// (by [FS.Remove], or [FS.RemoveAll] of it or of a directory above it), is
// another file, with a lock of its own. The removed file's holders keep
// their lock until they unlock it. A Lock that waited for a lock whose
// file was removed or replaced meanwhile looks the name up again, and
// locks the file there, as [vfs.LockFS] asks.
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
			held = &heldLock{name: canon, released: make(chan struct{}), exclusive: !shared}
			f.locks.held[canon] = held
		}
		if !ok || shared && !held.exclusive {
			if shared {
				held.shared++
			}
			f.locks.mu.Unlock()
			return &lock{l: &f.locks, held: held, name: name, shared: shared}, nil
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
	held   *heldLock
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
	held := k.held
	if k.shared {
		held.shared--
		if held.shared > 0 {
			return nil
		}
	}
	close(held.released)
	if held.name != "" {
		delete(k.l.held, held.name)
	}
	return nil
}

// renamed moves the locks of the file or tree at the canonical name old
// to new, after a rename: those of new and below it belonged to the files
// the rename replaced, and are left to their holders alone. The caller
// holds l.mu.
func (l *locks) renamed(old, new string) {
	if len(l.held) == 0 || old == new {
		return
	}
	l.removed(new)
	var moved []*heldLock
	for name, h := range l.held {
		if vfs.Within(name, old) {
			h.name = new + name[len(old):]
			moved = append(moved, h)
			delete(l.held, name)
		}
	}
	for _, h := range moved {
		l.held[h.name] = h
	}
}

// removed leaves the locks of the file or tree at the canonical name to
// their holders alone, after it was removed or replaced: a file made at
// one of those names later is another file, whose lock is free. The
// caller holds l.mu.
func (l *locks) removed(name string) {
	for held, h := range l.held {
		if vfs.Within(held, name) {
			h.name = ""
			delete(l.held, held)
		}
	}
}
