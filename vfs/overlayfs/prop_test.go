//go:build linux

package overlayfs_test

// TestPropOverlayMatchesOS is the kernel differential property of the
// overlay (see vfstest.KernelDifferential): an overlay whose lower layer is
// a real directory holding a random small tree (read through
// osfs.NewRooted and a faultfs that fails the test on any write) against a
// plain real directory holding the same tree. Beyond agreeing with the
// kernel, the overlay's Changes must equal the difference between the
// lower layer's snapshot and its own after every step.
//
// Absolute link targets are stored as "/a" in the lower directory (the
// rooted osfs resolves them inside it) and as "<oracle>/a" in the oracle.
//
// Depth: go test -run PropOverlayMatchesOS ./vfs/overlayfs/ -rapid.checks=2000
// (about 45 s on 2 cores; 100 checks, the default, take about 2 s).

import (
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func TestPropOverlayMatchesOS(t *testing.T) {
	vfstest.KernelDifferential(t, vfstest.DiffConfig{
		Name:  "overlay",
		Lower: func(dir string) vfs.ReadWriteFS { return osfs.NewRooted(dir) },
		New: func(rt *rapid.T, lower vfs.ReadWriteFS, umask fs.FileMode) vfs.ReadWriteFS {
			return overlayfs.New(readOnly(rt, lower), overlayfs.Options{Umask: umask, Clock: vfstest.FixedClock()})
		},
		Check: changesMatchDiff,
	})
}

// changesMatchDiff checks that the overlay's Changes account for every
// difference between the lower layer and the overlay, and for no other.
func changesMatchDiff(t *rapid.T, sut vfs.ReadWriteFS, lower, got vfs.Tree) {
	t.Helper()
	o, ok := sut.(*overlayfs.FS)
	if !ok {
		t.Fatalf("the system under test is %T, want *overlayfs.FS", sut)
	}
	changes, err := o.Changes()
	if err != nil {
		t.Fatalf("Changes: %v", err)
	}
	if d := cmp.Diff(vfs.Diff(lower, got), changes); d != "" {
		t.Fatalf("Changes differ from the snapshots' difference (-diff +changes):\n%s", d)
	}
}
