package vfs_test

import (
	"os"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// ReadAt reads at the offset it is given, says io.EOF with a short read and
// refuses a negative offset with EINVAL; Truncate refuses a negative size
// and leaves the file as it was, and empties it at size 0.
func TestMemFileReadAtAndTruncateBounds(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"f": vfstest.File("hello")})
	f := mustOpen(t, m, "/f", os.O_RDWR, 0)
	vfstest.CheckReadAt(t, f, "/f")
	tr := f.(interface{ Truncate(int64) error })
	vfstest.WantPathError(t, "Truncate(-1)", tr.Truncate(-1), "truncate", "/f", syscall.EINVAL)
	mustRead(t, m, "/f", "hello")
	if err := tr.Truncate(0); err != nil {
		t.Errorf("Truncate(0) = %v", err)
	}
	mustRead(t, m, "/f", "")
}
