package vfs_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// TestRemoveAllTrailingSlashKeepsLinkTarget: like os.RemoveAll, a trailing
// slash on a link removes the link, never what it points at.
func TestRemoveAllTrailingSlashKeepsLinkTarget(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	for _, err := range []error{
		m.MkdirAll("/durable/dir", 0o755),
		m.WriteFile("/durable/dir/keep.txt", []byte("keep"), 0o644),
		m.Symlink("/durable/dir", "/link"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
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
