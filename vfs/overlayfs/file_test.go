package overlayfs_test

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// A read handle's ReadAt reads at the offset it is given, says io.EOF with
// a short read and refuses a negative offset with EINVAL; Seek refuses an
// offset before the start with EINVAL and keeps its position.
func TestReadFileReadAtAndSeekBounds(t *testing.T) {
	t.Parallel()
	fsys, _ := overlayOf(t, vfstest.Tree{"f": vfstest.File("hello")})
	f, err := fsys.Open("/f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ra := f.(io.ReaderAt)
	p := make([]byte, 3)
	if n, err := ra.ReadAt(p, 1); n != 3 || err != nil || string(p[:n]) != "ell" {
		t.Errorf("ReadAt(3 bytes, 1) = %d %q, %v; want 3 \"ell\", nil", n, p[:n], err)
	}
	if n, err := ra.ReadAt(p, 3); n != 2 || err != io.EOF || string(p[:n]) != "lo" {
		t.Errorf("ReadAt(3 bytes, 3) = %d %q, %v; want 2 \"lo\", io.EOF", n, p[:n], err)
	}
	wantInval := func(what, op string, err error) {
		t.Helper()
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Op != op || pe.Path != "/f" || !errors.Is(err, syscall.EINVAL) {
			t.Errorf("%s = %v (%T); want *fs.PathError %s /f: EINVAL", what, err, err, op)
		}
	}
	_, err = ra.ReadAt(p, -1)
	wantInval("ReadAt(-1)", "readat", err)
	sk := f.(io.Seeker)
	if _, err := sk.Seek(2, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	_, err = sk.Seek(-3, io.SeekCurrent)
	wantInval("Seek(-3, current) at 2", "seek", err)
	if n, err := f.Read(p); n != 3 || err != nil || string(p[:n]) != "llo" {
		t.Errorf("Read after the refused Seek = %d %q, %v; want 3 \"llo\", nil", n, p[:n], err)
	}
}
