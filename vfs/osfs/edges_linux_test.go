//go:build linux

package osfs_test

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestRootedEdgesMatchKernel compares the rooted FS with the kernel on the
// names the kernel differential never draws: trailing slashes, "." and
// ".." as the last component, through links to a directory, a file and
// nowhere. Each operation runs on a fresh copy of the same tree in a
// rooted FS and, with package os, in a host directory; the error classes
// and the trees afterwards must agree.
func TestRootedEdgesMatchKernel(t *testing.T) {
	t.Parallel()
	tree := []node{
		{path: "/d", dir: true},
		{path: "/d/x", data: "X"},
		{path: "/e", dir: true},
		{path: "/f", data: "F"},
		{path: "/g", data: "G"},
		{path: "/dl", target: "d"},
		{path: "/fl", target: "f"},
		{path: "/dang", target: "nowhere"},
	}
	names := []string{
		"/d/", "/e/", "/dl/", "/fl/", "/f/", "/dang/", "/nope/",
		"/d/.", "/d/..", "/dl/.", "/dl/..", "/e/./", "/.", "/", "//", "/d//x",
	}
	type op struct {
		name   string
		rooted func(f *osfs.FS, name string) error
		kernel func(host, name string) error
	}
	ops := []op{
		{"Stat", func(f *osfs.FS, n string) error { _, err := f.Stat(n); return err },
			func(h, n string) error { _, err := os.Stat(h + n); return err }},
		{"Lstat", func(f *osfs.FS, n string) error { _, err := f.Lstat(n); return err },
			func(h, n string) error { _, err := os.Lstat(h + n); return err }},
		{"ReadLink", func(f *osfs.FS, n string) error { _, err := f.ReadLink(n); return err },
			func(h, n string) error { _, err := os.Readlink(h + n); return err }},
		{"ReadDir", func(f *osfs.FS, n string) error { _, err := f.ReadDir(n); return err },
			func(h, n string) error { _, err := os.ReadDir(h + n); return err }},
		{"ReadFile", func(f *osfs.FS, n string) error { _, err := f.ReadFile(n); return err },
			func(h, n string) error { _, err := os.ReadFile(h + n); return err }},
		{"WriteFile", func(f *osfs.FS, n string) error { return f.WriteFile(n, []byte("w"), 0o644) },
			func(h, n string) error { return os.WriteFile(h+n, []byte("w"), 0o644) }},
		{"Mkdir", func(f *osfs.FS, n string) error { return f.Mkdir(n, 0o755) },
			func(h, n string) error { return os.Mkdir(h+n, 0o755) }},
		{"MkdirAll", func(f *osfs.FS, n string) error { return f.MkdirAll(n, 0o755) },
			func(h, n string) error { return os.MkdirAll(h+n, 0o755) }},
		{"Remove", func(f *osfs.FS, n string) error { return f.Remove(n) },
			func(h, n string) error { return os.Remove(h + n) }},
		{"RemoveAll", func(f *osfs.FS, n string) error { return f.RemoveAll(n) },
			func(h, n string) error { return os.RemoveAll(h + n) }},
		{"Symlink", func(f *osfs.FS, n string) error { return f.Symlink("t", n) },
			func(h, n string) error { return os.Symlink("t", h+n) }},
		{"Rename from", func(f *osfs.FS, n string) error { return f.Rename(n, "/new") },
			func(h, n string) error { return syscall.Rename(h+n, h+"/new") }},
		{"Rename onto", func(f *osfs.FS, n string) error { return f.Rename("/g", n) },
			func(h, n string) error { return syscall.Rename(h+"/g", h+n) }},
		{"Chmod", func(f *osfs.FS, n string) error { return f.Chmod(n, 0o700) },
			func(h, n string) error { return os.Chmod(h+n, 0o700) }},
	}
	for _, o := range ops {
		for _, name := range names {
			if name == "/" || name == "//" {
				switch o.name {
				case "Remove", "RemoveAll", "Rename from", "Rename onto":
					continue // the host's is not its root; the rooted FS says EBUSY (TestRootedWrites)
				}
			}
			if o.name == "RemoveAll" && strings.HasSuffix(name, "/..") {
				continue // os.RemoveAll("d/..") empties d's parent; the rooted FS refuses it (TestRootedRemoveAllDotDot)
			}
			t.Run(o.name+" "+name, func(t *testing.T) {
				t.Parallel()
				hostDir := t.TempDir()
				host := osfs.NewRooted(hostDir)
				build(t, host, tree)
				fsys := osfs.NewRooted(t.TempDir())
				build(t, fsys, tree)
				got, want := vfstest.ErrClass(o.rooted(fsys, name)), vfstest.ErrClass(o.kernel(hostDir, name))
				if got != want {
					t.Errorf("%s(%q): rooted %s, kernel %s", o.name, name, got, want)
				}
				if d := cmp.Diff(snapshot(t, host), snapshot(t, fsys)); d != "" {
					t.Errorf("%s(%q): trees differ (-kernel +rooted):\n%s", o.name, name, d)
				}
			})
		}
	}
}

func snapshot(t *testing.T, fsys vfs.FS) vfs.Tree {
	t.Helper()
	return vfstest.Snapshot(t, fsys, "/")
}

// TestRootedRemoveAllDotDot: os.RemoveAll refuses a name ending in "/."
// but not one ending in "/..", which it removes as the entry ".." of the
// parent, emptying the grandparent. The rooted FS refuses both with
// EINVAL, as the MemFS does.
func TestRootedRemoveAllDotDot(t *testing.T) {
	t.Parallel()
	fsys := rooted(t)
	for _, name := range []string{"/d/sub/..", "/d/subl/..", "/d/.", "/d/sub/../"} {
		err := fsys.RemoveAll(name)
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != name || !errors.Is(err, syscall.EINVAL) {
			t.Errorf("RemoveAll(%q) = %v, want *fs.PathError naming it with EINVAL", name, err)
		}
	}
	if got, err := fsys.ReadFile("/d/sub/inner.txt"); err != nil || string(got) != "I" {
		t.Errorf("after the refused RemoveAll calls: %q, %v", got, err)
	}
}
