package vfs_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestRemoveAllTrailingSlashKeepsLinkTarget: like os.RemoveAll, a trailing
// slash on a link removes the link, never what it points at.
func TestRemoveAllTrailingSlashKeepsLinkTarget(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t,
		m.MkdirAll("/durable/dir", 0o755),
		m.WriteFile("/durable/dir/keep.txt", []byte("keep"), 0o644),
		m.Symlink("/durable/dir", "/link"),
	)
	for _, name := range []string{"/link/", "/link//"} {
		if err := m.RemoveAll(name); err != nil {
			t.Fatalf("RemoveAll(%q) = %v", name, err)
		}
		if data, err := m.ReadFile("/durable/dir/keep.txt"); err != nil || string(data) != "keep" {
			t.Fatalf("RemoveAll(%q) reached the link's target: %q, %v", name, data, err)
		}
		if _, err := m.Lstat("/link"); err == nil {
			t.Fatalf("RemoveAll(%q) left the link", name)
		}
		_ = m.Symlink("/durable/dir", "/link")
	}
}

// TestGenericMkdirAllAndRemoveAllResolvePhysically: the fallbacks of
// vfs.MkdirAll and vfs.RemoveAll are os's algorithms over the file
// system's own calls, which resolve ".." after a link from the link's
// target; they once cleaned the name lexically first, and made or removed
// the entry beside the link instead.
func TestGenericMkdirAllAndRemoveAllResolvePhysically(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"p/q": vfstest.Dir(), "p/x": vfstest.File("P"), "x": vfstest.File("X"), "l": vfstest.Link("p/q")})
	if err := vfs.MkdirAll(mkdirOnly{openOnly{m}}, "/l/../n/o", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := vfs.RemoveAll(removeOnly{openOnly{m}}, "/l/../x"); err != nil {
		t.Fatal(err)
	}
	got := vfstest.Snapshot(t, m, "/")
	want := vfstest.Tree{"p/q": vfstest.Dir(), "p/n/o": vfstest.Dir(), "x": vfstest.File("X"), "l": vfstest.Link("p/q")}.Entries(t)
	if d := cmp.Diff(want, got, cmp.Comparer(vfs.Entry.Equal)); d != "" {
		t.Errorf("tree (-want +got):\n%s", d)
	}
}
