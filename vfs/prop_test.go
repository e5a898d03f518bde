//go:build linux

package vfs_test

// TestPropMemFSMatchesOS is the kernel differential property of the MemFS
// (see vfstest.KernelDifferential): every case starts from an empty MemFS
// and an empty real directory, and every random operation must give the
// kernel's error class and leave equal trees.
//
// Depth: go test -run PropMemFSMatchesOS ./vfs/ -rapid.checks=10000
// (2,000 checks take about 20 s on 2 cores; 100, the default, about 1 s).
//
// Divergences found: two, both in the error MemFS.Rename picks when several
// apply (a bad new parent must win over a missing old name; a rename onto an
// ancestor is ENOTEMPTY). Both are fixed; their shrunk sequences are the
// regression cases of TestRenameErrorPrecedence.

import (
	"io/fs"
	"testing"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func TestPropMemFSMatchesOS(t *testing.T) {
	vfstest.KernelDifferential(t, vfstest.DiffConfig{
		Name: "MemFS",
		New: func(_ *rapid.T, _ vfs.ReadWriteFS, umask fs.FileMode) vfs.ReadWriteFS {
			return vfs.NewMemFS(vfs.MemOptions{Umask: umask, Clock: vfstest.FixedClock()})
		},
	})
}
