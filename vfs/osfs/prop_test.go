package osfs_test

import (
	"io/fs"
	"testing"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestPropRootedMatchesOS checks the rooted backend's own resolution
// (links read and followed below the root) against the kernel's on a
// plain directory: the system under test is the rooted FS that built the
// case's initial tree.
func TestPropRootedMatchesOS(t *testing.T) {
	vfstest.KernelDifferential(t, vfstest.DiffConfig{
		Name:  "rooted osfs",
		Lower: func(dir string) vfs.ReadWriteFS { return osfs.NewRooted(dir) },
		New: func(_ *rapid.T, lower vfs.ReadWriteFS, _ fs.FileMode) vfs.ReadWriteFS {
			return lower
		},
	})
}
