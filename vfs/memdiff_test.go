package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"pgregory.net/rapid"
)

// TestPropDiffFSMatchesSnapshots checks the copy-on-write shortcut of
// DiffFS against Diff of two snapshots, on a random tree and random
// changes made to a clone of it (and maybe to the original after that),
// below the tree's directory or the root; neither side's changes may
// reach the other.
func TestPropDiffFSMatchesSnapshots(t *testing.T) {
	t.Parallel()
	names := []string{"a", "b", "c", "skip"}
	nonEmpty := 0
	rapid.Check(t, func(t *rapid.T) {
		base := vfs.NewMemFS(vfs.MemOptions{})
		if err := base.MkdirAll("/r", 0o755); err != nil {
			t.Fatal(err)
		}
		dirs := []string{"/r"}
		pick := func(label string) string {
			return rapid.SampledFrom(dirs).Draw(t, label+"-dir") + "/" + rapid.SampledFrom(names).Draw(t, label+"-name")
		}
		mutate := func(m *vfs.MemFS, label string, n int) {
			for i := range n {
				p := pick(fmt.Sprintf("%s%d", label, i))
				var err error
				switch rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("%s%d-op", label, i)) {
				case 0:
					err = m.WriteFile(p, []byte(rapid.SampledFrom([]string{"x", "y"}).Draw(t, "data")), 0o644)
				case 1:
					if err = m.Mkdir(p, 0o755); err == nil {
						dirs = append(dirs, p)
					}
				case 2:
					err = m.Symlink(rapid.SampledFrom([]string{"a", "../b", "/r/c", "nowhere"}).Draw(t, "target"), p)
				case 3:
					err = m.RemoveAll(p)
				case 4:
					err = m.Rename(p, pick(fmt.Sprintf("%s%d-to", label, i)))
				case 5:
					err = m.Chmod(p, 0o600)
				}
				_ = err // failures are part of the game: both sides see the same tree
			}
		}
		mutate(base, "base", rapid.IntRange(0, 12).Draw(t, "base-ops"))
		snap := func(m *vfs.MemFS) vfs.Tree {
			tree := vfstest.Snapshot(t, m, "/")
			return tree
		}
		before := snap(base)
		after := base.Clone()
		mutate(after, "change", rapid.IntRange(0, 8).Draw(t, "change-ops"))
		// Copy-on-write: changes to one side never reach the other.
		if d := cmp.Diff(before, snap(base)); d != "" {
			t.Fatalf("changes to the clone reached the original (-before +after):\n%s", d)
		}
		if rapid.Bool().Draw(t, "change-original") {
			changed := snap(after)
			mutate(base, "late", rapid.IntRange(1, 6).Draw(t, "late-ops"))
			if d := cmp.Diff(changed, snap(after)); d != "" {
				t.Fatalf("changes to the original reached the clone (-before +after):\n%s", d)
			}
		}
		var opts vfs.SnapshotOptions
		if rapid.Bool().Draw(t, "with-skip") {
			opts.Skip = func(rel string, _ fs.FileInfo) bool { return strings.HasSuffix(rel, "skip") }
		}
		root := rapid.SampledFrom([]string{"/r", "/"}).Draw(t, "root")
		b, err := vfs.SnapshotWith(base, root, opts)
		if err != nil {
			t.Fatal(err)
		}
		a, err := vfs.SnapshotWith(after, root, opts)
		if err != nil {
			t.Fatal(err)
		}
		want := vfs.Diff(b, a)
		got, err := vfs.DiffFS(base, after, root, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("DiffFS differs from Diff of snapshots (-snapshots +DiffFS):\n%s", d)
		}
		if !want.Empty() {
			nonEmpty++
		}
	})
	if nonEmpty == 0 {
		t.Fatal("no generated case changed the tree: the property compared nothing")
	}
}

// TestMemCloneWhileRead clones a file system from another goroutine while
// a read of it is under way (a DiffFS whose Skip waits for the clone):
// Clone only reads, so it does not wait for the read to end, and the clone
// and the original stay independent afterwards. Before Clone held the lock
// shared, this test hung.
func TestMemCloneWhileRead(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	if err := m.MkdirAll("/r/d", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteFile("/r/d/f", []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := m.Clone()
	if err := m.WriteFile("/r/d/g", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	var clone *vfs.MemFS
	_, err := vfs.DiffFS(before, m, "/r", vfs.SnapshotOptions{Skip: func(string, fs.FileInfo) bool {
		if clone == nil {
			done := make(chan *vfs.MemFS)
			go func() { done <- m.Clone() }()
			clone = <-done
		}
		return false
	}})
	if err != nil {
		t.Fatal(err)
	}
	if clone == nil {
		t.Fatal("precondition: Skip was never called")
	}
	if err := clone.WriteFile("/r/d/f", []byte("clone"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteFile("/r/d/g", []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fsys       *vfs.MemFS
		name, want string
	}{
		{m, "/r/d/f", "one"}, {m, "/r/d/g", "original"},
		{clone, "/r/d/f", "clone"}, {clone, "/r/d/g", "new"},
		{before, "/r/d/f", "one"},
	} {
		got, err := c.fsys.ReadFile(c.name)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// On file systems that are not MemFS (here MemFS seen through Open and
// Lstat only), DiffFS is Diff of the two snapshots, and a root missing on either side is its error.
func TestDiffFSOtherFileSystems(t *testing.T) {
	t.Parallel()
	before := vfstest.MemWith(t, "/", vfstest.Tree{"d/a": vfstest.File("1"), "d/gone": vfstest.File("g")})
	after := vfstest.MemWith(t, "/", vfstest.Tree{"d/a": vfstest.File("2"), "d/b": vfstest.File("3")})
	empty := vfstest.NewMem(t)
	got, err := vfs.DiffFS(removeOnly{openOnly{before}}, removeOnly{openOnly{after}}, "/d", vfs.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(vfs.Diff(vfstest.Snapshot(t, before, "/d"), vfstest.Snapshot(t, after, "/d")), got); d != "" {
		t.Errorf("DiffFS through Open only differs from Diff of snapshots (-want +got):\n%s", d)
	}
	if len(got.Added) != 1 || len(got.Removed) != 1 || len(got.Changed) != 1 {
		t.Errorf("DiffFS = %+v; want one file added, one removed, one modified", got)
	}
	for _, side := range []struct {
		name          string
		before, after *vfs.MemFS
	}{
		{"before", empty, after},
		{"after", before, empty},
	} {
		_, err := vfs.DiffFS(removeOnly{openOnly{side.before}}, removeOnly{openOnly{side.after}}, "/d", vfs.SnapshotOptions{})
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != "/d" || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("DiffFS with /d missing %s = %v; want a *fs.PathError for /d that is fs.ErrNotExist", side.name, err)
		}
	}
}

// TestDiffFSHoldsBothSides: while DiffFS reads two MemFS it holds both
// against writers: a write to either side started during the read waits
// for it to end (a write that went through would be a data race).
func TestDiffFSHoldsBothSides(t *testing.T) {
	t.Parallel()
	for _, side := range []string{"before", "after"} {
		t.Run(side, func(t *testing.T) {
			t.Parallel()
			after := vfstest.MemWith(t, "/", vfstest.Tree{"r/f": vfstest.File("one")})
			before := after.Clone()
			if err := after.WriteFile("/r/g", []byte("new"), 0o644); err != nil {
				t.Fatal(err)
			}
			target := map[string]*vfs.MemFS{"before": before, "after": after}[side]
			done := make(chan error, 1)
			var wrote bool
			_, err := vfs.DiffFS(before, after, "/r", vfs.SnapshotOptions{Skip: func(string, fs.FileInfo) bool {
				if done != nil && !wrote {
					wrote = true
					go func() { done <- target.WriteFile("/r/late", []byte("x"), 0o644) }()
					select {
					case err := <-done:
						t.Errorf("a write to %s went through during DiffFS (%v)", side, err)
						done = nil
					case <-time.After(100 * time.Millisecond):
					}
				}
				return false
			}})
			if err != nil {
				t.Fatal(err)
			}
			if !wrote {
				t.Fatal("precondition: Skip was never called")
			}
			if done != nil {
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
