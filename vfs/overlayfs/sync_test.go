package overlayfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestSyncDir: the overlay syncs the upper layer's copy of a directory
// (recorded there), accepts one the lower layer alone shows, and fails
// like the OS for a file or a missing name; ReplaceFile works on it.
func TestSyncDir(t *testing.T) {
	t.Parallel()
	lower := vfstest.MemWith(t, "/", vfstest.Tree{"low/f": vfstest.File("F"), "up": vfstest.Dir()})
	fsys := overlayfs.New(readOnly(t, lower), overlayfs.Options{Clock: vfstest.FixedClock()})
	if err := vfs.ReplaceFile(fsys, "/up/g", []byte("G"), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, dirs := fsys.Upper().Syncs(); files != 1 || dirs != 1 {
		t.Errorf("upper Syncs() = %d, %d after ReplaceFile; want 1, 1", files, dirs)
	}
	if err := fsys.SyncDir("/low"); err != nil {
		t.Errorf("SyncDir of a lower directory = %v", err)
	}
	for _, c := range []struct {
		name string
		want error
	}{{"/low/f", vfs.ErrNotDir}, {"/missing", fs.ErrNotExist}} {
		err := fsys.SyncDir(c.name)
		var pe *fs.PathError
		if !errors.Is(err, c.want) || !errors.As(err, &pe) || pe.Op != "sync" {
			t.Errorf("SyncDir(%s) = %v, want a sync *fs.PathError wrapping %v", c.name, err, c.want)
		}
	}
}
