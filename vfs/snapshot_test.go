package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// snapTree is a tree with every kind of entry and a dangling link.
func snapTree() vfstest.Tree {
	return vfstest.Tree{
		"conf/a.json":   vfstest.File(`{"a":1}`),
		"conf/private":  vfstest.File("secret").WithMode(0o600),
		"empty":         vfstest.Dir().WithMode(0o700),
		"link":          vfstest.Link("conf/a.json"),
		"abs":           vfstest.Link("/elsewhere/x"),
		"dangling":      vfstest.Link("nowhere"),
		"deep/er/file":  vfstest.File(""),
		"deep/er/loop1": vfstest.Link("loop2"),
		"deep/er/loop2": vfstest.Link("loop1"),
	}
}

func TestSnapshot(t *testing.T) {
	t.Parallel()
	tree := snapTree()
	m := vfstest.MemWith(t, "/home", tree)
	vfstest.Build(t, m, "/elsewhere", vfstest.Tree{"x": vfstest.File("X")})
	got := vfstest.Snapshot(t, m, "/home")
	if d := cmp.Diff(tree.Entries(t), got); d != "" {
		t.Errorf("Snapshot (-want +got):\n%s", d)
	}
	resolves := map[string]bool{}
	for p, e := range got {
		if e.Type == vfs.TypeSymlink {
			resolves[p] = e.TargetExists
		}
	}
	want := map[string]bool{"link": true, "abs": true, "dangling": false, "deep/er/loop1": false, "deep/er/loop2": false}
	if d := cmp.Diff(want, resolves); d != "" {
		t.Errorf("TargetExists (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"abs", "conf", "conf/a.json", "conf/private", "dangling", "deep", "deep/er", "deep/er/file", "deep/er/loop1", "deep/er/loop2", "empty", "link"}, got.Paths()); d != "" {
		t.Errorf("Paths (-want +got):\n%s", d)
	}
}

func TestSnapshotErrors(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"f": vfstest.File("F"), "dl": vfstest.Link("d"), "d": vfstest.Dir()})
	tests := []struct {
		name string
		why  string
		fsys vfs.FS
		root string
		want error
	}{
		{name: "missing root", fsys: m, root: "/nope", want: fs.ErrNotExist},
		{name: "file root", fsys: m, root: "/f", want: vfs.ErrNotDir},
		{name: "link root", why: "the root is read with Lstat too", fsys: m, root: "/dl", want: vfs.ErrNotDir},
		{name: "no Lstat", fsys: openOnly{m}, root: "/", want: errors.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := vfs.Snapshot(tt.fsys, tt.root)
			if !errors.Is(err, tt.want) {
				t.Errorf("Snapshot(%s) = %v, want %v", tt.root, err, tt.want)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != tt.root {
				t.Errorf("Snapshot(%s) error %#v, want an *fs.PathError for the root", tt.root, err)
			}
		})
	}
}

func TestSnapshotWithSkip(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", snapTree())
	var asked []string
	got, err := vfs.SnapshotWith(m, "/", vfs.SnapshotOptions{Skip: func(rel string, info fs.FileInfo) bool {
		asked = append(asked, rel)
		return rel == "deep" || (info.Mode()&fs.ModeSymlink != 0 && rel != "link")
	}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"conf", "conf/a.json", "conf/private", "empty", "link"}, got.Paths()); d != "" {
		t.Errorf("Paths (-want +got):\n%s", d)
	}
	// A skipped directory is not descended into.
	if d := cmp.Diff([]string{"abs", "conf", "conf/a.json", "conf/private", "dangling", "deep", "empty", "link"}, asked); d != "" {
		t.Errorf("Skip calls (-want +got):\n%s", d)
	}
}

func TestEntryOf(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", snapTree())
	tests := []struct {
		name string
		want vfs.Entry
	}{
		{name: "/conf/private", want: vfs.Entry{Type: vfs.TypeFile, Mode: 0o600, Data: []byte("secret")}},
		{name: "/empty", want: vfs.Entry{Type: vfs.TypeDir, Mode: 0o700}},
		{name: "/link", want: vfs.Entry{Type: vfs.TypeSymlink, Target: "conf/a.json", TargetExists: true}},
		{name: "/dangling", want: vfs.Entry{Type: vfs.TypeSymlink, Target: "nowhere"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := vfs.EntryOf(m, tt.name)
			if err != nil {
				t.Fatal(err)
			}
			// Compare every field: cmp would use Entry.Equal, which ignores TargetExists.
			type plain struct {
				Type         vfs.EntryType
				Mode         fs.FileMode
				Data         string
				Target       string
				TargetExists bool
			}
			p := func(e vfs.Entry) plain { return plain{e.Type, e.Mode, string(e.Data), e.Target, e.TargetExists} }
			if d := cmp.Diff(p(tt.want), p(got)); d != "" {
				t.Errorf("EntryOf (-want +got):\n%s", d)
			}
		})
	}
	if _, err := vfs.EntryOf(m, "/nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("EntryOf(/nope) = %v, want fs.ErrNotExist", err)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	file := func(text string) vfs.Entry { return vfs.Entry{Type: vfs.TypeFile, Mode: 0o644, Data: []byte(text)} }
	link := func(target string, exists bool) vfs.Entry {
		return vfs.Entry{Type: vfs.TypeSymlink, Target: target, TargetExists: exists}
	}
	dir := vfs.Entry{Type: vfs.TypeDir, Mode: 0o755}
	tests := []struct {
		name   string
		why    string
		before vfs.Tree
		after  vfs.Tree
		want   vfs.Delta
	}{
		{
			name: "no change", before: vfs.Tree{"a": file("A")}, after: vfs.Tree{"a": file("A")},
			want: vfs.Delta{Added: map[string]vfs.Entry{}, Changed: map[string]vfs.Change{}, Removed: []string{}},
		},
		{
			name:   "added changed removed",
			before: vfs.Tree{"a": file("A"), "b": file("B"), "d": dir, "d/x": file("X")},
			after:  vfs.Tree{"a": file("A2"), "b": file("B"), "c": file("C")},
			want: vfs.Delta{
				Added:   map[string]vfs.Entry{"c": file("C")},
				Changed: map[string]vfs.Change{"a": {Before: file("A"), After: file("A2")}},
				Removed: []string{"d", "d/x"},
			},
		},
		{
			name:   "mode and type changes",
			before: vfs.Tree{"m": file("M"), "t": file("T")},
			after:  vfs.Tree{"m": {Type: vfs.TypeFile, Mode: 0o600, Data: []byte("M")}, "t": link("x", false)},
			want: vfs.Delta{
				Added: map[string]vfs.Entry{},
				Changed: map[string]vfs.Change{
					"m": {Before: file("M"), After: vfs.Entry{Type: vfs.TypeFile, Mode: 0o600, Data: []byte("M")}},
					"t": {Before: file("T"), After: link("x", false)},
				},
				Removed: []string{},
			},
		},
		{
			name:   "resolution is not a change",
			why:    "TargetExists depends on the rest of the tree, not on the link",
			before: vfs.Tree{"l": link("x", false)},
			after:  vfs.Tree{"l": link("x", true)},
			want:   vfs.Delta{Added: map[string]vfs.Entry{}, Changed: map[string]vfs.Change{}, Removed: []string{}},
		},
		{
			name:   "retarget",
			before: vfs.Tree{"l": link("x", true)},
			after:  vfs.Tree{"l": link("y", true)},
			want: vfs.Delta{
				Added:   map[string]vfs.Entry{},
				Changed: map[string]vfs.Change{"l": {Before: link("x", true), After: link("y", true)}},
				Removed: []string{},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := vfs.Diff(tt.before, tt.after)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Diff (-want +got):\n%s", d)
			}
			wantEmpty := len(tt.want.Added)+len(tt.want.Changed)+len(tt.want.Removed) == 0
			if got.Empty() != wantEmpty {
				t.Errorf("Empty() = %v, want %v", got.Empty(), wantEmpty)
			}
		})
	}
}

func TestDiffOfSnapshots(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/h", snapTree())
	before := vfstest.Snapshot(t, m, "/h")
	c := m.Clone()
	if err := c.WriteFile("/h/link", []byte("through"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.RemoveAll("/h/deep"); err != nil {
		t.Fatal(err)
	}
	got := vfs.Diff(before, vfstest.Snapshot(t, c, "/h"))
	want := vfs.Delta{
		Added: map[string]vfs.Entry{},
		Changed: map[string]vfs.Change{"conf/a.json": {
			Before: vfs.Entry{Type: vfs.TypeFile, Mode: 0o644, Data: []byte(`{"a":1}`)},
			After:  vfs.Entry{Type: vfs.TypeFile, Mode: 0o644, Data: []byte("through")},
		}},
		Removed: []string{"deep", "deep/er", "deep/er/file", "deep/er/loop1", "deep/er/loop2"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Diff (-want +got):\n%s", d)
	}
	vfstest.WantUnchanged(t, m, "/h", before, "the clone's writes reached the original")
}

func TestTreeWithin(t *testing.T) {
	t.Parallel()
	tree := vfs.Tree{"a": {Type: vfs.TypeDir}, "a/x": {Type: vfs.TypeFile}, "ab": {Type: vfs.TypeFile}, "a.b": {Type: vfs.TypeFile}}
	got := tree.Within("a")
	if d := cmp.Diff([]string{"a", "a/x"}, got.Paths()); d != "" {
		t.Errorf("Within(a) (-want +got):\n%s", d)
	}
	if got := tree.Within("nope"); len(got) != 0 {
		t.Errorf("Within(nope) = %v, want empty", got)
	}
}

// TestHelpersUnsupported checks that every helper reports a missing
// capability as errors.ErrUnsupported with os's error type, never as a
// silent success.
func TestHelpersUnsupported(t *testing.T) {
	t.Parallel()
	fsys := openOnly{vfstest.MemWith(t, "/", vfstest.Tree{"f": vfstest.File("F")})}
	tests := []struct {
		name string
		link bool // *os.LinkError rather than *fs.PathError
		err  error
	}{
		{name: "Lstat", err: func() error { _, err := vfs.Lstat(fsys, "/f"); return err }()},
		{name: "ReadLink", err: func() error { _, err := vfs.ReadLink(fsys, "/f"); return err }()},
		{name: "WriteFile", err: vfs.WriteFile(fsys, "/f", nil, 0o644)},
		{name: "OpenFile", err: func() error { _, err := vfs.OpenFile(fsys, "/f", os.O_RDWR, 0); return err }()},
		{name: "Mkdir", err: vfs.Mkdir(fsys, "/f", 0o755)},
		{name: "MkdirAll", err: vfs.MkdirAll(fsys, "/f", 0o755)},
		{name: "Remove", err: vfs.Remove(fsys, "/f")},
		{name: "RemoveAll", err: vfs.RemoveAll(fsys, "/f")},
		{name: "RemoveAll without Lstat", err: vfs.RemoveAll(struct {
			openOnly
			removeFunc
		}{fsys, nil}, "/f")},
		{name: "Chmod", err: vfs.Chmod(fsys, "/f", 0o600)},
		{name: "Chtimes", err: vfs.Chtimes(fsys, "/f", time.Time{}, time.Time{})},
		{name: "Rename", link: true, err: vfs.Rename(fsys, "/f", "/g")},
		{name: "Symlink", link: true, err: vfs.Symlink(fsys, "x", "/f")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !errors.Is(tt.err, errors.ErrUnsupported) {
				t.Errorf("error = %v, want errors.ErrUnsupported", tt.err)
			}
			var pe *fs.PathError
			var le *os.LinkError
			if tt.link && !errors.As(tt.err, &le) || !tt.link && !errors.As(tt.err, &pe) {
				t.Errorf("error %v is %T", tt.err, tt.err)
			}
		})
	}
	wantFile(t, fsys.m, "/f", "F")
}

// removeFunc gives a type a Remove method and nothing else.
type removeFunc func(string) error

func (f removeFunc) Remove(name string) error { return f(name) }

// TestHelpersFallbacks checks the helpers that build an operation from
// narrower capabilities.
func TestHelpersFallbacks(t *testing.T) {
	t.Parallel()
	tree := vfstest.Tree{"d/b": vfstest.File("B"), "d/a": vfstest.File("A"), "d/l": vfstest.Link("a"), "x": vfstest.File("X")}

	t.Run("Stat ReadFile ReadDir through Open", func(t *testing.T) {
		fsys := openOnly{vfstest.MemWith(t, "/", tree)}
		fi, err := vfs.Stat(fsys, "/d/l")
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != 1 {
			t.Errorf("Stat(/d/l) = %v, %v; want the regular file it names", fi, err)
		}
		data, err := vfs.ReadFile(fsys, "/d/l")
		if err != nil || string(data) != "A" {
			t.Errorf("ReadFile(/d/l) = %q, %v; want A", data, err)
		}
		list, err := vfs.ReadDir(fsys, "/d")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"a:----------", "b:----------", "l:L---------"}, vfstest.EntryStrings(list)); d != "" {
			t.Errorf("ReadDir (-want +got):\n%s", d)
		}
		_, err = vfs.Stat(fsys, "/nope")
		wantErr(t, err, fs.ErrNotExist)
	})

	t.Run("WriteFile through OpenFile", func(t *testing.T) {
		m := vfstest.MemWith(t, "/", tree)
		fsys := openFileOnly{openOnly{m}}
		if err := vfs.WriteFile(fsys, "/d/l", []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		wantFile(t, m, "/d/a", "new")
		if err := vfs.WriteFile(fsys, "/d/c", []byte("C"), 0o600); err != nil {
			t.Fatal(err)
		}
		wantFile(t, m, "/d/c", "C")
		wantErr(t, vfs.WriteFile(fsys, "/nope/c", nil, 0o644), fs.ErrNotExist)
		wantErr(t, vfs.WriteFile(fsys, "/d", nil, 0o644), vfs.ErrIsDir)
	})

	t.Run("MkdirAll through Mkdir", func(t *testing.T) {
		m := vfstest.MemWith(t, "/", tree)
		ref := m.Clone()
		fsys := mkdirOnly{openOnly{m}}
		for _, name := range []string{"/p/q/r", "/p/q/r", "/d/l2/s", "/d"} {
			if err, want := vfs.MkdirAll(fsys, name, 0o750), ref.MkdirAll(name, 0o750); vfstest.ErrClass(err) != vfstest.ErrClass(want) {
				t.Errorf("MkdirAll(%s) = %v, MemFS.MkdirAll says %v", name, err, want)
			}
		}
		wantErr(t, vfs.MkdirAll(fsys, "/x", 0o755), vfs.ErrNotDir)
		wantErr(t, vfs.MkdirAll(fsys, "/x/y", 0o755), vfs.ErrNotDir)
		if d := cmp.Diff(vfstest.Snapshot(t, ref, "/"), vfstest.Snapshot(t, m, "/")); d != "" {
			t.Errorf("fallback and MemFS.MkdirAll built different trees (-MemFS +fallback):\n%s", d)
		}
	})

	t.Run("RemoveAll through Remove", func(t *testing.T) {
		m := vfstest.MemWith(t, "/", tree)
		vfstest.Build(t, m, "/", vfstest.Tree{"dl": vfstest.Link("d"), "t/u/v": vfstest.File("V"), "t/link": vfstest.Link("/d")})
		fsys := removeOnly{openOnly{m}}
		for _, name := range []string{"/t", "/dl", "/nope", "/nope/deeper"} {
			if err := vfs.RemoveAll(fsys, name); err != nil {
				t.Errorf("RemoveAll(%s): %v", name, err)
			}
		}
		want := vfstest.Tree{"d/b": vfstest.File("B"), "d/a": vfstest.File("A"), "d/l": vfstest.Link("a"), "x": vfstest.File("X")}
		if d := cmp.Diff(want.Entries(t), vfstest.Snapshot(t, m, "/")); d != "" {
			t.Errorf("after RemoveAll (-want +got):\n%s", d)
		}
	})
}

// wantFile asserts the content of name.
func wantFile(t *testing.T, fsys vfs.FS, name, want string) {
	t.Helper()
	got, err := vfs.ReadFile(fsys, name)
	if err != nil || string(got) != want {
		t.Errorf("ReadFile(%s) = %q, %v; want %q", name, got, err, want)
	}
}

// wantErr asserts that err wraps target.
func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("error = %v, want %v", err, target)
	}
}

// pipeFS is a MemFS, seen through Open and Lstat, in which /p is a named
// pipe.
type pipeFS struct{ openOnly }

func (p pipeFS) Lstat(name string) (fs.FileInfo, error) {
	if name == "/p" {
		return fstest.MapFS{"p": {Mode: fs.ModeNamedPipe}}.Stat("p")
	}
	return p.m.Lstat(name)
}

// TestSnapshotUnsupportedType: an entry that is neither a directory, a
// regular file nor a link (here a named pipe) fails the snapshot with an
// error naming it and its type.
func TestSnapshotUnsupportedType(t *testing.T) {
	t.Parallel()
	fsys := pipeFS{openOnly{vfstest.MemWith(t, "/", vfstest.Tree{"a": vfstest.File("A"), "p": vfstest.File("")})}}
	_, err := vfs.Snapshot(fsys, "/")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "snapshot" || pe.Path != "/p" || err.Error() != "snapshot /p: unsupported file type p---------" {
		t.Errorf("Snapshot of a tree with a named pipe = %v; want \"snapshot /p: unsupported file type p---------\"", err)
	}
	if _, err := vfs.EntryOf(fsys, "/p"); err == nil || err.Error() != "snapshot /p: unsupported file type p---------" {
		t.Errorf("EntryOf(/p) = %v; want the same error", err)
	}
}
