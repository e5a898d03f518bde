package vfs_test

import (
	"errors"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestRenameErrorPrecedence holds the shrunk sequences on which the kernel
// differential property once found MemFS picking the wrong error among
// several that apply; the wanted errors are Linux's.
func TestRenameErrorPrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		setup    func(m *vfs.MemFS) error
		old, new string
		want     error
		why      string
	}{
		{
			name:  "bad new parent beats missing old name",
			setup: func(m *vfs.MemFS) error { return m.WriteFile("/a", nil, 0o644) },
			old:   "/b", new: "/a/a", want: syscall.ENOTDIR,
			why: "the kernel resolves both parents before it looks the old name up",
		},
		{
			name: "looping new parent beats missing old name",
			setup: func(m *vfs.MemFS) error {
				if err := m.MkdirAll("/b/a", 0o755); err != nil {
					return err
				}
				return m.Symlink("a", "/b/a/a")
			},
			old: "/ab", new: "/b/a/a/a", want: syscall.ELOOP,
		},
		{
			name: "file onto its own ancestor",
			setup: func(m *vfs.MemFS) error {
				if err := m.MkdirAll("/a/b", 0o755); err != nil {
					return err
				}
				return m.WriteFile("/a/b/a", []byte("x"), 0o644)
			},
			old: "/a/b/a", new: "/a", want: syscall.ENOTEMPTY,
			why: "an ancestor of the old name is the rename's trap, whatever the types",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := vfs.NewMemFS(vfs.MemOptions{})
			if err := tt.setup(m); err != nil {
				t.Fatalf("setup: %v", err)
			}
			before := vfstest.Snapshot(t, m, "/")
			err := m.Rename(tt.old, tt.new)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Rename(%s, %s) = %v, want %v (%s)", tt.old, tt.new, err, tt.want, tt.why)
			}
			vfstest.WantUnchanged(t, m, "/", before, "a failed rename changed the tree")
		})
	}
}
