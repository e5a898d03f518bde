package osfs

import (
	"errors"
	"io/fs"
	"os"

	"github.com/outfitter-go/vfsim/vfs"
)

var _ vfs.SharedLockFS = (*FS)(nil)

// Lock takes the exclusive advisory lock of the named file or directory
// with flock(2) (LOCK_EX), waiting while another holder has it; see
// [vfs.LockFS]. A missing name is created (mode 0600 before umask). The
// lock is held by an open descriptor of the file: it excludes other
// Locks of the file in this process and in every other, and the kernel
// releases it when the process ends, so no lock outlives its holder.
// After it has the lock, Lock checks that the name still names the file it
// locked, and starts again when it does not.
func (f *FS) Lock(name string) (vfs.Unlocker, error) { return f.lock(name, false, true) }

// TryLock is [FS.Lock] without waiting (LOCK_NB): a held lock fails with
// an *fs.PathError wrapping [vfs.ErrLocked].
func (f *FS) TryLock(name string) (vfs.Unlocker, error) { return f.lock(name, false, false) }

// LockShared takes a shared advisory lock of the named file or directory
// with flock(2) (LOCK_SH), waiting while an exclusive holder has it; see
// [vfs.SharedLockFS]. It is [FS.Lock] otherwise: a missing name is
// created, the lock is held by an open descriptor, and a name replaced
// while it waited is locked again.
func (f *FS) LockShared(name string) (vfs.Unlocker, error) { return f.lock(name, true, true) }

// TryLockShared is [FS.LockShared] without waiting (LOCK_NB): an
// exclusive lock held fails with an *fs.PathError wrapping
// [vfs.ErrLocked].
func (f *FS) TryLockShared(name string) (vfs.Unlocker, error) { return f.lock(name, true, false) }

func (f *FS) lock(name string, shared, wait bool) (vfs.Unlocker, error) {
	for {
		fl, err := f.OpenFile(name, os.O_RDONLY|os.O_CREATE, 0o600)
		if errors.Is(err, vfs.ErrIsDir) {
			fl, err = f.OpenFile(name, os.O_RDONLY, 0)
		}
		if err != nil {
			return nil, err
		}
		osf := fl.(*file).f
		if err := flock(osf, shared, wait); err != nil {
			osf.Close()
			return nil, pathErr("flock", name, err)
		}
		held, err := osf.Stat()
		if err != nil {
			osf.Close()
			return nil, pathErr("flock", name, err)
		}
		now, err := f.Stat(name)
		if err == nil && sameFile(held, now) {
			return &lock{f: osf, name: name}, nil
		}
		// The name was removed or replaced while we waited: the lock
		// guards a file nobody will lock again.
		osf.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
}

// lock is a held flock: closing its descriptor releases it.
type lock struct {
	f    *os.File
	name string
}

func (l *lock) Unlock() error {
	if err := l.f.Close(); err != nil {
		if errors.Is(err, os.ErrClosed) {
			return &fs.PathError{Op: "flock", Path: l.name, Err: fs.ErrClosed}
		}
		return pathErr("flock", l.name, err)
	}
	return nil
}
