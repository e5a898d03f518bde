package faultfs_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestConformance runs the suite over a MemFS wrapped without rules: the
// wrapper forwards every operation, and keeps the answers of the
// file system it wraps.
func TestConformance(t *testing.T) {
	t.Parallel()
	vfstest.Run(t, func(t *testing.T) vfs.ReadWriteFS {
		return faultfs.New(vfstest.NewMem(t))
	})
}
