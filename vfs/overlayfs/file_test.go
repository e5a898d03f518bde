package overlayfs_test

import (
	"io"
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
	vfstest.CheckReadAt(t, f, "/f")
	p := make([]byte, 3)
	sk := f.(io.Seeker)
	if _, err := sk.Seek(2, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	_, err = sk.Seek(-3, io.SeekCurrent)
	vfstest.WantPathError(t, "Seek(-3, current) at 2", err, "seek", "/f", syscall.EINVAL)
	if n, err := f.Read(p); n != 3 || err != nil || string(p[:n]) != "llo" {
		t.Errorf("Read after the refused Seek = %d %q, %v; want 3 \"llo\", nil", n, p[:n], err)
	}
}
