package overlayfs_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// The suite needs a file system that is empty apart from "/": an overlay
// of an empty lower layer, of a lower layer whose only entries the suite
// never names, and of an empty real directory.

func TestConformanceEmptyLower(t *testing.T) {
	t.Parallel()
	vfstest.Run(t, func(t *testing.T) vfs.ReadWriteFS {
		return overlayfs.New(readOnly(t, vfstest.NewMem(t)), overlayfs.Options{Clock: vfstest.FixedClock()})
	})
}

func TestConformanceOSLower(t *testing.T) {
	t.Parallel()
	vfstest.Run(t, func(t *testing.T) vfs.ReadWriteFS {
		return overlayfs.New(readOnly(t, osfs.NewRooted(t.TempDir())), overlayfs.Options{Clock: vfstest.FixedClock()})
	})
}

// TestConformanceRemovedLower runs the suite over a lower layer full of the
// names the suite uses, all removed first: every directory the suite makes
// is then made over a whiteout, and must be opaque.
func TestConformanceRemovedLower(t *testing.T) {
	t.Parallel()
	lowerTree := vfstest.Tree{
		"d/target.txt":    vfstest.File("old T"),
		"d/sub/inner.txt": vfstest.File("old I"),
		"d/sub/extra":     vfstest.Link("../target.txt"),
		"e/stale":         vfstest.File("S"),
		"a/x":             vfstest.File("old X"),
		"f":               vfstest.Dir(),
		"t/a.txt":         vfstest.File("old A"),
		"c/r0/b":          vfstest.File("stale b"),
		"w/zz":            vfstest.File(""),
		"l":               vfstest.Link("d"),
	}
	vfstest.Run(t, func(t *testing.T) vfs.ReadWriteFS {
		lower := readOnly(t, vfstest.MemWith(t, "/", lowerTree))
		fsys := overlayfs.New(lower, overlayfs.Options{Clock: vfstest.FixedClock()})
		for _, name := range []string{"/d", "/e", "/a", "/f", "/t", "/c", "/w", "/l"} {
			if err := fsys.RemoveAll(name); err != nil {
				t.Fatalf("RemoveAll(%s): %v", name, err)
			}
		}
		if list, err := fsys.ReadDir("/"); err != nil || len(list) != 0 {
			t.Fatalf("ReadDir(/) after removing the lower tree = %v, %v; want empty", list, err)
		}
		return fsys
	})
}
