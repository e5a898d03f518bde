package vfs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestMemBigDirectories checks directories large enough for the MemFS to
// keep their entries in a map rather than a sorted slice (a few hundred),
// filled in random order: listings stay sorted and complete, the snapshot
// shortcut matches the generic walk, and DiffFS between clones matches
// Diff of snapshots when one side is large and the other small, or both
// large.
func TestMemBigDirectories(t *testing.T) {
	t.Parallel()
	const n = 700
	r := rand.New(rand.NewPCG(7, 11))
	m := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t, m.MkdirAll("/r/big", 0o755), m.MkdirAll("/r/grow", 0o755))
	var want []string
	for _, i := range r.Perm(n) {
		name := fmt.Sprintf("e%04d", i)
		want = append(want, name)
		var err error
		switch i % 4 {
		case 0:
			err = m.Mkdir("/r/big/"+name, 0o700)
		case 1:
			err = m.Symlink(fmt.Sprintf("e%04d", (i+3)%n), "/r/big/"+name)
		default:
			err = m.WriteFile("/r/big/"+name, []byte(name), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(want)
	if err := m.WriteFile("/r/big/e0000/inner", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}

	list, err := m.ReadDir("/r/big")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, vfstest.EntryNames(list)); diff != "" {
		t.Fatalf("ReadDir of a big directory (-want +got):\n%s", diff)
	}

	snapshotsAgree := func(t *testing.T, fsys *vfs.MemFS) vfs.Tree {
		t.Helper()
		fast := vfstest.Snapshot(t, fsys, "/r")
		if diff := cmp.Diff(vfstest.Snapshot(t, hidden{fsys}, "/r"), fast); diff != "" {
			t.Fatalf("MemFS snapshot differs from the generic walk (-generic +memfs):\n%s", diff)
		}
		return fast
	}
	before := snapshotsAgree(t, m)
	if len(before) < n+2 {
		t.Fatalf("snapshot has %d entries, want at least %d", len(before), n+2)
	}

	after := m.Clone()
	for i := 1; i < n; i += 2 { // links and files
		if err := after.Remove(fmt.Sprintf("/r/big/e%04d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 400 {
		if err := after.WriteFile(fmt.Sprintf("/r/grow/g%03d", r.IntN(1000)), []byte("g"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := after.WriteFile(fmt.Sprintf("/r/big/n%03d", i), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := after.Rename("/r/big/e0004", "/r/grow/moved"); err != nil {
		t.Fatal(err)
	}
	if err := after.WriteFile("/r/big/e0000/inner", []byte("y"), 0o600); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, snapshotsAgree(t, m)); diff != "" {
		t.Fatalf("changes to a clone reached the original (-before +after):\n%s", diff)
	}
	wantDelta := vfs.Diff(before, snapshotsAgree(t, after))
	gotDelta, err := vfs.DiffFS(m, after, "/r", vfs.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantDelta, gotDelta); diff != "" {
		t.Fatalf("DiffFS differs from Diff of snapshots (-snapshots +DiffFS):\n%s", diff)
	}
	if len(gotDelta.Added) < 400 || len(gotDelta.Removed) < 100 || len(gotDelta.Changed) == 0 {
		t.Fatalf("delta has %d added, %d removed, %d changed: the changes were not made as intended",
			len(gotDelta.Added), len(gotDelta.Removed), len(gotDelta.Changed))
	}
	// A big directory is not empty: it cannot be removed, nor replaced by
	// a rename of another directory.
	if err := after.Remove("/r/big"); !errors.Is(err, vfs.ErrNotEmpty) {
		t.Errorf("Remove of a big directory = %v, want ENOTEMPTY", err)
	}
	if err := after.Rename("/r/grow", "/r/big"); !errors.Is(err, vfs.ErrNotEmpty) {
		t.Errorf("Rename onto a big directory = %v, want ENOTEMPTY", err)
	}
}
