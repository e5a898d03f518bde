package vfs_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func TestMemFSConformance(t *testing.T) {
	t.Parallel()
	vfstest.Run(t, func(t *testing.T) vfs.ReadWriteFS {
		return vfstest.NewMem(t)
	})
}

func TestRootedOSFSConformance(t *testing.T) {
	t.Parallel()
	vfstest.Run(t, func(t *testing.T) vfs.ReadWriteFS {
		return osfs.NewRooted(t.TempDir())
	})
}
