package vfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/vfs"
)

func TestCopyTree(t *testing.T) {
	t.Parallel()
	src := vfs.NewMemFS(vfs.MemOptions{})
	for _, err := range []error{
		src.MkdirAll("/src/d/e", 0o750),
		src.WriteFile("/src/d/f.txt", []byte("F"), 0o600),
		src.Symlink("../outside", "/src/d/rel"),
		src.Symlink("/abs/target", "/src/abs"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	dst := vfs.NewMemFS(vfs.MemOptions{})
	if err := vfs.CopyTree(dst, "/dst/copy", src, "/src"); err != nil {
		t.Fatal(err)
	}
	want, err := vfs.Snapshot(src, "/src")
	if err != nil {
		t.Fatal(err)
	}
	got, err := vfs.Snapshot(dst, "/dst/copy")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("copy differs (-src +dst):\n%s", d)
	}
}

func TestCopyTreeErrors(t *testing.T) {
	t.Parallel()
	src := vfs.NewMemFS(vfs.MemOptions{})
	_ = src.WriteFile("/file", nil, 0o644)
	_ = src.MkdirAll("/dir", 0o755)
	_ = src.Symlink("x", "/dir/link")
	tests := []struct {
		name    string
		srcDir  string
		dst     vfs.FS
		wantErr error
	}{
		{name: "missing source", srcDir: "/nope", dst: vfs.NewMemFS(vfs.MemOptions{}), wantErr: fs.ErrNotExist},
		{name: "source is a file", srcDir: "/file", dst: vfs.NewMemFS(vfs.MemOptions{}), wantErr: vfs.ErrNotDir},
		{name: "destination without symlinks", srcDir: "/dir", dst: noLinks{vfs.NewMemFS(vfs.MemOptions{})}, wantErr: errors.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := vfs.CopyTree(tt.dst, "/out", src, tt.srcDir)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("CopyTree = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// noLinks hides every capability of a MemFS but the ones CopyTree needs
// for files and directories.
type noLinks struct{ m *vfs.MemFS }

func (n noLinks) Open(name string) (fs.File, error)            { return n.m.Open(name) }
func (n noLinks) MkdirAll(name string, perm fs.FileMode) error { return n.m.MkdirAll(name, perm) }
func (n noLinks) Mkdir(name string, perm fs.FileMode) error    { return n.m.Mkdir(name, perm) }
func (n noLinks) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return n.m.WriteFile(name, data, perm)
}
