package aferofs_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/aferofs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestConformanceRoundTrip runs the vfs conformance suite through both
// adapters: a MemFS seen as an afero.Fs, seen again as a vfs FS. Neither
// direction may lose a semantic of the wrapped file system.
func TestConformanceRoundTrip(t *testing.T) {
	t.Parallel()
	vfstest.Run(t, func(t *testing.T) vfs.ReadWriteFS {
		fsys, ok := aferofs.ToVFS(aferofs.FromVFS(vfs.NewMemFS(vfs.MemOptions{}))).(vfs.ReadWriteFS)
		if !ok {
			t.Fatal("ToVFS does not give a vfs.ReadWriteFS")
		}
		return fsys
	})
}
