package overlayfs_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestLockOfRemovedLowerFile checks that a lock taken on a lower file,
// which the lock does not copy up, stays its holder's when the file is
// removed (hidden by a whiteout), reached through a link or below a
// removed directory: a file made at the name then is free.
func TestLockOfRemovedLowerFile(t *testing.T) {
	t.Parallel()
	fsys, lower := overlayOf(t, lowerBase())
	target, err := fsys.Lock("/d/target.txt")
	vfstest.Must(t, "Lock of a lower file", err)
	inner, err := fsys.Lock("/ldir/sub/inner.txt")
	vfstest.Must(t, "Lock of a lower file through a link", err)
	vfstest.Must(t, "Remove of the locked lower file", fsys.Remove("/d/target.txt"))
	vfstest.Must(t, "RemoveAll of the locked file's lower directory", fsys.RemoveAll("/d/sub"))
	vfstest.Must(t, "WriteFile at the removed name", fsys.WriteFile("/d/target.txt", []byte("N"), 0o644))
	vfstest.Must(t, "Mkdir of the removed directory", fsys.Mkdir("/d/sub", 0o755))
	for _, name := range []string{"/d/target.txt", "/d/sub/inner.txt"} {
		u, err := fsys.TryLock(name)
		vfstest.Must(t, "TryLock of the new file "+name, err)
		vfstest.Must(t, "Unlock", u.Unlock())
	}
	vfstest.Must(t, "Unlock of the removed file's lock", target.Unlock())
	vfstest.Must(t, "Unlock of the lock below the removed directory", inner.Unlock())
	wantLowerUnchanged(t, lower, lowerBase())
}

// TestLockFileUnderRemovesAndRenames runs holders of vfs.LockFile, which
// remove their lock file before they unlock, beside renames and removals
// of other locked files: no two holders are ever inside at once, and no
// lock waits forever (the lock table's mutex is always taken before the
// overlay's).
func TestLockFileUnderRemovesAndRenames(t *testing.T) {
	t.Parallel()
	fsys, _ := overlayOf(t, lowerBase())
	const holders, rounds = 4, 50
	var inside atomic.Int32
	var wg sync.WaitGroup
	for range holders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				u, err := vfs.LockFile(fsys, "/d/target.txt")
				if err != nil {
					t.Errorf("LockFile: %v", err)
					return
				}
				if n := inside.Add(1); n != 1 {
					t.Errorf("%d holders of the lock at once", n)
				}
				inside.Add(-1)
				if err := u.Unlock(); err != nil {
					t.Errorf("Unlock: %v", err)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range rounds {
			u, err := fsys.Lock("/e/f")
			if err == nil {
				err = fsys.Rename("/e/f", "/e/g")
			}
			if err == nil {
				err = fsys.RemoveAll("/e/g")
			}
			if err == nil {
				err = u.Unlock()
			}
			if err != nil {
				t.Errorf("lock, rename and removal of /e/f: %v", err)
				return
			}
		}
	}()
	wg.Wait()
}
