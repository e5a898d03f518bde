package aferofs_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/aferofs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func memTree(t *testing.T) *vfs.MemFS {
	t.Helper()
	m := vfs.NewMemFS(vfs.MemOptions{})
	for _, d := range []string{"/home", "/home/sub"} {
		if err := m.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{"/home/b.txt": "B", "/home/a.txt": "A", "/home/sub/c": "C"} {
		if err := m.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Symlink("/home/a.txt", "/home/link"); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFromVFS(t *testing.T) {
	t.Parallel()
	mem := memTree(t)
	a := aferofs.FromVFS(mem)

	f, err := a.Create("/home/new")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("hello"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("J"), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := mem.ReadFile("/home/new"); err != nil || string(got) != "Jello" {
		t.Errorf("file written through afero = %q, %v", got, err)
	}

	infos, err := afero.ReadDir(a, "/home")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fi := range infos {
		names = append(names, fi.Name())
	}
	if diff := cmp.Diff([]string{"a.txt", "b.txt", "link", "new", "sub"}, names); diff != "" {
		t.Errorf("afero.ReadDir (-want +got):\n%s", diff)
	}

	if got, err := afero.ReadFile(a, "/home/link"); err != nil || string(got) != "A" {
		t.Errorf("read through link = %q, %v", got, err)
	}
	if err := a.Remove("/home"); !errors.Is(err, vfs.ErrNotEmpty) {
		t.Errorf("Remove of a non-empty dir: %v, want ENOTEMPTY (MemFS semantics survive)", err)
	}
	if err := a.Chown("/home", 0, 0); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Chown: %v, want ErrUnsupported", err)
	}
	if _, err := a.Open("/nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open missing: %v, want ErrNotExist", err)
	}
}

func TestFromVFSSymlinker(t *testing.T) {
	t.Parallel()
	a := aferofs.FromVFS(memTree(t))
	s, ok := a.(afero.Symlinker)
	if !ok {
		t.Fatal("FromVFS result is not an afero.Symlinker")
	}
	if err := s.SymlinkIfPossible("../b.txt", "/home/sub/rel"); err != nil {
		t.Fatal(err)
	}
	target, err := s.ReadlinkIfPossible("/home/sub/rel")
	if err != nil || target != "../b.txt" {
		t.Errorf("ReadlinkIfPossible = %q, %v; want the verbatim target", target, err)
	}
	fi, used, err := s.LstatIfPossible("/home/sub/rel")
	if err != nil || !used || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("LstatIfPossible = %v, %v, %v; want a link described by lstat", fi, used, err)
	}
	if got, err := afero.ReadFile(a, "/home/sub/rel"); err != nil || string(got) != "B" {
		t.Errorf("read through relative link = %q, %v", got, err)
	}
	err = s.SymlinkIfPossible("x", "/home/a.txt")
	var le *os.LinkError
	if !errors.As(err, &le) || !errors.Is(err, fs.ErrExist) {
		t.Errorf("Symlink onto a file: %#v, want *os.LinkError wrapping ErrExist", err)
	}
}

func TestFromVFSReaddir(t *testing.T) {
	t.Parallel()
	a := aferofs.FromVFS(memTree(t))
	tests := []struct {
		name  string
		count int
		want  [][]string // names per call until the end
		why   string
	}{
		{name: "all", count: -1, want: [][]string{{"a.txt", "b.txt", "link", "sub"}, {}}, why: "n <= 0 returns everything, then nothing without error"},
		{name: "batches", count: 3, want: [][]string{{"a.txt", "b.txt", "link"}, {"sub"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, err := a.Open("/home")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			var got [][]string
			for range len(tt.want) {
				names, err := d.Readdirnames(tt.count)
				if err != nil && err != io.EOF {
					t.Fatal(err)
				}
				got = append(got, names)
			}
			if tt.count > 0 {
				if names, err := d.Readdirnames(tt.count); len(names) != 0 || err != io.EOF {
					t.Errorf("after the end: %v, %v; want io.EOF", names, err)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Readdirnames(%d) (-want +got):\n%s\n%s", tt.count, diff, tt.why)
			}
		})
	}
	f, err := a.Open("/home/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Readdir(-1); !errors.Is(err, vfs.ErrNotDir) {
		t.Errorf("Readdir on a file: %v, want ENOTDIR", err)
	}
}

func TestToVFSOnMemMapFs(t *testing.T) {
	t.Parallel()
	fsys := aferofs.ToVFS(afero.NewMemMapFs())
	if err := vfs.MkdirAll(fsys, "/x/y", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := vfs.WriteFile(fsys, "/x/y/f", []byte("F"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := vfs.ReadFile(fsys, "/x/y/f"); err != nil || string(got) != "F" {
		t.Errorf("ReadFile = %q, %v", got, err)
	}
	unsupported := []struct {
		name string
		err  error
	}{
		{name: "Lstat", err: second(vfs.Lstat(fsys, "/x/y/f"))},
		{name: "Lstat missing", err: second(vfs.Lstat(fsys, "/nope"))},
		{name: "ReadLink", err: second(vfs.ReadLink(fsys, "/x/y/f"))},
		{name: "Symlink", err: vfs.Symlink(fsys, "f", "/x/l")},
		{name: "Snapshot", err: second(vfs.Snapshot(fsys, "/x"))},
	}
	for _, u := range unsupported {
		if !errors.Is(u.err, errors.ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", u.name, u.err)
		}
	}
	if _, err := vfs.Lstat(fsys, "/x/l"); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("a refused Symlink left something behind: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

// TestRoundTrip wraps a MemFS into afero and back: links, listings and
// errors survive both adapters.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	mem := memTree(t)
	fsys := aferofs.ToVFS(aferofs.FromVFS(mem))
	if err := vfs.Symlink(fsys, "sub", "/home/dirlink"); err != nil {
		t.Fatal(err)
	}
	if err := vfs.Chmod(fsys, "/home/b.txt", 0o600); err != nil {
		t.Fatal(err)
	}
	want := vfstest.Snapshot(t, mem, "/home")
	got := vfstest.Snapshot(t, fsys, "/home")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot through both adapters (-want +got):\n%s", diff)
	}
	if _, ok := want["dirlink"]; !ok {
		t.Fatal("precondition: the link made through the adapters is missing from the MemFS")
	}
	list, err := vfs.ReadDir(fsys, "/home/dirlink")
	if err != nil || len(list) != 1 || list[0].Name() != "c" {
		t.Errorf("ReadDir through a dir link = %v, %v", list, err)
	}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{name: "remove non-empty dir", err: vfs.Remove(fsys, "/home/sub"), want: vfs.ErrNotEmpty},
		{name: "mkdir missing parent", err: vfs.Mkdir(fsys, "/nope/x", 0o755), want: fs.ErrNotExist},
		{name: "open missing", err: second(fsys.Open("/nope")), want: fs.ErrNotExist},
		{name: "readlink of a file", err: second(vfs.ReadLink(fsys, "/home/a.txt")), want: syscall.EINVAL},
		{name: "lstat through a file", err: second(vfs.Lstat(fsys, "/home/a.txt/x")), want: vfs.ErrNotDir},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, tt.err, tt.want)
		}
	}
	f, err := vfs.OpenFile(fsys, "/home/a.txt", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("+")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := mem.ReadFile("/home/a.txt"); err != nil || string(got) != "A+" {
		t.Errorf("append through both adapters = %q, %v", got, err)
	}
}

// infoFailFS is a MemFS whose directory listings hold entries whose Info
// fails, as an entry removed between the listing and the Info call does
// on an OS file system: the error of each is in fail, by name.
type infoFailFS struct {
	*vfs.MemFS
	fail map[string]error
}

func (f infoFailFS) Open(name string) (fs.File, error) {
	fl, err := f.MemFS.Open(name)
	if err != nil {
		return nil, err
	}
	if d, ok := fl.(fs.ReadDirFile); ok {
		return infoFailDir{d, f.fail}, nil
	}
	return fl, nil
}

type infoFailDir struct {
	fs.ReadDirFile
	fail map[string]error
}

func (d infoFailDir) ReadDir(n int) ([]fs.DirEntry, error) {
	list, err := d.ReadDirFile.ReadDir(n)
	for i, e := range list {
		if ierr, ok := d.fail[e.Name()]; ok {
			list[i] = failedEntry{e, ierr}
		}
	}
	return list, err
}

type failedEntry struct {
	fs.DirEntry
	err error
}

func (e failedEntry) Info() (fs.FileInfo, error) { return nil, e.err }

// TestFromVFSReaddirInfoFails: Readdir leaves out the entries whose Info
// fails and returns the first of their errors with the others.
func TestFromVFSReaddirInfoFails(t *testing.T) {
	t.Parallel()
	first, second := errors.New("b.txt vanished"), errors.New("link vanished")
	a := aferofs.FromVFS(infoFailFS{memTree(t), map[string]error{"b.txt": first, "link": second}})
	d, err := a.Open("/home")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	infos, err := d.Readdir(-1)
	var names []string
	for _, fi := range infos {
		names = append(names, fi.Name())
	}
	if diff := cmp.Diff([]string{"a.txt", "sub"}, names); diff != "" || err != first {
		t.Errorf("Readdir = %v, %v; want a.txt and sub, and %v (-want +got names):\n%s", names, err, first, diff)
	}
}
