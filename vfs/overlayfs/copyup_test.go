package overlayfs_test

import (
	"errors"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"
	"time"

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

// TestCopyUpKeepsTimes: a copy-up shows nothing but the change asked for.
// Chmod of a lower file keeps the file's modification time and its
// directory's, though the upper layer's clock is another.
func TestCopyUpKeepsTimes(t *testing.T) {
	t.Parallel()
	lower := vfstest.MemWith(t, "/", vfstest.Tree{"d/f": vfstest.File("F")})
	fileTime := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	dirTime := time.Date(2002, 3, 4, 5, 6, 7, 0, time.UTC)
	vfstest.Must(t, "Chtimes /d/f", lower.Chtimes("/d/f", fileTime, fileTime))
	vfstest.Must(t, "Chtimes /d", lower.Chtimes("/d", dirTime, dirTime))
	fsys := overlayfs.New(lower, overlayfs.Options{Clock: vfstest.FixedClock()})
	vfstest.Must(t, "Chmod /d/f", fsys.Chmod("/d/f", 0o600))
	for name, want := range map[string]time.Time{"/d/f": fileTime, "/d": dirTime} {
		fi, err := fsys.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(want) {
			t.Errorf("after Chmod(/d/f): Stat(%s).ModTime() = %v, want the lower layer's %v", name, fi.ModTime(), want)
		}
	}
	if fi, err := fsys.Stat("/d/f"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("after Chmod(/d/f, 0600): Stat = %v, %v", fi, err)
	}
}

// TestCreateExclOnLink: O_CREATE|O_EXCL does not follow a final link, as
// in the kernel: on a lower link it fails with fs.ErrExist and leaves what
// the link points at as it was, missing or whole (O_TRUNC included).
func TestCreateExclOnLink(t *testing.T) {
	t.Parallel()
	lower := vfstest.MemWith(t, "/", vfstest.Tree{
		"d/dangling": vfstest.Link("missing"),
		"d/f":        vfstest.File("F"),
		"d/l":        vfstest.Link("f"),
	})
	fsys := overlayfs.New(lower, overlayfs.Options{Clock: vfstest.FixedClock()})
	for _, name := range []string{"/d/dangling", "/d/l"} {
		f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_TRUNC, 0o644)
		if err == nil {
			f.Close()
		}
		if !errors.Is(err, fs.ErrExist) {
			t.Errorf("OpenFile(%s, O_CREATE|O_EXCL|O_TRUNC) = %v, want fs.ErrExist", name, err)
		}
	}
	if _, err := fsys.Lstat("/d/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lstat(/d/missing) = %v, want fs.ErrNotExist: the dangling link was followed", err)
	}
	if data, err := fsys.ReadFile("/d/f"); err != nil || string(data) != "F" {
		t.Errorf("ReadFile(/d/f) = %q, %v; want F: the link was followed and its target truncated", data, err)
	}
}
