//go:build linux

package vfs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestPropExFATDifferential checks MemFS's macOS personality against a
// real case-insensitive file system: random operations on names that
// differ in case, run on a MemFS with PlatformDarwin and, through the
// rooted OS backend unchanged, on an exFAT volume mounted with exfat-fuse.
// Both must give the same error classes and the same trees, stored
// spellings included, after every operation (file contents after every
// fourth). It skips, saying why, where
// the mount cannot be made (see vfstest.MountExFAT).
func TestPropExFATDifferential(t *testing.T) {
	mnt := vfstest.MountExFAT(t)
	n := 0
	cases, ops := vfstest.CaseDifferential(t, vfstest.CaseConfig{
		Name: "MemFS darwin",
		New: func(*rapid.T) vfs.ReadWriteFS {
			return vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
		},
		Oracle: func(rt *rapid.T) vfs.ReadWriteFS {
			n++
			dir := filepath.Join(mnt, fmt.Sprintf("case%d", n))
			if err := os.Mkdir(dir, 0o755); err != nil {
				rt.Fatal(err)
			}
			rt.Cleanup(func() { os.RemoveAll(dir) })
			return osfs.NewRooted(dir)
		},
	})
	t.Logf("%d cases, %d operations on names differing in case, 0 divergences", cases, ops)
	if checks := vfstest.RapidChecks(); checks >= 100 && ops < 10000 {
		t.Errorf("%d operations ran, want at least 10000 with -rapid.checks=%d", ops, checks)
	}
}
