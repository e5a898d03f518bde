package vfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// TestMemLocksAllocateLittle checks that the locks a run takes on a fresh
// clone cost one allocation together (they are made a few at a time and
// listed in the MemFS itself), and that a released lock still refuses a
// second Unlock.
func TestMemLocksAllocateLittle(t *testing.T) {
	m := vfs.NewMemFS(vfs.MemOptions{})
	names := []string{"/a", "/b", "/c", "/d"}
	for _, n := range names {
		if err := m.WriteFile(n, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(lock bool) {
		c := m.Clone()
		if !lock {
			return
		}
		var held [4]vfs.Unlocker
		for i, n := range names {
			take := c.Lock
			if i%2 == 1 {
				take = c.LockShared
			}
			u, err := take(n)
			if err != nil {
				t.Fatal(err)
			}
			held[i] = u
		}
		for _, u := range held {
			if err := u.Unlock(); err != nil {
				t.Fatal(err)
			}
		}
	}
	base := testing.AllocsPerRun(50, func() { run(false) })
	if got := testing.AllocsPerRun(50, func() { run(true) }) - base; got > 1 {
		t.Errorf("four locks taken and released on a clone: %v allocations, want 1", got)
	}
	u, err := m.Lock("/a")
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := u.Unlock(); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("second Unlock: %v, want fs.ErrClosed", err)
	}
}
