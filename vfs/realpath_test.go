package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// realpathTree is the tree the EvalSymlinks tests resolve in, built
// below root.
func realpathTree(root string) vfstest.Tree {
	return vfstest.Tree{
		"a/b/f":    vfstest.File("F"),
		"a/up":     vfstest.Link(".."),
		"a/abs":    vfstest.Link(root + "/a/b"),
		"l":        vfstest.Link("a/b"),
		"ll":       vfstest.Link("l"),
		"dotdot":   vfstest.Link("a/b/../../a/b/f"),
		"phys":     vfstest.Link("l/../b/f"), // .. after a link steps back from its target
		"loop1":    vfstest.Link("loop2"),
		"loop2":    vfstest.Link("loop1"),
		"dangling": vfstest.Link("nowhere"),
		"slash":    vfstest.Link("a/b/f/"),
		"empty":    vfstest.Dir(),
	}
}

func TestEvalSymlinks(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/r", realpathTree("/r"))
	tests := []struct {
		name string
		want string
		err  error
	}{
		{name: "/r/a/b/f", want: "/r/a/b/f"},
		{name: "/r/l/f", want: "/r/a/b/f"},
		{name: "/r/ll", want: "/r/a/b"},
		{name: "/r/a/up/l/f", want: "/r/a/b/f"},
		{name: "/r/a/abs/f", want: "/r/a/b/f"},
		{name: "/r/dotdot", want: "/r/a/b/f"},
		{name: "/r/phys", want: "/r/a/b/f"}, // l/.. is a, not /r: .. steps back from the link's target
		{name: "/r/l/../b/f", want: "/r/a/b/f"},
		{name: "/r/l/../../l", want: "/r/a/b"},
		{name: "/r/l/..", want: "/r/a"},
		{name: "/r/../../r/l", want: "/r/a/b"},
		{name: "/r/empty/.", want: "/r/empty"},
		{name: "/r/loop1", err: vfs.ErrLoop},
		{name: "/r/dangling", err: fs.ErrNotExist},
		{name: "/r/a/b/f/x", err: vfs.ErrNotDir},
		{name: "/r/slash", err: vfs.ErrNotDir},
		{name: "r/l", err: fs.ErrInvalid},
	}
	for _, tt := range tests {
		got, err := vfs.EvalSymlinks(m, tt.name)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("EvalSymlinks(%q) = %q, %v; want %v", tt.name, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("EvalSymlinks(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

// TestEvalSymlinksKernel compares EvalSymlinks on the memory backend with
// the kernel's own lookup of the same names in the same tree on the host
// (filepath.EvalSymlinks is no oracle: it removes ".." lexically): a name
// the kernel resolves must give the same file, a name it refuses the same
// error.
func TestEvalSymlinksKernel(t *testing.T) {
	t.Parallel()
	host := filepath.ToSlash(t.TempDir())
	m := vfstest.MemWith(t, "/r", realpathTree("/r"))
	vfstest.Build(t, osfs.New(), host, realpathTree(host))
	for _, rel := range []string{"a/b/f", "l/f", "ll", "a/up/l/f", "a/abs/f", "dotdot", "phys", "l/../b/f", "l/../../l", "l/..", "empty/.", "loop1", "dangling", "a/b/f/x", "slash"} {
		want, werr := os.Stat(host + "/" + rel)
		got, gerr := vfs.EvalSymlinks(m, "/r/"+rel)
		if werr != nil {
			for _, e := range []error{fs.ErrNotExist, vfs.ErrLoop, vfs.ErrNotDir} {
				if errors.Is(werr, e) != errors.Is(gerr, e) {
					t.Errorf("%s: kernel %v; memory %q, %v", rel, werr, got, gerr)
				}
			}
			continue
		}
		if gerr != nil {
			t.Errorf("%s: kernel resolves it; memory %v", rel, gerr)
			continue
		}
		if fi, err := os.Lstat(host + got[len("/r"):]); err != nil || !os.SameFile(fi, want) {
			t.Errorf("%s: memory resolves to %s, which is not the kernel's file (%v)", rel, got, err)
		}
	}
}

func TestEvalSymlinksUnsupported(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/r", realpathTree("/r"))
	if _, err := vfs.EvalSymlinks(openOnly{m}, "/r/l"); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("EvalSymlinks without Lstat = %v, want ErrUnsupported", err)
	}
}
