package vfs_test

import (
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/vfs"
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
	for _, err := range []error{
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
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, opts := range []vfs.SnapshotOptions{
		{},
		{Skip: func(rel string, info fs.FileInfo) bool { return strings.HasPrefix(rel, "skip") && info.IsDir() }},
	} {
		fast, err := vfs.SnapshotWith(m, "/r", opts)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := vfs.SnapshotWith(hidden{m}, "/r", opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(slow, fast); d != "" {
			t.Errorf("MemFS snapshot differs from the generic walk (-generic +memfs):\n%s", d)
		}
		if len(fast) < 8 {
			t.Errorf("snapshot has %d entries; the tree was not built as intended", len(fast))
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
	f, err := m.OpenFile("/f", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write([]byte("abcdef")); err != nil {
		t.Fatal(err)
	}
	snap, err := vfs.Snapshot(m, "/")
	if err != nil {
		t.Fatal(err)
	}
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
