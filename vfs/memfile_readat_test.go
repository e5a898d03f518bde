package vfs_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// ReadAt reads at the offset it is given, says io.EOF with a short read and
// refuses a negative offset with EINVAL; Truncate refuses a negative size
// and leaves the file as it was.
func TestMemFileReadAtAndTruncateBounds(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"f": vfstest.File("hello")})
	f := mustOpen(t, m, "/f", os.O_RDWR, 0)
	ra := f.(io.ReaderAt)
	p := make([]byte, 3)
	if n, err := ra.ReadAt(p, 1); n != 3 || err != nil || string(p[:n]) != "ell" {
		t.Errorf("ReadAt(3 bytes, 1) = %d %q, %v; want 3 \"ell\", nil", n, p[:n], err)
	}
	if n, err := ra.ReadAt(p, 3); n != 2 || err != io.EOF || string(p[:n]) != "lo" {
		t.Errorf("ReadAt(3 bytes, 3) = %d %q, %v; want 2 \"lo\", io.EOF", n, p[:n], err)
	}
	wantInval(t, "ReadAt(-1)", "readat", func() error { _, err := ra.ReadAt(p, -1); return err })
	tr := f.(interface{ Truncate(int64) error })
	wantInval(t, "Truncate(-1)", "truncate", func() error { return tr.Truncate(-1) })
	mustRead(t, m, "/f", "hello")
}

// wantInval checks that call fails with a *fs.PathError for op on /f
// wrapping EINVAL.
func wantInval(t *testing.T, what, op string, call func() error) {
	t.Helper()
	err := call()
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != op || pe.Path != "/f" || !errors.Is(err, syscall.EINVAL) {
		t.Errorf("%s = %v (%T); want *fs.PathError %s /f: EINVAL", what, err, err, op)
	}
}
