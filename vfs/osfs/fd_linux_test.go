//go:build linux

package osfs_test

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// openDescriptors returns how many descriptors the process holds.
func openDescriptors(t *testing.T) int {
	t.Helper()
	list, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// TestRootedClosesDescriptors runs every call of a rooted FS on names that
// succeed and on names that fail at each step (root, parent, last
// component, length), and checks that none leaves a descriptor open. It
// is not parallel, so that no other test opens files meanwhile.
func TestRootedClosesDescriptors(t *testing.T) {
	fsys := rooted(t)
	long := vfstest.PadName("/d", "/x", vfs.PathMax)
	names := []string{"/d/target.txt", "/d/rel", "/d/sub", "/d/sub/", "/d/dangling", "/d/loop1", "/nope/x", "/d/target.txt/x", "/d/new", "/", "/d/..", long}
	run := func() {
		for _, n := range names {
			_, _ = fsys.Stat(n)
			_, _ = fsys.Lstat(n)
			_, _ = fsys.ReadFile(n)
			_, _ = fsys.ReadDir(n)
			_, _ = fsys.ReadLink(n)
			if f, err := fsys.OpenFile(n, os.O_RDWR|os.O_CREATE, 0o644); err == nil {
				_ = f.Close()
			}
			_ = fsys.Chmod(n, 0o755)
			_ = fsys.Chtimes(n, time.Time{}, time.Time{})
			_ = fsys.Mkdir(n, 0o755)
			_ = fsys.MkdirAll(n+"/m", 0o755)
			_ = fsys.Symlink("t", n)
			_ = fsys.Rename(n, "/e/moved")
			_ = fsys.Rename("/e/moved", n)
			_ = fsys.Remove(n)
			_ = fsys.RemoveAll(n)
			_ = fsys.WriteFile(n, []byte("w"), 0o644)
		}
	}
	run() // warm up: the runtime opens its own descriptors once
	before := openDescriptors(t)
	// Start again from the whole tree, which the first run changed.
	if err := fsys.RemoveAll("/"); !errors.Is(err, syscall.EBUSY) {
		t.Fatalf("RemoveAll(/) = %v, want EBUSY once the root is empty", err)
	}
	build(t, fsys, baseTree)
	run()
	if after := openDescriptors(t); after != before {
		t.Errorf("%d descriptors open after the calls, %d before", after, before)
	}
}
