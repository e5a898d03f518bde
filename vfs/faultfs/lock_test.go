package faultfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
)

// TestLock checks that locks pass through to the wrapped file system,
// are logged as KindLock, and that a rule fails them without touching
// the wrapped FS.
func TestLock(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	fsys := faultfs.New(mem, faultfs.OnNthOf(faultfs.KindLock, 2, vfs.ErrIO))
	u, err := fsys.Lock("/l")
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	if _, err := mem.TryLock("/l"); !errors.Is(err, vfs.ErrLocked) {
		t.Errorf("TryLock of the wrapped FS while held: %v, want ErrLocked", err)
	}
	_, err = fsys.TryLock("/m")
	var pe *fs.PathError
	if !errors.Is(err, vfs.ErrIO) || !errors.As(err, &pe) || pe.Op != "flock" || pe.Path != "/m" {
		t.Errorf("second lock: %v, want the rule's flock /m: EIO", err)
	}
	if _, err := mem.Lstat("/m"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("failed lock created its file: %v", err)
	}
	if err := u.Unlock(); err != nil {
		t.Errorf("Unlock: %v", err)
	}
	if got := fsys.Count(faultfs.KindLock); got != 2 {
		t.Errorf("Count(KindLock) = %d, want 2", got)
	}
}

// noSharedLocks is a file system with exclusive locks only.
type noSharedLocks struct{ vfs.LockFS }

// TestLockShared checks that shared locks pass through to the wrapped
// file system as KindLock operations, and that a wrapped FS without
// shared locks gives errors.ErrUnsupported and counts no operation.
func TestLockShared(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	fsys := faultfs.New(mem)
	u, err := fsys.LockShared("/l")
	if err != nil {
		t.Fatalf("LockShared: %v", err)
	}
	v, err := fsys.TryLockShared("/l")
	if err != nil {
		t.Fatalf("TryLockShared beside a shared holder: %v", err)
	}
	if _, err := mem.TryLock("/l"); !errors.Is(err, vfs.ErrLocked) {
		t.Errorf("TryLock of the wrapped FS while shared: %v, want ErrLocked", err)
	}
	if err := errors.Join(u.Unlock(), v.Unlock()); err != nil {
		t.Errorf("Unlock: %v", err)
	}
	if got := fsys.Count(faultfs.KindLock); got != 2 {
		t.Errorf("Count(KindLock) = %d, want 2", got)
	}
	only := faultfs.New(noSharedLocks{mem})
	for name, take := range map[string]func(string) (vfs.Unlocker, error){"LockShared": only.LockShared, "TryLockShared": only.TryLockShared} {
		if _, err := take("/l"); !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s without shared locks below: %v, want errors.ErrUnsupported", name, err)
		}
	}
	if got := only.Count(faultfs.KindLock); got != 0 {
		t.Errorf("Count(KindLock) without shared locks below = %d, want 0", got)
	}
}
