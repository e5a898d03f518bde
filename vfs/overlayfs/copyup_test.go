package overlayfs_test

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// pipeLower is a MemFS in which /d/p is a named pipe.
type pipeLower struct{ *vfs.MemFS }

func (p pipeLower) Lstat(name string) (fs.FileInfo, error) {
	if name == "/d/p" {
		return fstest.MapFS{"p": {Mode: fs.ModeNamedPipe | 0o644}}.Stat("p")
	}
	return p.MemFS.Lstat(name)
}

func (p pipeLower) Stat(name string) (fs.FileInfo, error) {
	if name == "/d/p" {
		return p.Lstat(name)
	}
	return p.MemFS.Stat(name)
}

// TestCopyUpUnsupportedType: changing a lower entry the upper layer cannot
// hold (a named pipe) fails with an error naming it and its type, which is
// errors.ErrUnsupported, and changes nothing.
func TestCopyUpUnsupportedType(t *testing.T) {
	t.Parallel()
	lower := pipeLower{vfstest.MemWith(t, "/", vfstest.Tree{"d/p": vfstest.File("")})}
	fsys := overlayfs.New(lower, overlayfs.Options{Clock: vfstest.FixedClock()})
	err := fsys.Chmod("/d/p", 0o600)
	const want = "chmod /d/p: cannot copy up /d/p: unsupported file type p---------"
	if err == nil || err.Error() != want || !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Chmod of a lower named pipe = %v; want %q, errors.ErrUnsupported", err, want)
	}
	d, err := fsys.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if !d.Empty() {
		t.Errorf("Changes() = %+v after a failed copy-up; want none", d)
	}
}
