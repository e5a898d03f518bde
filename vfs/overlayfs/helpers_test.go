package overlayfs_test

import (
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

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
