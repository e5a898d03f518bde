package vfs_test

import (
	"errors"
	"io/fs"
	"path"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// subTree is a tree below /home with links inside the view, an absolute
// link that leaves it, and a directory link.
func subTree() vfstest.Tree {
	return vfstest.Tree{
		"home/a.txt":         vfstest.File("A"),
		"home/dir/b.txt":     vfstest.File("B"),
		"home/dir/up":        vfstest.Link("../a.txt"),
		"home/dl":            vfstest.Link("dir"),
		"home/chain":         vfstest.Link("dl/up"),
		"home/out":           vfstest.Link("/outside/o.txt"),
		"home/empty":         vfstest.Dir(),
		"outside/o.txt":      vfstest.File("O"),
		"outside/secret.txt": vfstest.File("S"),
	}
}

func TestSubFSTest(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", subTree())
	tests := []struct {
		name     string
		sub      fs.FS
		expected []string
	}{
		{name: "view", sub: vfs.Sub(m, "/home"), expected: []string{"a.txt", "dir/b.txt", "dir/up", "dl", "chain", "out", "empty"}},
		{name: "view of a view", sub: mustSub(t, vfs.Sub(m, "/"), "home/dir"), expected: []string{"b.txt", "up"}},
		{name: "view of the root", sub: vfs.Sub(m, "/"), expected: []string{"home/a.txt", "outside/o.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := fstest.TestFS(tt.sub, tt.expected...); err != nil {
				t.Error(err)
			}
		})
	}
}

// mustSub returns fs.Sub(fsys, dir), which must use the view's own Sub.
func mustSub(t *testing.T, fsys fs.FS, dir string) fs.FS {
	t.Helper()
	if _, ok := fsys.(fs.SubFS); !ok {
		t.Fatalf("%T is not an fs.SubFS", fsys)
	}
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func TestSubLinks(t *testing.T) {
	t.Parallel()
	sub := vfs.Sub(vfstest.MemWith(t, "/", subTree()), "/home")
	rl, ok := sub.(fs.ReadLinkFS)
	if !ok {
		t.Fatalf("%T is not an fs.ReadLinkFS", sub)
	}
	tests := []struct {
		name   string
		why    string
		target string
		text   string
	}{
		{name: "chain", target: "dl/up", text: "A"},
		{name: "dir/up", target: "../a.txt", text: "A"},
		{name: "out", why: "absolute targets name the whole file system, not the view", target: "/outside/o.txt", text: "O"},
		{name: "dl/up", why: "a link in the middle of a name is followed", target: "../a.txt", text: "A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, err := rl.ReadLink(tt.name)
			if err != nil || target != tt.target {
				t.Errorf("ReadLink = %q, %v; want %q", target, err, tt.target)
			}
			fi, err := rl.Lstat(tt.name)
			if err != nil || fi.Mode().Type() != fs.ModeSymlink || fi.Name() != path.Base(tt.name) {
				t.Errorf("Lstat = %v, %v; want a symlink named %s", fi, err, path.Base(tt.name))
			}
			data, err := fs.ReadFile(sub, tt.name)
			if err != nil || string(data) != tt.text {
				t.Errorf("ReadFile = %q, %v; want %q", data, err, tt.text)
			}
		})
	}
	var walked []string
	err := fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		walked = append(walked, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".", "a.txt", "chain", "dir", "dir/b.txt", "dir/up", "dl", "empty", "out"}
	if d := cmp.Diff(want, walked); d != "" {
		t.Errorf("WalkDir (-want +got):\n%s", d)
	}
}

func TestSubErrors(t *testing.T) {
	t.Parallel()
	sub := vfs.Sub(vfstest.MemWith(t, "/", subTree()), "/home")
	tests := []struct {
		name string
		why  string
		op   string
		want error
	}{
		{name: "/a.txt", why: "io/fs names are unrooted", op: "open", want: fs.ErrInvalid},
		{name: "dir/../a.txt", op: "open", want: fs.ErrInvalid},
		{name: "", op: "open", want: fs.ErrInvalid},
		{name: "dir/", op: "open", want: fs.ErrInvalid},
		{name: "nope", op: "open", want: fs.ErrNotExist},
		{name: "dl/nope", why: "the error names the view's path, not the resolved one", op: "open", want: fs.ErrNotExist},
		{name: "a.txt/x", op: "open", want: vfs.ErrNotDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := map[string]func() error{
				"Open":     func() error { _, err := sub.Open(tt.name); return err },
				"Stat":     func() error { _, err := fs.Stat(sub, tt.name); return err },
				"ReadFile": func() error { _, err := fs.ReadFile(sub, tt.name); return err },
				"ReadDir":  func() error { _, err := fs.ReadDir(sub, tt.name); return err },
				"Lstat":    func() error { _, err := fs.Lstat(sub, tt.name); return err },
				"ReadLink": func() error { _, err := fs.ReadLink(sub, tt.name); return err },
			}
			for call, do := range calls {
				err := do()
				if !errors.Is(err, tt.want) {
					t.Errorf("%s(%q) = %v, want %v", call, tt.name, err, tt.want)
				}
				var pe *fs.PathError
				if !errors.As(err, &pe) || pe.Path != tt.name {
					t.Errorf("%s(%q) error %#v, want an *fs.PathError naming %q", call, tt.name, err, tt.name)
				}
			}
		})
	}
}

func TestSubWithoutLinkCapabilities(t *testing.T) {
	t.Parallel()
	sub := vfs.Sub(openOnly{vfstest.MemWith(t, "/", subTree())}, "/home")
	if target, err := fs.ReadLink(sub, "dl"); err == nil {
		t.Errorf("ReadLink = %q, want an error: the file system cannot read links", target)
	}
	// Reading still works through Open, following links.
	data, err := fs.ReadFile(sub, "chain")
	if err != nil || string(data) != "A" {
		t.Errorf("ReadFile(chain) = %q, %v; want A", data, err)
	}
}

func TestSubWithoutLstatPassesFSTest(t *testing.T) {
	t.Parallel()
	// A view over a file system without Lstat is not an fs.ReadLinkFS, so
	// fs.Lstat falls back to Stat and fstest.TestFS passes.
	sub := vfs.Sub(openOnly{vfstest.MemWith(t, "/", vfstest.Tree{"t/a": vfstest.File("A"), "t/d/b": vfstest.File("B")})}, "/t")
	if err := fstest.TestFS(sub, "a", "d/b"); err != nil {
		t.Error(err)
	}
}
