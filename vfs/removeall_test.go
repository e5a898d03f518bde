package vfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestRemoveAllTrailingSlashKeepsLinkTarget: like os.RemoveAll, a trailing
// slash on a link removes the link, never what it points at, in MemFS's
// own RemoveAll and in vfs.RemoveAll's fallback alike.
func TestRemoveAllTrailingSlashKeepsLinkTarget(t *testing.T) {
	t.Parallel()
	for via, fsys := range map[string]func(*vfs.MemFS) vfs.FS{
		"MemFS":    func(m *vfs.MemFS) vfs.FS { return m },
		"fallback": func(m *vfs.MemFS) vfs.FS { return removeOnly{openOnly{m}} },
	} {
		m := vfs.NewMemFS(vfs.MemOptions{})
		mustAll(t,
			m.MkdirAll("/durable/dir", 0o755),
			m.WriteFile("/durable/dir/keep.txt", []byte("keep"), 0o644),
			m.Symlink("/durable/dir", "/link"),
		)
		for _, name := range []string{"/link/", "/link//"} {
			if err := vfs.RemoveAll(fsys(m), name); err != nil {
				t.Fatalf("%s: RemoveAll(%q) = %v", via, name, err)
			}
			if data, err := m.ReadFile("/durable/dir/keep.txt"); err != nil || string(data) != "keep" {
				t.Fatalf("%s: RemoveAll(%q) reached the link's target: %q, %v", via, name, data, err)
			}
			if _, err := m.Lstat("/link"); err == nil {
				t.Fatalf("%s: RemoveAll(%q) left the link", via, name)
			}
			_ = m.Symlink("/durable/dir", "/link")
		}
	}
}

// TestGenericMkdirAllAndRemoveAllRace: like os's, the fallbacks of
// vfs.MkdirAll and vfs.RemoveAll count a directory that another process
// made, or an entry it removed, after their look and before their call,
// as done; a file made in the directory's place is still an error.
func TestGenericMkdirAllAndRemoveAllRace(t *testing.T) {
	t.Parallel()
	t.Run("mkdir, a directory made meanwhile", func(t *testing.T) {
		m := vfs.NewMemFS(vfs.MemOptions{})
		fsys := racer{mkdirOnly{openOnly{m}}, func(m *vfs.MemFS, name string) { _ = m.Mkdir(name, 0o700) }}
		if err := vfs.MkdirAll(fsys, "/a/b", 0o755); err != nil {
			t.Fatalf("MkdirAll(/a/b) = %v, want nil", err)
		}
		if fi, err := m.Stat("/a/b"); err != nil || !fi.IsDir() {
			t.Fatalf("Stat(/a/b) = %v, %v; want a directory", fi, err)
		}
	})
	t.Run("mkdir, a file made meanwhile", func(t *testing.T) {
		m := vfs.NewMemFS(vfs.MemOptions{})
		fsys := racer{mkdirOnly{openOnly{m}}, func(m *vfs.MemFS, name string) { _ = m.WriteFile(name, nil, 0o644) }}
		if err := vfs.MkdirAll(fsys, "/a", 0o755); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("MkdirAll(/a) = %v, want an error wrapping fs.ErrExist", err)
		}
	})
	t.Run("remove, removed meanwhile", func(t *testing.T) {
		m := vfstest.MemWith(t, "/", vfstest.Tree{"d/e/f": vfstest.File("F"), "d/g": vfstest.Link("e")})
		fsys := racer{mkdirOnly{openOnly{m}}, func(m *vfs.MemFS, name string) { _ = m.Remove(name) }}
		if err := vfs.RemoveAll(fsys, "/d"); err != nil {
			t.Fatalf("RemoveAll(/d) = %v, want nil", err)
		}
		if _, err := m.Lstat("/d"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Lstat(/d) after RemoveAll = %v, want fs.ErrNotExist", err)
		}
	})
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
