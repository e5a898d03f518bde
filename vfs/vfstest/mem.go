package vfstest

import "github.com/outfitter-go/vfsim/vfs"

// NewMem returns an empty MemFS with a [FixedClock] and no umask: the
// memory file system of tests.
func NewMem(tb TB) *vfs.MemFS {
	tb.Helper()
	return vfs.NewMemFS(vfs.MemOptions{Clock: FixedClock()})
}

// MemWith returns a MemFS made by [NewMem] holding tree, built below root
// with [Build].
func MemWith(tb TB, root string, tree Tree) *vfs.MemFS {
	tb.Helper()
	m := NewMem(tb)
	Build(tb, m, root, tree)
	return m
}
