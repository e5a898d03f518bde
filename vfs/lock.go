package vfs

import (
	"errors"
	"io/fs"
	"path"
	"syscall"
)

// ErrLocked reports that a lock is held by another holder and the caller
// asked not to wait ([TryLock]); it is the errno flock(2) gives then
// (EWOULDBLOCK).
var ErrLocked error = syscall.EWOULDBLOCK

// An Unlocker releases a lock taken by [LockFS.Lock] or [LockFS.TryLock].
type Unlocker interface {
	// Unlock releases the lock. A second call returns an error wrapping
	// fs.ErrClosed and changes nothing.
	Unlock() error
}

// A LockFS can take advisory exclusive locks, with the semantics of
// flock(2) and LOCK_EX: a lock belongs to the [Unlocker] that took it, not
// to the process, so two Locks of one file exclude each other within one
// process as well as between processes; a lock does not stop anybody from
// reading or writing the file (only other Locks wait); and it is released
// by Unlock or, on the OS backend, by the kernel when the process ends, so
// a crashed holder never leaves a stale lock behind.
type LockFS interface {
	FS
	// Lock takes the exclusive lock of the named file or directory,
	// following links, and waits while another holder has it. A missing
	// name is created as an empty regular file (mode 0600 before umask;
	// its directory must exist). Lock returns holding the lock of the
	// file the name names when it returns: when the name was removed or
	// replaced while it waited, it locks the new file (creating it
	// again), so a holder may remove its lock file before it unlocks
	// without ever letting two holders in ([LockFile] relies on it).
	// If there is an error, it is of type *fs.PathError.
	Lock(name string) (Unlocker, error)
	// TryLock is Lock that never waits: a lock held by another holder
	// fails with an *fs.PathError wrapping [ErrLocked].
	TryLock(name string) (Unlocker, error)
}

// Lock takes the exclusive lock of name through [LockFS], waiting while
// another holder has it, or returns an error wrapping
// errors.ErrUnsupported.
func Lock(fsys FS, name string) (Unlocker, error) {
	if l, ok := fsys.(LockFS); ok {
		return l.Lock(name)
	}
	return nil, unsupported("flock", name)
}

// TryLock takes the exclusive lock of name through [LockFS] without
// waiting (a held lock gives an error wrapping [ErrLocked]), or returns an
// error wrapping errors.ErrUnsupported.
func TryLock(fsys FS, name string) (Unlocker, error) {
	if l, ok := fsys.(LockFS); ok {
		return l.TryLock(name)
	}
	return nil, unsupported("flock", name)
}

// A SharedLockFS is a [LockFS] that can also take shared locks, with the
// semantics of flock(2) and LOCK_SH: any number of holders may share the
// lock of a file, and while one does, an exclusive Lock of the file waits
// and a TryLock fails with [ErrLocked]; a shared lock in turn waits while
// an exclusive holder has the file. The rest is [LockFS]'s: a lock
// belongs to its [Unlocker], follows links, creates a missing name,
// locks the file the name names when it returns (after a wait it looks
// the name up again) and is released by Unlock or, on the OS backend, by
// the end of the process. A holder never converts its lock: a shared
// holder that asks for the exclusive lock of the same file waits for
// itself, as with flock(2) through two descriptors.
type SharedLockFS interface {
	LockFS
	// LockShared takes a shared lock of the named file or directory,
	// waiting while an exclusive holder has it. If there is an error, it
	// is of type *fs.PathError.
	LockShared(name string) (Unlocker, error)
	// TryLockShared is LockShared that never waits: an exclusive lock
	// held by another holder fails with an *fs.PathError wrapping
	// [ErrLocked].
	TryLockShared(name string) (Unlocker, error)
}

// LockShared takes a shared lock of name through [SharedLockFS], waiting
// while an exclusive holder has it, or returns an error wrapping
// errors.ErrUnsupported.
func LockShared(fsys FS, name string) (Unlocker, error) {
	if l, ok := fsys.(SharedLockFS); ok {
		return l.LockShared(name)
	}
	return nil, unsupported("flock", name)
}

// TryLockShared takes a shared lock of name through [SharedLockFS]
// without waiting (an exclusive lock held by another holder gives an
// error wrapping [ErrLocked]), or returns an error wrapping
// errors.ErrUnsupported.
func TryLockShared(fsys FS, name string) (Unlocker, error) {
	if l, ok := fsys.(SharedLockFS); ok {
		return l.TryLockShared(name)
	}
	return nil, unsupported("flock", name)
}

// LockName returns the name of the lock file that guards the file name:
// ".<base>.lock" in name's directory, where base is name's last element.
// The lock is not the file itself, because the atomic replacement of a
// durable file ([ReplaceFile]) renames a new file over it: a lock on the
// old file would guard a file nobody reads any more. The lock file sits
// beside the file so that it is on the same file system and under the same
// permissions, so that every session finds it from the file's name alone,
// whatever its home or temporary directory, and so that it exists only
// while a holder has it (see [LockFile]).
func LockName(name string) string {
	dir, base := path.Split(name)
	return dir + "." + base + ".lock"
}

// LockFile takes the lock that guards a durable file across sessions for
// a read-modify-write: the lock of [LockName](name), through [LockFS],
// waiting while another session holds it. name should be the file's real
// name (links resolved with [EvalSymlinks]), so that sessions that reach
// the file through different links take the same lock. The returned
// Unlocker removes the lock file and then releases the lock, so a lock
// file exists only while it is held; a holder that dies leaves the file
// behind, unlocked, and the next LockFile takes it as it is. Without
// [LockFS] LockFile returns an error wrapping errors.ErrUnsupported.
func LockFile(fsys FS, name string) (Unlocker, error) {
	lockName := LockName(name)
	u, err := Lock(fsys, lockName)
	if err != nil {
		return nil, err
	}
	return &fileLock{fsys: fsys, name: lockName, u: u}, nil
}

// TryLockFile is [LockFile] without waiting: a lock another session holds
// gives an error wrapping [ErrLocked].
func TryLockFile(fsys FS, name string) (Unlocker, error) {
	lockName := LockName(name)
	u, err := TryLock(fsys, lockName)
	if err != nil {
		return nil, err
	}
	return &fileLock{fsys: fsys, name: lockName, u: u}, nil
}

// fileLock is the lock of [LockFile]: it removes its lock file before it
// unlocks.
type fileLock struct {
	fsys FS
	name string
	u    Unlocker
	done bool
}

func (l *fileLock) Unlock() error {
	if l.done {
		return &fs.PathError{Op: "flock", Path: l.name, Err: fs.ErrClosed}
	}
	l.done = true
	err := Remove(l.fsys, l.name)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return errors.Join(err, l.u.Unlock())
}
