package overlayfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// lowerBase is the lower tree of the layering tests.
func lowerBase() vfstest.Tree {
	return vfstest.Tree{
		"d/target.txt":    vfstest.File("T"),
		"d/sub/inner.txt": vfstest.File("I"),
		"d/sub/deep/x":    vfstest.File("X").WithMode(0o600),
		"ldir":            vfstest.Link("d"),
		"lup":             vfstest.Link("/up-only.txt"),
		"dang":            vfstest.Link("d/new.txt"),
		"loop1":           vfstest.Link("loop2"),
		"loop2":           vfstest.Link("loop1"),
		"e":               vfstest.Dir(),
	}
}

// overlayOf returns an overlay of a read-only MemFS holding tree, and the
// lower MemFS itself.
func overlayOf(t *testing.T, tree vfstest.Tree) (*overlayfs.FS, *vfs.MemFS) {
	t.Helper()
	lower := vfstest.MemWith(t, "/", tree)
	return overlayfs.New(readOnly(t, lower), overlayfs.Options{Clock: vfstest.FixedClock()}), lower
}

func wantErr(t *testing.T, what string, err, target error, name string) {
	t.Helper()
	var pe *fs.PathError
	if !errors.Is(err, target) || !errors.As(err, &pe) || pe.Path != name {
		t.Errorf("%s: %v, want an *fs.PathError for %s wrapping %v", what, err, name, target)
	}
}

// wantLowerUnchanged asserts that the lower MemFS still holds exactly tree.
func wantLowerUnchanged(t *testing.T, lower *vfs.MemFS, tree vfstest.Tree) {
	t.Helper()
	got, err := vfs.Snapshot(lower, "/")
	vfstest.Must(t, "Snapshot(lower)", err)
	want := tree.Entries(t)
	if d := cmp.Diff(want, got, cmp.Comparer(vfs.Entry.Equal)); d != "" {
		t.Errorf("lower layer changed (-want +got):\n%s", d)
	}
}

// layerCase is a test on an overlay of [lowerBase].
type layerCase struct {
	name string
	why  string
	run  func(t *testing.T, fsys *overlayfs.FS)
}

// runLayerCases runs each case on a fresh overlay of lowerBase, and checks
// that the lower layer did not change.
func runLayerCases(t *testing.T, cases []layerCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fsys, lower := overlayOf(t, lowerBase())
			c.run(t, fsys)
			wantLowerUnchanged(t, lower, lowerBase())
		})
	}
}

func TestLinksAcrossLayers(t *testing.T) {
	t.Parallel()
	cases := []layerCase{
		{name: "upper link to lower path", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Symlink", fsys.Symlink("/d/target.txt", "/ul"))
			vfstest.Must(t, "Symlink", fsys.Symlink("d/sub", "/urel"))
			vfstest.WantText(t, fsys, "/ul", "T")
			vfstest.WantText(t, fsys, "/urel/inner.txt", "I")
		}},
		{name: "lower link to upper-only file", run: func(t *testing.T, fsys *overlayfs.FS) {
			_, err := fsys.Stat("/lup")
			wantErr(t, "Stat before the target exists", err, fs.ErrNotExist, "/lup")
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/up-only.txt", []byte("U"), 0o644))
			vfstest.WantText(t, fsys, "/lup", "U")
		}},
		{name: "intermediate links in either layer", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.WantText(t, fsys, "/ldir/sub/inner.txt", "I")
			vfstest.Must(t, "Symlink", fsys.Symlink("ldir/sub", "/us"))
			vfstest.WantText(t, fsys, "/us/deep/x", "X")
			vfstest.Must(t, "Symlink", fsys.Symlink("../../ldir", "/d/sub/back"))
			vfstest.WantText(t, fsys, "/us/back/target.txt", "T")
		}},
		{name: "loops", why: "a loop mixing an upper and a lower link is a loop too", run: func(t *testing.T, fsys *overlayfs.FS) {
			_, err := fsys.Stat("/loop1")
			wantErr(t, "Stat lower loop", err, vfs.ErrLoop, "/loop1")
			vfstest.Must(t, "Remove", fsys.Remove("/loop2"))
			vfstest.Must(t, "Symlink", fsys.Symlink("/loop1", "/loop2"))
			_, err = fsys.ReadFile("/loop2/x")
			wantErr(t, "ReadFile mixed loop", err, vfs.ErrLoop, "/loop2/x")
			err = fsys.WriteFile("/loop1", nil, 0o644)
			wantErr(t, "WriteFile mixed loop", err, vfs.ErrLoop, "/loop1")
		}},
		{name: "write through a lower link", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/ldir/target.txt", []byte("W"), 0o644))
			vfstest.WantText(t, fsys, "/d/target.txt", "W")
			vfstest.Must(t, "MkdirAll", fsys.MkdirAll("/ldir/sub/deep/more", 0o755))
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/ldir/sub/deep/more/f", []byte("F"), 0o644))
			vfstest.WantText(t, fsys, "/d/sub/deep/more/f", "F")
			vfstest.WantText(t, fsys, "/d/sub/deep/x", "X")
		}},
		{name: "create through a dangling lower link", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/dang", []byte("N"), 0o644))
			vfstest.WantText(t, fsys, "/d/new.txt", "N")
			if target, err := fsys.ReadLink("/dang"); err != nil || target != "d/new.txt" {
				t.Errorf("ReadLink(/dang) = %q, %v; want the lower target", target, err)
			}
		}},
		{name: "append to a lower file", run: func(t *testing.T, fsys *overlayfs.FS) {
			f, err := fsys.OpenFile("/ldir/sub/inner.txt", os.O_WRONLY|os.O_APPEND, 0)
			vfstest.Must(t, "OpenFile", err)
			_, err = f.Write([]byte("+"))
			vfstest.Must(t, "Write", err)
			vfstest.Must(t, "Close", f.Close())
			vfstest.WantText(t, fsys, "/d/sub/inner.txt", "I+")
		}},
		{name: "truncating a lower file", why: "a file copied up to be truncated keeps its mode and takes the time of the truncation", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/ldir/sub/deep/x", []byte("W"), 0o644))
			vfstest.WantText(t, fsys, "/d/sub/deep/x", "W")
			written, err := fsys.Stat("/d/sub/deep/x")
			vfstest.Must(t, "Stat", err)
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/d/sub/deep/next", nil, 0o644))
			next, err := fsys.Stat("/d/sub/deep/next")
			vfstest.Must(t, "Stat", err)
			if written.Mode() != 0o600 || next.ModTime().Sub(written.ModTime()) != time.Second {
				t.Errorf("written file: mode %v, time %v; want 0600 and one clock tick before the next file's %v", written.Mode(), written.ModTime(), next.ModTime())
			}
			f, err := fsys.OpenFile("/d/sub/inner.txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_TRUNC, 0o644)
			if err == nil {
				f.Close()
			}
			wantErr(t, "OpenFile exclusive on a lower file", err, fs.ErrExist, "/d/sub/inner.txt")
			vfstest.WantText(t, fsys, "/d/sub/inner.txt", "I")
			f, err = fsys.OpenFile("/ldir/target.txt", os.O_RDWR|os.O_TRUNC, 0)
			vfstest.Must(t, "OpenFile truncating", err)
			vfstest.Must(t, "Close", f.Close())
			vfstest.WantText(t, fsys, "/d/target.txt", "")
		}},
		{name: "chmod through a link copies up the target", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Chmod", fsys.Chmod("/ldir/sub/deep/x", 0o640))
			fi, err := fsys.Stat("/d/sub/deep/x")
			if err != nil || fi.Mode() != 0o640 {
				t.Errorf("Stat mode = %v, %v; want 0640", fi, err)
			}
			vfstest.WantText(t, fsys, "/d/sub/deep/x", "X")
		}},
		{name: "errors name the caller's path", run: func(t *testing.T, fsys *overlayfs.FS) {
			_, err := fsys.ReadFile("/ldir/sub/nope")
			wantErr(t, "ReadFile", err, fs.ErrNotExist, "/ldir/sub/nope")
			err = fsys.Remove("/ldir/sub")
			wantErr(t, "Remove non-empty lower dir", err, vfs.ErrNotEmpty, "/ldir/sub")
			_, err = fsys.ReadDir("/ldir/target.txt")
			wantErr(t, "ReadDir of a file", err, vfs.ErrNotDir, "/ldir/target.txt")
		}},
	}
	runLayerCases(t, cases)
}

// listing returns the names of a directory of the overlay.
func listing(t *testing.T, fsys vfs.ReadDirFS, name string) string {
	t.Helper()
	list, err := fsys.ReadDir(name)
	vfstest.Must(t, "ReadDir "+name, err)
	return strings.Join(vfstest.EntryNames(list), " ")
}

func TestWhiteoutsAndOpaqueDirs(t *testing.T) {
	t.Parallel()
	cases := []layerCase{
		{name: "merged listing", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/d/a.txt", nil, 0o644))
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/d/target.txt", []byte("changed"), 0o644))
			if got, want := listing(t, fsys, "/d"), "a.txt sub target.txt"; got != want {
				t.Errorf("ReadDir(/d) = %s, want %s", got, want)
			}
		}},
		{name: "merged listing around removed names", why: "upper names before, between and after the lower ones, one of them replacing a removed lower file", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Remove", fsys.Remove("/d/target.txt"))
			for _, name := range []string{"/d/a.txt", "/d/m.txt", "/d/z.txt", "/d/sub/inner.txt", "/d/sub/zz"} {
				vfstest.Must(t, "WriteFile", fsys.WriteFile(name, nil, 0o644))
			}
			vfstest.Must(t, "Remove", fsys.Remove("/d/sub/deep/x"))
			vfstest.Must(t, "Mkdir", fsys.Mkdir("/d/sub/deep/x", 0o755))
			for _, c := range []struct{ dir, want string }{
				{"/d", "a.txt m.txt sub z.txt"},
				{"/d/sub", "deep inner.txt zz"},
				{"/d/sub/deep", "x"},
				{"/", "d dang e ldir loop1 loop2 lup"},
			} {
				if got := listing(t, fsys, c.dir); got != c.want {
					t.Errorf("ReadDir(%s) = %s, want %s", c.dir, got, c.want)
				}
			}
		}},
		{name: "removed lower file", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Remove", fsys.Remove("/d/target.txt"))
			_, err := fsys.Lstat("/d/target.txt")
			wantErr(t, "Lstat", err, fs.ErrNotExist, "/d/target.txt")
			if got, want := listing(t, fsys, "/d"), "sub"; got != want {
				t.Errorf("ReadDir(/d) = %s, want %s", got, want)
			}
		}},
		{name: "emptied lower dir can be removed", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Remove", fsys.Remove("/d/sub/deep/x"))
			vfstest.Must(t, "Remove", fsys.Remove("/d/sub/deep"))
			err := fsys.Remove("/d/sub")
			wantErr(t, "Remove with a lower child left", err, vfs.ErrNotEmpty, "/d/sub")
			vfstest.Must(t, "Remove", fsys.Remove("/d/sub/inner.txt"))
			vfstest.Must(t, "Remove", fsys.Remove("/d/sub"))
		}},
		{name: "re-created dir is opaque", why: "lower children of a removed directory never show again", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "RemoveAll", fsys.RemoveAll("/d"))
			vfstest.Must(t, "Mkdir", fsys.Mkdir("/d", 0o755))
			if got := listing(t, fsys, "/d"); got != "" {
				t.Errorf("ReadDir(/d) = %s, want empty", got)
			}
			vfstest.Must(t, "MkdirAll", fsys.MkdirAll("/d/sub", 0o755))
			if got := listing(t, fsys, "/d/sub"); got != "" {
				t.Errorf("ReadDir(/d/sub) = %s, want empty", got)
			}
			_, err := fsys.Stat("/d/sub/inner.txt")
			wantErr(t, "Stat", err, fs.ErrNotExist, "/d/sub/inner.txt")
		}},
		{name: "file replaced by a dir", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Remove", fsys.Remove("/d/target.txt"))
			vfstest.Must(t, "Mkdir", fsys.Mkdir("/d/target.txt", 0o700))
			if got := listing(t, fsys, "/d/target.txt"); got != "" {
				t.Errorf("ReadDir = %s, want empty", got)
			}
		}},
		{name: "renamed lower dir moves its subtree", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Remove", fsys.Remove("/d/sub/inner.txt"))
			vfstest.Must(t, "Rename", fsys.Rename("/d", "/e/moved"))
			vfstest.WantText(t, fsys, "/e/moved/target.txt", "T")
			vfstest.WantText(t, fsys, "/e/moved/sub/deep/x", "X")
			_, err := fsys.Stat("/e/moved/sub/inner.txt")
			wantErr(t, "Stat removed before the rename", err, fs.ErrNotExist, "/e/moved/sub/inner.txt")
			_, err = fsys.Lstat("/d")
			wantErr(t, "Lstat old name", err, fs.ErrNotExist, "/d")
			_, err = fsys.Stat("/ldir")
			wantErr(t, "Stat a lower link to the old name", err, fs.ErrNotExist, "/ldir")
			vfstest.Must(t, "Rename back", fsys.Rename("/e/moved", "/d"))
			if got, want := listing(t, fsys, "/d/sub"), "deep"; got != want {
				t.Errorf("ReadDir(/d/sub) = %s, want %s", got, want)
			}
		}},
		{name: "whiteouts seen through unclean names", why: "the canonical name of a component is a prefix of the caller's name only when the name is clean up to it", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Remove", fsys.Remove("/d/./sub//inner.txt"))
			vfstest.Must(t, "RemoveAll", fsys.RemoveAll("/ldir/sub/deep/../deep"))
			for _, name := range []string{"/d/sub/inner.txt", "//d/sub/inner.txt", "/e/../d/sub/inner.txt", "/ldir/sub/inner.txt", "/ldir//sub/./inner.txt", "/d/sub/deep/x", "/ldir/../d/sub/deep"} {
				_, err := fsys.Lstat(name)
				wantErr(t, "Lstat", err, fs.ErrNotExist, name)
			}
			for _, name := range []string{"/d/sub", "/ldir/sub/", "//d//sub", "/e/../ldir/./sub"} {
				if got := listing(t, fsys, name); got != "" {
					t.Errorf("ReadDir(%s) = %s, want empty", name, got)
				}
			}
			for _, name := range []string{"/d/target.txt", "/ldir/target.txt", "/ldir/sub/../target.txt", "//ldir//target.txt"} {
				vfstest.WantText(t, fsys, name, "T")
			}
		}},
		{name: "RemoveAll of a link with a trailing slash removes the link", why: "as os.RemoveAll, which removes the base name from its parent: the slash never makes it follow the link, so the link's target stays", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "RemoveAll", fsys.RemoveAll("/ldir/"))
			_, err := fsys.Lstat("/ldir")
			wantErr(t, "Lstat removed link", err, fs.ErrNotExist, "/ldir")
			vfstest.WantText(t, fsys, "/d/target.txt", "T")
			if got, want := listing(t, fsys, "/d"), "sub target.txt"; got != want {
				t.Errorf("ReadDir(/d) = %s, want %s", got, want)
			}
		}},
		{name: "rename onto a lower file", run: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/n", []byte("N"), 0o644))
			vfstest.Must(t, "Rename", fsys.Rename("/n", "/d/target.txt"))
			vfstest.WantText(t, fsys, "/d/target.txt", "N")
			err := fsys.Rename("/e", "/d")
			if !errors.Is(err, vfs.ErrNotEmpty) {
				t.Errorf("Rename onto a non-empty lower dir = %v, want ErrNotEmpty", err)
			}
		}},
	}
	runLayerCases(t, cases)
}

func TestChanges(t *testing.T) {
	t.Parallel()
	file := func(text string, mode fs.FileMode) vfs.Entry {
		return vfs.Entry{Type: vfs.TypeFile, Mode: mode, Data: []byte(text)}
	}
	dir := vfs.Entry{Type: vfs.TypeDir, Mode: 0o755}
	cases := []struct {
		name string
		why  string
		ops  func(t *testing.T, fsys *overlayfs.FS)
		want vfs.Delta
	}{
		{name: "nothing", ops: func(t *testing.T, fsys *overlayfs.FS) {}},
		{name: "reads and no-op copy-ups are not changes", why: "the write through the link copies up /d, and its content is rewritten the same", ops: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/ldir/target.txt", []byte("T"), 0o644))
			vfstest.Must(t, "Chmod", fsys.Chmod("/e", 0o755))
			_, err := fsys.ReadDir("/d/sub")
			vfstest.Must(t, "ReadDir", err)
		}},
		{name: "added, changed and removed", ops: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/d/target.txt", []byte("W"), 0o644))
			vfstest.Must(t, "Chmod", fsys.Chmod("/e", 0o700))
			vfstest.Must(t, "MkdirAll", fsys.MkdirAll("/new/dir", 0o755))
			vfstest.Must(t, "Symlink", fsys.Symlink("../d", "/new/l"))
			vfstest.Must(t, "RemoveAll", fsys.RemoveAll("/d/sub"))
			vfstest.Must(t, "Remove", fsys.Remove("/loop1"))
		}, want: vfs.Delta{
			Added: map[string]vfs.Entry{
				"new":     dir,
				"new/dir": dir,
				"new/l":   {Type: vfs.TypeSymlink, Target: "../d", TargetExists: true},
			},
			Changed: map[string]vfs.Change{
				"d/target.txt": {Before: file("T", 0o644), After: file("W", 0o644)},
				"e":            {Before: dir, After: vfs.Entry{Type: vfs.TypeDir, Mode: 0o700}},
			},
			Removed: []string{"d/sub", "d/sub/deep", "d/sub/deep/x", "d/sub/inner.txt", "loop1"},
		}},
		{name: "re-created dir", why: "lower children that do not come back are removed", ops: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "RemoveAll", fsys.RemoveAll("/d"))
			vfstest.Must(t, "MkdirAll", fsys.MkdirAll("/d/sub", 0o755))
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/d/sub/inner.txt", []byte("I"), 0o644))
		}, want: vfs.Delta{
			Removed: []string{"d/sub/deep", "d/sub/deep/x", "d/target.txt"},
		}},
		{name: "renamed dir", ops: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Rename", fsys.Rename("/d/sub", "/e/s"))
		}, want: vfs.Delta{
			Added: map[string]vfs.Entry{
				"e/s":           dir,
				"e/s/inner.txt": file("I", 0o644),
				"e/s/deep":      dir,
				"e/s/deep/x":    file("X", 0o600),
			},
			Removed: []string{"d/sub", "d/sub/deep", "d/sub/deep/x", "d/sub/inner.txt"},
		}},
		{name: "file replaced by a link", ops: func(t *testing.T, fsys *overlayfs.FS) {
			vfstest.Must(t, "Remove", fsys.Remove("/d/target.txt"))
			vfstest.Must(t, "Symlink", fsys.Symlink("sub/inner.txt", "/d/target.txt"))
		}, want: vfs.Delta{
			Changed: map[string]vfs.Change{
				"d/target.txt": {Before: file("T", 0o644), After: vfs.Entry{Type: vfs.TypeSymlink, Target: "sub/inner.txt", TargetExists: true}},
			},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fsys, lower := overlayOf(t, lowerBase())
			c.ops(t, fsys)
			got, err := fsys.Changes()
			vfstest.Must(t, "Changes", err)
			want := c.want
			if want.Added == nil {
				want.Added = map[string]vfs.Entry{}
			}
			if want.Changed == nil {
				want.Changed = map[string]vfs.Change{}
			}
			if want.Removed == nil {
				want.Removed = []string{}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Changes (-want +got):\n%s", d)
			}
			// The same as the difference of whole snapshots.
			before, err := vfs.Snapshot(lower, "/")
			vfstest.Must(t, "Snapshot(lower)", err)
			after, err := vfs.Snapshot(fsys, "/")
			vfstest.Must(t, "Snapshot(overlay)", err)
			if d := cmp.Diff(vfs.Diff(before, after), got); d != "" {
				t.Errorf("Changes differ from vfs.Diff (-diff +changes):\n%s", d)
			}
		})
	}
}

// TestLowerReadsAreProportional counts the lower layer's operations: with
// 1,000 unrelated files beside the path touched, reads and writes of one
// path cost a few operations per component, and none of them looks at the
// unrelated files.
func TestLowerReadsAreProportional(t *testing.T) {
	t.Parallel()
	tree := vfstest.Tree{"a/b/c/d/file": vfstest.File("F"), "a/b/link": vfstest.Link("c/d")}
	for i := range 1000 {
		tree[fmt.Sprintf("bulk/f%04d", i)] = vfstest.File("")
		tree[fmt.Sprintf("a/b/c/side%04d", i)] = vfstest.File("")
	}
	lower := readOnly(t, vfstest.MemWith(t, "/", tree))
	fsys := overlayfs.New(lower, overlayfs.Options{Clock: vfstest.FixedClock()})
	const depth = 5 // components of /a/b/c/d/file
	steps := []struct {
		name string
		do   func() error
		max  int
	}{
		{"ReadFile", func() error { _, err := fsys.ReadFile("/a/b/c/d/file"); return err }, 2 * depth},
		{"Stat through a link", func() error { _, err := fsys.Stat("/a/b/link/file"); return err }, 2*depth + 2},
		{"WriteFile next to it", func() error { return fsys.WriteFile("/a/b/c/d/new", []byte("N"), 0o644) }, 3 * depth},
		{"WriteFile through a link", func() error { return fsys.WriteFile("/a/b/link/file", []byte("W"), 0o644) }, 3 * depth},
		{"Remove a lower file", func() error { return fsys.Remove("/a/b/c/side0007") }, 3 * depth},
		{"Rename a link named with a trailing slash", func() error {
			// ENOTDIR: the link is not followed, so nothing below its
			// target is read.
			if err := fsys.Rename("/a/b/link/", "/a/b/moved"); !errors.Is(err, vfs.ErrNotDir) {
				return fmt.Errorf("Rename = %v, want ENOTDIR", err)
			}
			return nil
		}, 3 * depth},
		{"RemoveAll a lower dir", func() error { return fsys.RemoveAll("/bulk") }, 2 * depth},
		{"ReadFile after the changes", func() error { _, err := fsys.ReadFile("/a/b/c/d/file"); return err }, 2 * depth},
	}
	for _, s := range steps {
		lower.ResetLog()
		vfstest.Must(t, s.name, s.do())
		ops := lower.Ops()
		t.Logf("%s: %d lower operations", s.name, len(ops))
		if len(ops) > s.max {
			t.Errorf("%s: %d lower operations, want at most %d: %v", s.name, len(ops), s.max, ops)
		}
		for _, op := range ops {
			if op.Kind == faultfs.KindReadDir || strings.HasPrefix(op.Path, "/bulk/") {
				t.Errorf("%s: lower operation %s %s reads beyond the path", s.name, op.Kind, op.Path)
			}
		}
	}
	lower.ResetLog()
	got, err := fsys.Changes()
	vfstest.Must(t, "Changes", err)
	if len(got.Removed) != 1002 || len(got.Added) != 1 || len(got.Changed) != 1 {
		t.Errorf("Changes: %d added, %d changed, %d removed; want 1, 1, 1002 (/bulk, its files, side0007)", len(got.Added), len(got.Changed), len(got.Removed))
	}
	if n := lower.Count(faultfs.KindReadDir); n > 2 {
		t.Errorf("Changes listed %d lower directories, want at most 2 (the removed /bulk)", n)
	}
}

// openOnly is a lower layer without Lstat, ReadLink or ReadDir: only Open.
type openOnly struct{ m *vfs.MemFS }

func (o openOnly) Open(name string) (fs.File, error) { return o.m.Open(name) }

func TestLowerWithoutCapabilities(t *testing.T) {
	t.Parallel()
	fsys := overlayfs.New(openOnly{vfstest.MemWith(t, "/", vfstest.Tree{"f": vfstest.File("F")})}, overlayfs.Options{})
	_, err := fsys.Stat("/f")
	wantErr(t, "Stat", err, errors.ErrUnsupported, "/f")
	err = fsys.WriteFile("/g", nil, 0o644)
	wantErr(t, "WriteFile", err, errors.ErrUnsupported, "/g")
	err = fsys.Rename("/f", "/g")
	var le *os.LinkError
	if !errors.Is(err, errors.ErrUnsupported) || !errors.As(err, &le) {
		t.Errorf("Rename = %v, want an *os.LinkError wrapping errors.ErrUnsupported", err)
	}
}

func TestGivenUpperLayer(t *testing.T) {
	t.Parallel()
	upper := vfstest.NewMem(t)
	lower := vfstest.MemWith(t, "/", vfstest.Tree{"d/f": vfstest.File("F")})
	fsys := overlayfs.New(readOnly(t, lower), overlayfs.Options{Upper: upper})
	vfstest.Must(t, "WriteFile", fsys.WriteFile("/d/g", []byte("G"), 0o644))
	if fsys.Upper() != upper {
		t.Fatal("Upper() is not the given layer")
	}
	vfstest.WantText(t, upper, "/d/g", "G")
	if _, err := upper.Lstat("/d/f"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("upper Lstat(/d/f) = %v, want not copied up", err)
	}
}

// TestStatAfterWritesThroughHandles checks that information read before a
// write through an open handle is not reported after it: the handle
// changes the upper layer between the calls of the overlay.
func TestStatAfterWritesThroughHandles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		file string
		want string
	}{
		{name: "copied-up lower file", file: "/d/target.txt", want: "Tbcd"},
		{name: "upper file", file: "/d/new.txt", want: "abcd"},
		{name: "through a lower link", file: "/ldir/target.txt", want: "Tbcd"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fsys, _ := overlayOf(t, lowerBase())
			vfstest.Must(t, "WriteFile", fsys.WriteFile("/d/new.txt", []byte("a"), 0o644))
			h, err := fsys.OpenFile(c.file, os.O_WRONLY|os.O_APPEND, 0)
			vfstest.Must(t, "OpenFile", err)
			defer h.Close()
			before, err := fsys.Stat(c.file)
			vfstest.Must(t, "Stat before the write", err)
			if before.Size() != 1 {
				t.Fatalf("Stat before the write: size %d, want 1", before.Size())
			}
			_, err = h.Write([]byte("bcd"))
			vfstest.Must(t, "Write", err)
			for what, stat := range map[string]func(string) (fs.FileInfo, error){"Stat": fsys.Stat, "Lstat": fsys.Lstat} {
				fi, err := stat(c.file)
				vfstest.Must(t, what, err)
				if fi.Size() != int64(len(c.want)) {
					t.Errorf("%s after the write: size %d, want %d", what, fi.Size(), len(c.want))
				}
			}
			r, err := fsys.Open(c.file)
			vfstest.Must(t, "Open", err)
			defer r.Close()
			fi, err := r.Stat()
			vfstest.Must(t, "Stat of the open file", err)
			if fi.Size() != int64(len(c.want)) {
				t.Errorf("Open(%s).Stat(): size %d, want %d", c.file, fi.Size(), len(c.want))
			}
			vfstest.WantText(t, fsys, c.file, c.want)
		})
	}
}

// TestLookupErrorNotRemembered: the overlay remembers the entries it
// looked up below an upper directory, but not a lookup that failed: once
// the lower layer answers again, the entry is there.
func TestLookupErrorNotRemembered(t *testing.T) {
	t.Parallel()
	var failing atomic.Bool
	lower := faultfs.New(vfstest.MemWith(t, "/", vfstest.Tree{"d/x": vfstest.File("X")}),
		faultfs.When(func(op faultfs.Op) bool { return failing.Load() && op.Path == "/d/x" }, syscall.EIO))
	fsys := overlayfs.New(lower, overlayfs.Options{})
	// A file written in /d copies /d up: its children are looked up
	// through the overlay's memory of them.
	vfstest.Must(t, "WriteFile /d/new", fsys.WriteFile("/d/new", []byte("N"), 0o644))
	failing.Store(true)
	if _, err := fsys.Stat("/d/x"); !errors.Is(err, syscall.EIO) {
		t.Fatalf("Stat(/d/x) with the lower layer failing = %v, want EIO", err)
	}
	failing.Store(false)
	if data, err := fsys.ReadFile("/d/x"); err != nil || string(data) != "X" {
		t.Errorf("ReadFile(/d/x) once the lower layer answers = %q, %v; want X", data, err)
	}
}
