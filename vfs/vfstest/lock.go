package vfstest

import (
	"errors"
	"io/fs"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// lockFS returns fsys as a vfs.LockFS, or skips the check saying why.
func lockFS(t *testing.T, fsys vfs.ReadWriteFS) vfs.LockFS {
	t.Helper()
	l, ok := fsys.(vfs.LockFS)
	if !ok {
		t.Skipf("%T has no vfs.LockFS: the lock checks do not apply", fsys)
	}
	return l
}

// sharedLockFS returns fsys as a vfs.SharedLockFS, or skips the check
// saying why.
func sharedLockFS(t *testing.T, fsys vfs.ReadWriteFS) vfs.SharedLockFS {
	t.Helper()
	l, ok := fsys.(vfs.SharedLockFS)
	if !ok {
		t.Skipf("%T has no vfs.SharedLockFS: the shared lock checks do not apply", fsys)
	}
	return l
}

// wantFree checks that each name's lock is free: TryLock takes it, and it
// is released again.
func wantFree(t *testing.T, l vfs.LockFS, what string, names ...string) {
	t.Helper()
	for _, name := range names {
		u, err := l.TryLock(name)
		Must(t, what+" "+name, err)
		Must(t, "Unlock of "+name, u.Unlock())
	}
}

// lockChecks are the checks of advisory locks (vfs.LockFS), with flock's
// semantics; a file system without the capability skips them.
func lockChecks() []check {
	return []check{
		{name: "lock.exclusive", why: "a lock excludes every other lock of the file, through any link, until it is released", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := lockFS(t, fsys)
			build(t, fsys, Tree{"d/f": File("F"), "d/lf": Link("f")})
			u, err := l.Lock("/d/f")
			Must(t, "Lock", err)
			for _, name := range []string{"/d/f", "/d/lf"} {
				_, err := l.TryLock(name)
				wantPathErr(t, "TryLock of the held lock by "+name, err, vfs.ErrLocked, name)
			}
			WantText(t, fsys, "/d/f", "F")
			Must(t, "Unlock", u.Unlock())
			if err := u.Unlock(); err == nil || !errors.Is(err, fs.ErrClosed) {
				t.Errorf("second Unlock: %v, want an error wrapping fs.ErrClosed", err)
			}
			wantFree(t, l, "TryLock after Unlock", "/d/lf")
		}},
		{name: "lock.follows_rename", why: "a lock belongs to the file, as flock's to the inode: it follows the file through a rename of it or of a directory above it, and a file renamed over a locked one is free", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := lockFS(t, fsys)
			build(t, fsys, Tree{"d/f": File("F"), "d/sub/g": File("G"), "d/t": File("T"), "d/x": File("X")})
			f, err := l.Lock("/d/f")
			Must(t, "Lock of /d/f", err)
			g, err := l.Lock("/d/sub/g")
			Must(t, "Lock of /d/sub/g", err)
			Must(t, "Rename of the locked file", fsys.Rename("/d/f", "/d/h"))
			Must(t, "Rename of the locked file's directory", fsys.Rename("/d/sub", "/d/sub2"))
			for _, name := range []string{"/d/h", "/d/sub2/g"} {
				_, err := l.TryLock(name)
				wantPathErr(t, "TryLock of the renamed locked file "+name, err, vfs.ErrLocked, name)
			}
			Must(t, "Mkdir of the old directory", fsys.Mkdir("/d/sub", 0o755))
			wantFree(t, l, "TryLock of the old name", "/d/f", "/d/sub/g")
			tl, err := l.Lock("/d/t")
			Must(t, "Lock of /d/t", err)
			Must(t, "Rename over the locked file", fsys.Rename("/d/x", "/d/t"))
			wantFree(t, l, "TryLock of the file renamed over a locked one", "/d/t")
			Must(t, "Unlock of the replaced file's lock", tl.Unlock())
			Must(t, "Unlock of the renamed file's lock", f.Unlock())
			Must(t, "Unlock of the lock in the renamed directory", g.Unlock())
			wantFree(t, l, "TryLock after Unlock of", "/d/h", "/d/sub2/g", "/d/t")
			WantText(t, fsys, "/d/h", "F")
			WantText(t, fsys, "/d/t", "X")
		}},
		{name: "lock.new_file_after_remove", why: "a lock belongs to the file, as flock's to the inode: a file created at the name of a removed locked file, or below a removed locked tree, is another file with a lock of its own, and the removed file's holder still unlocks", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := lockFS(t, fsys)
			build(t, fsys, Tree{"d/f": File("F"), "d/sub/g": File("G")})
			f, err := l.Lock("/d/f")
			Must(t, "Lock of /d/f", err)
			g, err := l.Lock("/d/sub/g")
			Must(t, "Lock of /d/sub/g", err)
			Must(t, "Remove of the locked file", fsys.Remove("/d/f"))
			Must(t, "RemoveAll of the locked file's directory", fsys.RemoveAll("/d/sub"))
			Must(t, "WriteFile of a new file at the removed name", fsys.WriteFile("/d/f", []byte("N"), 0o644))
			Must(t, "Mkdir of the removed directory", fsys.Mkdir("/d/sub", 0o755))
			// The new /d/f is written first; the new /d/sub/g is made by
			// the Lock itself.
			nf, err := l.TryLock("/d/f")
			Must(t, "TryLock of the file created at the removed name", err)
			ng, err := l.TryLock("/d/sub/g")
			Must(t, "TryLock of the file created below the removed directory", err)
			for _, name := range []string{"/d/f", "/d/sub/g"} {
				_, err := l.TryLock(name)
				wantPathErr(t, "TryLock of the new file's held lock "+name, err, vfs.ErrLocked, name)
			}
			Must(t, "Unlock of the removed file's lock", f.Unlock())
			Must(t, "Unlock of the lock in the removed directory", g.Unlock())
			for _, name := range []string{"/d/f", "/d/sub/g"} {
				_, err := l.TryLock(name)
				wantPathErr(t, "TryLock of the new file's lock after the old holder's Unlock "+name, err, vfs.ErrLocked, name)
			}
			Must(t, "Unlock of the new file's lock", nf.Unlock())
			Must(t, "Unlock of the new file's lock below the directory", ng.Unlock())
			wantFree(t, l, "TryLock after Unlock of", "/d/f", "/d/sub/g")
			WantText(t, fsys, "/d/f", "N")
			WantText(t, fsys, "/d/sub/g", "")
		}},
		{name: "lock.creates", why: "a missing name is created as an empty 0600 file; a directory is locked as it is", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := lockFS(t, fsys)
			build(t, fsys, Tree{"d/sub": Dir()})
			u, err := l.Lock("/d/l")
			Must(t, "Lock of a missing name", err)
			WantText(t, fsys, "/d/l", "")
			if fi, err := fsys.Lstat("/d/l"); err != nil || fi.Mode() != 0o600 {
				t.Errorf("lock file: %v, %v; want a -rw------- file", fi, err)
			}
			Must(t, "Unlock", u.Unlock())
			d, err := l.Lock("/d/sub")
			Must(t, "Lock of a directory", err)
			_, err = l.TryLock("/d/sub")
			wantPathErr(t, "TryLock of a held directory", err, vfs.ErrLocked, "/d/sub")
			wantEntries(t, fsys, "/d/sub", "")
			Must(t, "Unlock", d.Unlock())
			_, err = l.Lock("/none/l")
			wantPathErr(t, "Lock in a missing directory", err, fs.ErrNotExist, "/none/l")
		}},
		{name: "lock.waits", why: "Lock waits until the holder releases the lock", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := lockFS(t, fsys)
			build(t, fsys, Tree{"d/f": File("F")})
			u, err := l.Lock("/d/f")
			Must(t, "Lock", err)
			var released atomic.Bool
			got := make(chan error)
			go func() {
				w, err := l.Lock("/d/f")
				if err == nil {
					if !released.Load() {
						err = errors.New("the second Lock returned while the first held the lock")
					}
					err = errors.Join(err, w.Unlock())
				}
				got <- err
			}()
			released.Store(true)
			Must(t, "Unlock", u.Unlock())
			Must(t, "waiting Lock", <-got)
		}},
		{name: "lock.removed_name", why: "a waiter whose lock file was removed while it waited locks the file at the name now, so removing the lock file before releasing it never lets two holders in", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := lockFS(t, fsys)
			build(t, fsys, Tree{"d": Dir()})
			u, err := l.Lock("/d/l")
			Must(t, "Lock", err)
			got := make(chan vfs.Unlocker)
			go func() {
				w, err := l.Lock("/d/l")
				if err != nil {
					t.Errorf("waiting Lock: %v", err)
				}
				got <- w
			}()
			Must(t, "Remove of the held lock file", fsys.Remove("/d/l"))
			Must(t, "Unlock", u.Unlock())
			w := <-got
			if w == nil {
				return
			}
			_, err = l.TryLock("/d/l")
			wantPathErr(t, "TryLock of the file the waiter locked", err, vfs.ErrLocked, "/d/l")
			Must(t, "Unlock", w.Unlock())
		}},
		{name: "lock.lock_file", why: "vfs.LockFile guards a file with .<base>.lock beside it, which exists only while held", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			lockFS(t, fsys)
			build(t, fsys, Tree{"d/f": File("F")})
			u, err := vfs.LockFile(fsys, "/d/f")
			Must(t, "LockFile", err)
			wantEntries(t, fsys, "/d", ".f.lock f")
			_, err = vfs.TryLock(fsys, "/d/.f.lock")
			wantPathErr(t, "TryLock of a held lock file", err, vfs.ErrLocked, "/d/.f.lock")
			_, err = vfs.TryLockFile(fsys, "/d/f")
			wantPathErr(t, "TryLockFile of a held lock", err, vfs.ErrLocked, "/d/.f.lock")
			Must(t, "Unlock", u.Unlock())
			wantEntries(t, fsys, "/d", "f")
			u, err = vfs.TryLockFile(fsys, "/d/f")
			Must(t, "TryLockFile of a free lock", err)
			wantEntries(t, fsys, "/d", ".f.lock f")
			Must(t, "Unlock", u.Unlock())
			wantEntries(t, fsys, "/d", "f")
			WantText(t, fsys, "/d/f", "F")
		}},
		{name: "lock.shared", why: "shared locks of a file admit each other and exclude the exclusive lock, through any link, until the last is released", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := sharedLockFS(t, fsys)
			build(t, fsys, Tree{"d/f": File("F"), "d/lf": Link("f")})
			a, err := l.LockShared("/d/f")
			Must(t, "LockShared", err)
			b, err := l.TryLockShared("/d/lf")
			Must(t, "TryLockShared beside a shared holder", err)
			for _, name := range []string{"/d/f", "/d/lf"} {
				_, err := l.TryLock(name)
				wantPathErr(t, "TryLock of a shared lock by "+name, err, vfs.ErrLocked, name)
			}
			Must(t, "Unlock of the first shared holder", a.Unlock())
			_, err = l.TryLock("/d/f")
			wantPathErr(t, "TryLock while one shared holder is left", err, vfs.ErrLocked, "/d/f")
			Must(t, "Unlock of the last shared holder", b.Unlock())
			if err := b.Unlock(); err == nil || !errors.Is(err, fs.ErrClosed) {
				t.Errorf("second Unlock: %v, want an error wrapping fs.ErrClosed", err)
			}
			x, err := l.TryLock("/d/lf")
			Must(t, "TryLock after the shared holders left", err)
			_, err = l.TryLockShared("/d/f")
			wantPathErr(t, "TryLockShared of an exclusive lock", err, vfs.ErrLocked, "/d/f")
			Must(t, "Unlock", x.Unlock())
			WantText(t, fsys, "/d/f", "F")
			c, err := l.LockShared("/d/l")
			Must(t, "LockShared of a missing name", err)
			WantText(t, fsys, "/d/l", "")
			Must(t, "Unlock", c.Unlock())
		}},
		{name: "lock.shared_waits", why: "LockShared waits for the exclusive holder, and Lock for the shared ones", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			l := sharedLockFS(t, fsys)
			build(t, fsys, Tree{"d/f": File("F")})
			wait := func(take func(string) (vfs.Unlocker, error), released *atomic.Bool, got chan<- error) {
				w, err := take("/d/f")
				if err == nil {
					if !released.Load() {
						err = errors.New("the waiting lock returned while the holder held its lock")
					}
					err = errors.Join(err, w.Unlock())
				}
				got <- err
			}
			x, err := l.Lock("/d/f")
			Must(t, "Lock", err)
			var released atomic.Bool
			got := make(chan error)
			go wait(l.LockShared, &released, got)
			released.Store(true)
			Must(t, "Unlock", x.Unlock())
			Must(t, "waiting LockShared", <-got)

			s, err := l.LockShared("/d/f")
			Must(t, "LockShared", err)
			released.Store(false)
			go wait(l.Lock, &released, got)
			released.Store(true)
			Must(t, "Unlock", s.Unlock())
			Must(t, "waiting Lock", <-got)
		}},
	}
}

// LockWaits is a MemFS whose Lock, the first time it finds the lock held
// and has to wait, closes the channel Waiting returns before it waits: a
// test that starts a second session at a chosen moment tells one that
// waits for the lock from one that finished. Embed it in a test's own
// file system to add the hook that starts the second session.
type LockWaits struct {
	*vfs.MemFS
	waiting chan struct{}
	waited  atomic.Bool
}

// NewLockWaits returns fsys with Lock's first wait signalled.
func NewLockWaits(fsys *vfs.MemFS) *LockWaits {
	return &LockWaits{MemFS: fsys, waiting: make(chan struct{})}
}

// Waiting is closed once a Lock has found its lock held.
func (f *LockWaits) Waiting() <-chan struct{} { return f.waiting }

// Lock is the MemFS's Lock, which closes Waiting first when it has to
// wait.
func (f *LockWaits) Lock(name string) (vfs.Unlocker, error) {
	u, err := f.MemFS.TryLock(name)
	if errors.Is(err, vfs.ErrLocked) {
		if f.waited.CompareAndSwap(false, true) {
			close(f.waiting)
		}
		return f.MemFS.Lock(name)
	}
	return u, err
}
