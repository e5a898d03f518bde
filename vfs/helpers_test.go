package vfs_test

import (
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// clockStart is the first reading of the fake clocks of these tests.
var clockStart = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// newMem returns an empty MemFS with a fake clock and no umask.
func newMem(t testing.TB) *vfs.MemFS {
	t.Helper()
	return vfs.NewMemFS(vfs.MemOptions{Clock: vfstest.NewClock(clockStart).Now})
}

// memWith returns a MemFS holding tree below root.
func memWith(t testing.TB, root string, tree vfstest.Tree) *vfs.MemFS {
	t.Helper()
	m := newMem(t)
	vfstest.Build(t, m, root, tree)
	return m
}
