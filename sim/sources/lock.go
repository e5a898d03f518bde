package sources

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/outfitter-go/vfsim/vfs"
)

// lockCache takes the lock of a cache directory (the checkout of a
// profile source, of remote settings or of an extension): [vfs.LockFile]
// of the directory, whose lock file sits beside it, waiting while another
// session syncs it. It returns the release. A file system without locks
// ([vfs.LockFS]) is synced unlocked: the release does nothing.
func lockCache(fsys FS, dir string) (func() error, error) {
	u, err := vfs.LockFile(fsys, dir)
	if errors.Is(err, errors.ErrUnsupported) {
		return func() error { return nil }, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock cache directory %s: %w", dir, err)
	}
	return u.Unlock, nil
}

// WaitForSyncs waits until no session syncs any of the cache directories
// dirs, and reports whether it had to wait: a run that starts while a
// cache it reads is being synced waits for the sync to end (it takes and
// releases the lock of each directory, see [Sync]), and should read the
// cache again when WaitForSyncs waited, since the checkout changed under
// it. A directory whose lock cannot be taken (a file system without locks,
// a read-only cache) is not waited for. A directory without a lock file is
// not being synced (a lock file exists while its lock is held, see
// [vfs.LockFile]), so its lock is only tried when the file is there: the
// usual run creates and removes no lock file.
func WaitForSyncs(fsys vfs.FS, dirs []string) bool {
	waited := false
	for _, dir := range dirs {
		if _, err := vfs.Lprobe(fsys, vfs.LockName(dir)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		u, err := vfs.TryLockFile(fsys, dir)
		if errors.Is(err, vfs.ErrLocked) {
			waited = true
			u, err = vfs.LockFile(fsys, dir)
		}
		if err == nil {
			_ = u.Unlock()
		}
	}
	return waited
}
