package overlayfs_test

import (
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// clockStart is the first reading of the fake clocks of these tests.
var clockStart = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// newClock returns a fresh fake clock's reading function.
func newClock() func() time.Time { return vfstest.NewClock(clockStart).Now }

// newMem returns an empty MemFS with a fake clock.
func newMem(t testing.TB) *vfs.MemFS {
	t.Helper()
	return vfs.NewMemFS(vfs.MemOptions{Clock: newClock()})
}

// memWith returns a MemFS holding tree below "/".
func memWith(t testing.TB, tree vfstest.Tree) *vfs.MemFS {
	t.Helper()
	m := newMem(t)
	vfstest.Build(t, m, "/", tree)
	return m
}

// readOnly wraps lower so that any mutating operation fails the test (and
// the operation, with EROFS): the overlay must never write below.
func readOnly(t vfstest.TB, lower vfs.FS) *faultfs.FS {
	t.Helper()
	return faultfs.New(lower, faultfs.When(func(op faultfs.Op) bool {
		if op.Mutates {
			t.Errorf("overlay wrote to the lower layer: %s %s %s", op.Kind, op.Path, op.NewPath)
		}
		return op.Mutates
	}, vfs.ErrReadOnly))
}
