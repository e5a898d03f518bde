package vfs_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// hidden hides the concrete MemFS type, so that vfs.Snapshot takes its
// generic path through the capability helpers.
type hidden struct{ *vfs.MemFS }

func (h hidden) Open(name string) (fs.File, error) { return h.MemFS.Open(name) }

// TestMemSnapshotMatchesGeneric checks the MemFS snapshot shortcut
// against the generic walk, skip function included.
func TestMemSnapshotMatchesGeneric(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t,
		m.MkdirAll("/r/a/b", 0o750),
		m.MkdirAll("/r/skip/deep", 0o755),
		m.WriteFile("/r/a/b/f", []byte("F"), 0o600),
		m.WriteFile("/r/skip/deep/g", []byte("G"), 0o644),
		m.Symlink("b/f", "/r/a/rel"),
		m.Symlink("/r/a", "/r/abs"),
		m.Symlink("nowhere", "/r/dangling"),
		m.Symlink("loop", "/r/loop"),
		m.Symlink("../outside", "/r/a/up"),
		m.WriteFile("/outside", nil, 0o644),
	)
	// kept records the information each Skip call saw, read after the
	// snapshot: values handed to Skip must stay as they were.
	type kept map[string]fs.FileInfo
	skipper := func(k kept) vfs.SnapshotOptions {
		return vfs.SnapshotOptions{Skip: func(rel string, info fs.FileInfo) bool {
			k[rel] = info
			return strings.HasPrefix(rel, "skip") && info.IsDir()
		}}
	}
	summary := func(k kept) map[string]string {
		out := map[string]string{}
		for rel, fi := range k {
			out[rel] = fmt.Sprintf("%s %v %d %v", fi.Name(), fi.Mode(), fi.Size(), fi.ModTime())
		}
		return out
	}
	for _, tc := range []struct {
		root string
		skip bool
		min  int
	}{
		{root: "/r", min: 8},
		{root: "/r", skip: true, min: 8},
		{root: "/", skip: true, min: 9},
		{root: "/r/abs/b", min: 1},
	} {
		var fastOpts, slowOpts vfs.SnapshotOptions
		fastKept, slowKept := kept{}, kept{}
		if tc.skip {
			fastOpts, slowOpts = skipper(fastKept), skipper(slowKept)
		}
		fast, err := vfs.SnapshotWith(m, tc.root, fastOpts)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := vfs.SnapshotWith(hidden{m}, tc.root, slowOpts)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(slow, fast); d != "" {
			t.Errorf("%s: MemFS snapshot differs from the generic walk (-generic +memfs):\n%s", tc.root, d)
		}
		if d := cmp.Diff(summary(slowKept), summary(fastKept)); d != "" {
			t.Errorf("%s: information given to Skip differs (-generic +memfs):\n%s", tc.root, d)
		}
		if len(fast) < tc.min || tc.skip && len(fastKept) < tc.min {
			t.Errorf("%s: snapshot has %d entries, Skip saw %d; the tree was not built as intended", tc.root, len(fast), len(fastKept))
		}
	}
	if _, err := vfs.Snapshot(m, "/outside"); err == nil {
		t.Error("snapshot of a file succeeded")
	}
	if _, err := vfs.Snapshot(m, "/missing"); err == nil {
		t.Error("snapshot of a missing root succeeded")
	}
}

// TestSnapshotDataStaysAsTaken checks that a snapshot, which shares file
// contents with the MemFS, never sees later writes, in place or not.
func TestSnapshotDataStaysAsTaken(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	f := mustOpen(t, m, "/f", os.O_RDWR|os.O_CREATE, 0o644)
	if _, err := f.Write([]byte("abcdef")); err != nil {
		t.Fatal(err)
	}
	snap := vfstest.Snapshot(t, m, "/")
	// Overwrite in place through the open handle, then append.
	if _, err := f.(io.WriterAt).WriteAt([]byte("XY"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("gh")); err != nil {
		t.Fatal(err)
	}
	if got := string(snap["f"].Data); got != "abcdef" {
		t.Fatalf("snapshot data changed to %q after writes, want %q", got, "abcdef")
	}
	if got, _ := m.ReadFile("/f"); string(got) != "XYcdefgh" {
		t.Fatalf("file = %q, want %q", got, "XYcdefgh")
	}
	// Appending to the snapshot's slice must not reach the file either.
	_ = append(snap["f"].Data, '!')
	if got, _ := m.ReadFile("/f"); string(got) != "XYcdefgh" {
		t.Fatalf("file = %q after appending to a snapshot slice", got)
	}
}

// TestCloneRootIsCopiedOnWrite: changing the root of a clone (its mode, its times)
// leaves the root of the file system it was cloned from as it was, and
// the other way round.
func TestCloneRootIsCopiedOnWrite(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"f": vfstest.File("F")})
	before, err := m.Stat("/")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Clone()
	later := before.ModTime().Add(time.Hour)
	if err := c.Chmod("/", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := c.Chtimes("/", time.Time{}, later); err != nil {
		t.Fatal(err)
	}
	if err := m.Chmod("/", 0o750); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		fsys *vfs.MemFS
		mode fs.FileMode
		mt   time.Time
	}{
		{"clone", c, 0o700, later},
		{"original", m, 0o750, before.ModTime()},
	} {
		fi, err := tt.fsys.Stat("/")
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != tt.mode || !fi.ModTime().Equal(tt.mt) {
			t.Errorf("%s: / has mode %v, mtime %v; want %v, %v", tt.name, fi.Mode().Perm(), fi.ModTime(), tt.mode, tt.mt)
		}
	}
	mustRead(t, c, "/f", "F")
}

// TestCloneDeepPathsAreCopiedOnWrite: writes below a clone deeper than
// the names a walk keeps inline (12) copy the whole chain, and leave the
// file system it was cloned from as it was, at every depth around that.
func TestCloneDeepPathsAreCopiedOnWrite(t *testing.T) {
	t.Parallel()
	for depth := 10; depth <= 15; depth++ {
		dir := strings.Repeat("/d", depth)
		m := vfstest.MemWith(t, "/", vfstest.Tree{dir[1:] + "/f": vfstest.File("old")})
		c := m.Clone()
		if err := c.WriteFile(dir+"/f", []byte("new"), 0o644); err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if err := c.Mkdir(dir+"/sub", 0o755); err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		mustRead(t, c, dir+"/f", "new")
		mustRead(t, m, dir+"/f", "old")
		if _, err := m.Stat(dir + "/sub"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("depth %d: the original has the clone's directory: %v", depth, err)
		}
	}
}
