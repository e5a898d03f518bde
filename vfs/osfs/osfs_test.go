package osfs_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// node is one entry of a test tree: a directory, a file or a link.
type node struct {
	path   string
	dir    bool
	data   string
	target string // non-empty for a symbolic link
}

// build creates nodes in order on fsys.
func build(t *testing.T, fsys vfs.ReadWriteFS, nodes []node) {
	t.Helper()
	for _, n := range nodes {
		var err error
		switch {
		case n.dir:
			err = fsys.Mkdir(n.path, 0o755)
		case n.target != "":
			err = fsys.Symlink(n.target, n.path)
		default:
			err = fsys.WriteFile(n.path, []byte(n.data), 0o644)
		}
		if err != nil {
			t.Fatalf("build %s: %v", n.path, err)
		}
	}
}

// baseTree is the symlink tree of the vfs spec's behaviour matrix.
var baseTree = []node{
	{path: "/d", dir: true},
	{path: "/d/target.txt", data: "T"},
	{path: "/d/sub", dir: true},
	{path: "/d/sub/inner.txt", data: "I"},
	{path: "/e", dir: true},
	{path: "/d/rel", target: "target.txt"},
	{path: "/d/abs", target: "/d/target.txt"},
	{path: "/d/chain", target: "rel"},
	{path: "/d/subl", target: "sub"},
	{path: "/e/up", target: "../d/target.txt"},
	{path: "/d/loop1", target: "loop2"},
	{path: "/d/loop2", target: "loop1"},
	{path: "/d/self", target: "self"},
	{path: "/d/dangling", target: "missing.txt"},
	{path: "/d/absdir", target: "/d/sub"},
}

func rooted(t *testing.T) *osfs.FS {
	t.Helper()
	fsys := osfs.NewRooted(t.TempDir())
	build(t, fsys, baseTree)
	return fsys
}

func TestRootedRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		path    string
		want    string
		wantErr error
		why     string
	}{
		{name: "plain", path: "/d/target.txt", want: "T"},
		{name: "relative link", path: "/d/rel", want: "T"},
		{name: "absolute link", path: "/d/abs", want: "T", why: "absolute targets resolve from the root, like on a MemFS"},
		{name: "chain", path: "/d/chain", want: "T"},
		{name: "dir link in path", path: "/d/subl/inner.txt", want: "I"},
		{name: "absolute dir link in path", path: "/d/absdir/inner.txt", want: "I"},
		{name: "dotdot target", path: "/e/up", want: "T"},
		{name: "dotdot after link", path: "/d/subl/../target.txt", want: "T", why: "the kernel follows subl before .., and subl's parent is /d"},
		{name: "dotdot above root", path: "/../../d/target.txt", want: "T", why: ".. stops at the root"},
		{name: "loop", path: "/d/loop1", wantErr: vfs.ErrLoop},
		{name: "self loop", path: "/d/self", wantErr: vfs.ErrLoop},
		{name: "dangling", path: "/d/dangling", wantErr: fs.ErrNotExist},
		{name: "missing", path: "/d/nope", wantErr: fs.ErrNotExist},
		{name: "missing parent", path: "/nope/x", wantErr: fs.ErrNotExist},
		{name: "file as dir", path: "/d/target.txt/x", wantErr: vfs.ErrNotDir},
		{name: "link to file as dir", path: "/d/rel/x", wantErr: vfs.ErrNotDir},
		{name: "directory", path: "/d", wantErr: vfs.ErrIsDir},
	}
	fsys := rooted(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := fsys.ReadFile(tt.path)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ReadFile(%q) error = %v, want %v (%s)", tt.path, err, tt.wantErr, tt.why)
			}
			if err != nil {
				var pe *fs.PathError
				if !errors.As(err, &pe) || pe.Path != tt.path {
					t.Fatalf("error %#v is not a *fs.PathError naming %q", err, tt.path)
				}
				return
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("ReadFile(%q) (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestRootedStatAndLstat(t *testing.T) {
	t.Parallel()
	fsys := rooted(t)
	type result struct {
		Name string
		Mode fs.FileMode
		Err  string
	}
	describe := func(fi fs.FileInfo, err error) result {
		if err != nil {
			return result{Err: err.Error()}
		}
		return result{Name: fi.Name(), Mode: fi.Mode().Type()}
	}
	tests := []struct {
		name      string
		path      string
		wantStat  result
		wantLstat result
	}{
		{name: "file", path: "/d/target.txt", wantStat: result{Name: "target.txt"}, wantLstat: result{Name: "target.txt"}},
		{name: "link", path: "/d/rel", wantStat: result{Name: "rel"}, wantLstat: result{Name: "rel", Mode: fs.ModeSymlink}},
		{name: "dir link", path: "/d/absdir", wantStat: result{Name: "absdir", Mode: fs.ModeDir}, wantLstat: result{Name: "absdir", Mode: fs.ModeSymlink}},
		{name: "root", path: "/", wantStat: result{Name: "/", Mode: fs.ModeDir}, wantLstat: result{Name: "/", Mode: fs.ModeDir}},
		{
			name:      "dangling",
			path:      "/d/dangling",
			wantStat:  result{Err: "stat /d/dangling: no such file or directory"},
			wantLstat: result{Name: "dangling", Mode: fs.ModeSymlink},
		},
		{
			name:      "loop",
			path:      "/d/loop1",
			wantStat:  result{Err: "stat /d/loop1: too many levels of symbolic links"},
			wantLstat: result{Name: "loop1", Mode: fs.ModeSymlink},
		},
		{
			name:      "relative name",
			path:      "d/rel",
			wantStat:  result{Err: "stat d/rel: invalid argument"},
			wantLstat: result{Err: "lstat d/rel: invalid argument"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.wantStat, describe(fsys.Stat(tt.path))); diff != "" {
				t.Errorf("Stat(%q) (-want +got):\n%s", tt.path, diff)
			}
			if diff := cmp.Diff(tt.wantLstat, describe(fsys.Lstat(tt.path))); diff != "" {
				t.Errorf("Lstat(%q) (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestRootedReadLinkVerbatim(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := osfs.NewRooted(dir)
	// The long ones outgrow the first buffers ReadLink reads into; 4,095
	// bytes is the longest target Linux stores.
	targets := []string{"/fixture/home/x", "rel/x", "../../up", "/", strings.Repeat("long/", 200), strings.Repeat("y", 4095)}
	for i, target := range targets {
		name := "/l" + string(rune('a'+i))
		if err := fsys.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
		got, err := fsys.ReadLink(name)
		if err != nil {
			t.Fatal(err)
		}
		if got != target {
			t.Errorf("ReadLink(%q) = %q, want %q", name, got, target)
		}
		onDisk, err := os.Readlink(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if onDisk != target {
			t.Errorf("host link %q holds %q, want %q", name, onDisk, target)
		}
	}
	_, err := fsys.ReadLink("/d")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadLink of a missing name: %v, want ErrNotExist", err)
	}
}

func TestRootedWrites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		op      func(fsys *osfs.FS) error
		check   string // a path to read afterwards
		want    string
		wantErr error
		why     string
	}{
		{
			name:  "write through link",
			op:    func(f *osfs.FS) error { return f.WriteFile("/d/rel", []byte("new"), 0o644) },
			check: "/d/target.txt", want: "new",
		},
		{
			name:  "write through absolute link",
			op:    func(f *osfs.FS) error { return f.WriteFile("/d/abs", []byte("abs"), 0o644) },
			check: "/d/target.txt", want: "abs",
		},
		{
			name:  "create through dangling link",
			op:    func(f *osfs.FS) error { return f.WriteFile("/d/dangling", []byte("made"), 0o644) },
			check: "/d/missing.txt", want: "made",
		},
		{
			name:    "exclusive create on dangling link",
			op:      func(f *osfs.FS) error { return create(f, "/d/dangling", os.O_EXCL) },
			wantErr: fs.ErrExist, why: "O_CREAT|O_EXCL never follows a final link",
		},
		{
			name:    "create under a file",
			op:      func(f *osfs.FS) error { return f.WriteFile("/d/target.txt/x", nil, 0o644) },
			wantErr: vfs.ErrNotDir,
		},
		{
			name:    "create with missing parent",
			op:      func(f *osfs.FS) error { return f.WriteFile("/nope/x", nil, 0o644) },
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "mkdir existing",
			op:      func(f *osfs.FS) error { return f.Mkdir("/d", 0o755) },
			wantErr: fs.ErrExist,
		},
		{
			name:    "mkdir on dangling link",
			op:      func(f *osfs.FS) error { return f.Mkdir("/d/dangling", 0o755) },
			wantErr: fs.ErrExist,
		},
		{
			name:  "mkdirall through dir link",
			op:    func(f *osfs.FS) error { return f.MkdirAll("/d/subl/a/b", 0o755) },
			check: "/d/sub/a/b", wantErr: nil, want: "",
		},
		{
			name:    "mkdirall over a file",
			op:      func(f *osfs.FS) error { return f.MkdirAll("/d/target.txt/a", 0o755) },
			wantErr: vfs.ErrNotDir,
		},
		{
			name:    "remove non-empty dir",
			op:      func(f *osfs.FS) error { return f.Remove("/d") },
			wantErr: vfs.ErrNotEmpty,
		},
		{
			name:  "remove link keeps target",
			op:    func(f *osfs.FS) error { return f.Remove("/d/rel") },
			check: "/d/target.txt", want: "T",
		},
		{
			name:  "removeall does not follow links",
			op:    func(f *osfs.FS) error { return f.RemoveAll("/d/subl") },
			check: "/d/sub/inner.txt", want: "I",
		},
		{
			name: "removeall missing", op: func(f *osfs.FS) error { return f.RemoveAll("/nope/x") },
		},
		{
			name:    "remove root",
			op:      func(f *osfs.FS) error { return f.Remove("/") },
			wantErr: syscall.EBUSY,
		},
		{
			name: "rename dir onto empty dir",
			op: func(f *osfs.FS) error {
				if err := f.Mkdir("/empty", 0o755); err != nil {
					return err
				}
				return f.Rename("/d/sub", "/empty")
			},
			check: "/empty/inner.txt", want: "I",
			why: "rename(2) lets a directory replace an empty one; os.Rename would say EEXIST",
		},
		{
			name:    "rename dir onto non-empty dir",
			op:      func(f *osfs.FS) error { return f.Rename("/e", "/d") },
			wantErr: vfs.ErrNotEmpty,
		},
		{
			name:  "rename dir onto itself",
			op:    func(f *osfs.FS) error { return f.Rename("/d", "/d") },
			check: "/d/target.txt", want: "T",
		},
		{
			name:    "rename into own subtree",
			op:      func(f *osfs.FS) error { return f.Rename("/d", "/d/sub/d") },
			wantErr: syscall.EINVAL,
		},
		{
			name:  "rename link moves the link",
			op:    func(f *osfs.FS) error { return f.Rename("/d/rel", "/d/rel2") },
			check: "/d/rel2", want: "T",
		},
		{
			name:    "symlink onto existing",
			op:      func(f *osfs.FS) error { return f.Symlink("x", "/d/target.txt") },
			wantErr: fs.ErrExist,
		},
		{
			name:  "chmod follows link",
			op:    func(f *osfs.FS) error { return f.Chmod("/d/rel", 0o600) },
			check: "/d/target.txt", want: "T",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := rooted(t)
			err := tt.op(fsys)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("error = %v, want %v (%s)", err, tt.wantErr, tt.why)
			}
			if tt.check == "" {
				return
			}
			fi, err := fsys.Stat(tt.check)
			if err != nil {
				t.Fatal(err)
			}
			if fi.IsDir() {
				return
			}
			got, err := fsys.ReadFile(tt.check)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.check, diff)
			}
		})
	}
}

func create(fsys *osfs.FS, name string, extra int) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|extra, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

func TestRootedChmodChtimes(t *testing.T) {
	t.Parallel()
	fsys := rooted(t)
	if err := fsys.Chmod("/d/abs", 0o600); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := fsys.Chtimes("/d/rel", time.Time{}, mtime); err != nil {
		t.Fatal(err)
	}
	fi, err := fsys.Stat("/d/target.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("mode = %v, want 0600", got)
	}
	if !fi.ModTime().Equal(mtime) {
		t.Errorf("mtime = %v, want %v", fi.ModTime(), mtime)
	}
	err = fsys.Chmod("/d/dangling", 0o600)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Chmod of a dangling link: %v, want ErrNotExist", err)
	}
	err = fsys.Chtimes("/d/loop1", mtime, mtime)
	if !errors.Is(err, vfs.ErrLoop) {
		t.Errorf("Chtimes of a loop: %v, want ErrLoop", err)
	}
}

func TestRootedReadDirAndFiles(t *testing.T) {
	t.Parallel()
	fsys := rooted(t)
	list, err := fsys.ReadDir("/d/absdir")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"inner.txt"}, vfstest.EntryNames(list)); diff != "" {
		t.Errorf("ReadDir (-want +got):\n%s", diff)
	}
	_, err = fsys.ReadDir("/d/target.txt")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "/d/target.txt" || !errors.Is(err, vfs.ErrNotDir) {
		t.Errorf("ReadDir of a file: %#v, want ENOTDIR naming the vfs path", err)
	}

	f, err := fsys.OpenFile("/d/rel", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("Write on a read-only file succeeded")
	} else if !errors.As(err, &pe) || pe.Path != "/d/rel" {
		t.Errorf("Write error %#v does not name the vfs path", err)
	}
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if fi.Name() != "rel" {
		t.Errorf("Stat().Name() = %q, want %q", fi.Name(), "rel")
	}
	if n, ok := f.(interface{ Name() string }); !ok || n.Name() != "/d/rel" {
		t.Errorf("file Name does not report the vfs name")
	}
}

func TestRootedErrorsNameVFSPaths(t *testing.T) {
	t.Parallel()
	fsys := rooted(t)
	root := fsys.Root()
	errs := []error{
		fsys.Remove("/nope"),
		fsys.Mkdir("/nope/x", 0o755),
		fsys.Chmod("/nope", 0o644),
		fsys.Rename("/nope", "/x"),
		fsys.Symlink("t", "/nope/x"),
		fsys.WriteFile("/d", nil, 0o644),
	}
	_, err := fsys.Open("/nope")
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil {
			t.Fatal("an operation on a missing path succeeded")
		}
		if msg := err.Error(); strings.Contains(msg, root) {
			t.Errorf("error %q leaks the host root %q", msg, root)
		}
	}
	var le *os.LinkError
	if !errors.As(errs[3], &le) || le.Old != "/nope" || le.New != "/x" || !errors.Is(le, fs.ErrNotExist) {
		t.Errorf("Rename error %#v, want *os.LinkError with vfs names and ENOENT", errs[3])
	}
}

// TestRootedConfinement places a secret next to the root and tries every
// way out: no name or link may read it, and no write may land outside.
func TestRootedConfinement(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	rootDir := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{rootDir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := osfs.NewRooted(rootDir)
	build(t, fsys, []node{
		{path: "/in", dir: true},
		{path: "/in/up2", target: "../../outside/secret"},
		{path: "/in/updir", target: "../.."},
		{path: "/in/deep", target: "../../../../../../../../outside"},
		{path: "/hostabs", target: secret},
		{path: "/hostdir", target: outside},
		{path: "/rootabs", target: "/../outside/secret"},
		{path: "/in/chain", target: "/in/updir/outside/secret"},
		{path: "/in/hostparent", target: base},
	})
	// Precondition: the secret is readable through the host, so a read
	// through the FS that fails to see it proves confinement.
	if got, err := os.ReadFile(secret); err != nil || string(got) != "SECRET" {
		t.Fatalf("precondition: secret unreadable on the host: %v", err)
	}
	reads := []string{
		"/in/up2",
		"/in/updir/outside/secret",
		"/in/deep/secret",
		"/hostabs",
		"/hostdir/secret",
		"/rootabs",
		"/in/chain",
		"/in/hostparent/outside/secret",
		"/../outside/secret",
		"/../../../outside/secret",
		"/in/../../outside/secret",
	}
	for _, name := range reads {
		got, err := fsys.ReadFile(name)
		if string(got) == "SECRET" {
			t.Errorf("ReadFile(%q) escaped the root", name)
		}
		if err == nil {
			t.Errorf("ReadFile(%q) = %q, want an error (nothing exists there inside the root)", name, got)
		}
		if _, err := fsys.Stat(name); err == nil {
			t.Errorf("Stat(%q) succeeded; nothing exists there inside the root", name)
		}
	}
	// Writes, mkdirs and links through the escape routes stay inside.
	_ = fsys.WriteFile("/in/up2", []byte("x"), 0o644)
	_ = fsys.WriteFile("/in/updir/outside/new", []byte("x"), 0o644)
	_ = fsys.MkdirAll("/in/deep/newdir", 0o755)
	_ = fsys.Symlink("x", "/hostdir/newlink")
	_ = fsys.Rename("/in/up2", "/in/updir/outside/moved")
	_ = fsys.RemoveAll("/in/updir/outside")
	_ = fsys.Chmod("/hostabs", 0o600)
	entries, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"secret"}, vfstest.EntryNames(entries)); diff != "" {
		t.Errorf("outside dir changed (-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(secret); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("secret changed: %v %v", fi, err)
	}
	// The same links, resolved as in a chroot, do reach files inside.
	if err := fsys.MkdirAll("/outside", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fsys.WriteFile("/outside/secret", []byte("inner"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/in/up2", "/in/updir/outside/secret", "/rootabs", "/in/chain"} {
		got, err := fsys.ReadFile(name)
		if err != nil || string(got) != "inner" {
			t.Errorf("ReadFile(%q) = %q, %v; want the file inside the root", name, got, err)
		}
	}
}

func TestRootedHopLimit(t *testing.T) {
	t.Parallel()
	fsys := osfs.NewRooted(t.TempDir())
	build(t, fsys, []node{{path: "/f", data: "end"}, {path: "/l0", target: "f"}})
	for i := 1; i <= vfs.MaxSymlinkHops; i++ {
		build(t, fsys, []node{{path: "/l" + itoa(i), target: "l" + itoa(i-1)}})
	}
	// l39 needs 40 hops: the limit itself is allowed.
	if got, err := fsys.ReadFile("/l" + itoa(vfs.MaxSymlinkHops-1)); err != nil || string(got) != "end" {
		t.Errorf("40 hops: %q, %v; want success", got, err)
	}
	_, err := fsys.ReadFile("/l" + itoa(vfs.MaxSymlinkHops))
	if !errors.Is(err, vfs.ErrLoop) {
		t.Errorf("41 hops: %v, want ErrLoop", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := osfs.New()
	if fsys.Root() != "" {
		t.Errorf("Root() = %q, want empty", fsys.Root())
	}
	abs := filepath.ToSlash(dir)
	build(t, fsys, []node{
		{path: abs + "/a", dir: true},
		{path: abs + "/a/f", data: "F"},
		{path: abs + "/b", dir: true},
		{path: abs + "/l", target: abs + "/a/f"},
	})
	if got, err := fsys.ReadFile(abs + "/l"); err != nil || string(got) != "F" {
		t.Errorf("ReadFile through host link = %q, %v", got, err)
	}
	if got, err := fsys.ReadLink(abs + "/l"); err != nil || got != abs+"/a/f" {
		t.Errorf("ReadLink = %q, %v", got, err)
	}
	if fi, err := fsys.Stat(abs + "/l"); err != nil || fi.Name() != "l" || !fi.Mode().IsRegular() || fi.Size() != 1 {
		t.Errorf("Stat through host link = %v, %v; want the one-byte file, named l", fi, err)
	}
	if fi, err := fsys.Lstat(abs + "/l"); err != nil || fi.Name() != "l" || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat of host link = %v, %v; want the link l", fi, err)
	}
	if _, err := fsys.Lstat(abs + "/nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lstat of a missing host file = %v, want fs.ErrNotExist", err)
	}
	if err := fsys.Rename(abs+"/a", abs+"/b"); err != nil {
		t.Errorf("Rename dir onto empty dir: %v, want success as in rename(2)", err)
	}
	for _, op := range []struct {
		name string
		err  error
	}{
		{"WriteFile", fsys.WriteFile("rel", nil, 0o644)},
		{"Mkdir", fsys.Mkdir("rel", 0o755)},
		{"MkdirAll", fsys.MkdirAll("rel/x", 0o755)},
		{"RemoveAll", fsys.RemoveAll("rel")},
		{"Rename", fsys.Rename("rel", abs+"/x")},
		{"Symlink", fsys.Symlink("t", "rel")},
	} {
		if !errors.Is(op.err, fs.ErrInvalid) {
			t.Errorf("%s of a relative name: %v, want ErrInvalid", op.name, op.err)
		}
	}
	_, err := fsys.Stat("rel")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "rel" || !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Stat(rel) = %#v, want *fs.PathError wrapping ErrInvalid", err)
	}
}

// TestHostAndRootedAgree runs the same relative-link tree on both views.
func TestHostAndRootedAgree(t *testing.T) {
	t.Parallel()
	hostDir := filepath.ToSlash(t.TempDir())
	host := osfs.New()
	root := osfs.NewRooted(t.TempDir())
	var hostNodes []node
	for _, n := range baseTree {
		if n.target != "" && n.target[0] == '/' {
			continue // absolute targets mean different things in the two views
		}
		n.path = hostDir + n.path
		hostNodes = append(hostNodes, n)
	}
	build(t, host, hostNodes)
	build(t, root, baseTree)
	for _, n := range hostNodes {
		name := n.path[len(hostDir):]
		hd, herr := host.ReadFile(n.path)
		rd, rerr := root.ReadFile(name)
		if string(hd) != string(rd) || errno(herr) != errno(rerr) {
			t.Errorf("ReadFile(%s): host %q %v, rooted %q %v", name, hd, herr, rd, rerr)
		}
	}
}

func errno(err error) syscall.Errno {
	var no syscall.Errno
	errors.As(err, &no)
	return no
}

func TestRootedConcurrent(t *testing.T) {
	t.Parallel()
	fsys := rooted(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			name := "/e/f" + itoa(i)
			for range 20 {
				if err := fsys.WriteFile(name, []byte(name), 0o644); err != nil {
					t.Error(err)
					return
				}
				if got, err := fsys.ReadFile("/d/abs"); err != nil || string(got) != "T" {
					t.Errorf("ReadFile = %q, %v", got, err)
					return
				}
			}
		})
	}
	wg.Wait()
	list, err := fsys.ReadDir("/e")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 9 || !slices.IsSortedFunc(list, func(a, b fs.DirEntry) int {
		return strings.Compare(a.Name(), b.Name())
	}) {
		t.Errorf("ReadDir(/e) = %v, want 9 sorted entries", list)
	}
}

func TestFileCapabilities(t *testing.T) {
	t.Parallel()
	fsys := rooted(t)
	f, err := fsys.OpenFile("/d/target.txt", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rw, ok := f.(interface {
		io.ReaderAt
		io.WriterAt
		io.Seeker
		Truncate(int64) error
		Sync() error
	})
	if !ok {
		t.Fatalf("file %T lacks ReaderAt/WriterAt/Seeker/Truncate/Sync", f)
	}
	if _, err := rw.WriteAt([]byte("XY"), 1); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3)
	if _, err := rw.ReadAt(buf, 0); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("TXY", string(buf)); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

// TestRootedRemoveAllRoot: RemoveAll("/") removes everything below the
// root and then fails with EBUSY, as the kernel refuses to remove "/".
func TestRootedRemoveAllRoot(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"/", "//"} {
		fsys := rooted(t)
		err := fsys.RemoveAll(name)
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != name || !errors.Is(err, syscall.EBUSY) {
			t.Errorf("RemoveAll(%q) = %v, want *fs.PathError naming it with EBUSY", name, err)
		}
		list, err := fsys.ReadDir("/")
		if err != nil || len(list) != 0 {
			t.Errorf("after RemoveAll(%q): ReadDir(/) = %v, %v; want an empty root", name, list, err)
		}
	}
}

// TestRootedRemoveAllLargeDirectory: RemoveAll reads a directory in
// batches of 1,024 names and, like os.RemoveAll, reads it again from the
// start after each full batch, so a directory of more entries than one
// batch goes whole.
func TestRootedRemoveAllLargeDirectory(t *testing.T) {
	t.Parallel()
	fsys := osfs.NewRooted(t.TempDir())
	if err := fsys.Mkdir("/big", 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 1500 {
		if err := fsys.WriteFile("/big/f"+itoa(i), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.RemoveAll("/big"); err != nil {
		t.Fatalf("RemoveAll(/big) of 1,500 entries = %v", err)
	}
	if _, err := fsys.Lstat("/big"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lstat(/big) after RemoveAll = %v, want fs.ErrNotExist", err)
	}
}

// TestRootedRemoveAllErrorMatchesOS: where the kernel refuses to unlink a
// name for another reason than its being a directory (here a component too
// long), RemoveAll reports that unlinkat error, as os.RemoveAll does,
// rather than trying the name as a directory.
func TestRootedRemoveAllErrorMatchesOS(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	long := strings.Repeat("x", 256)
	want := os.RemoveAll(filepath.Join(host, long))
	got := osfs.NewRooted(host).RemoveAll("/" + long)
	var wantPE, gotPE *fs.PathError
	if !errors.As(want, &wantPE) || errno(want) != syscall.ENAMETOOLONG {
		t.Fatalf("precondition: os.RemoveAll of a 256-byte name = %#v, want an ENAMETOOLONG *fs.PathError", want)
	}
	if !errors.As(got, &gotPE) || gotPE.Op != wantPE.Op || errno(got) != errno(want) {
		t.Errorf("RemoveAll(/%s...) = %#v, want op %q with %v as os.RemoveAll gives", long[:8], got, wantPE.Op, errno(want))
	}
}

// TestRootedRootGone: once the directory a rooted FS maps "/" to is gone,
// every call fails with fs.ErrNotExist naming the vfs path.
func TestRootedRootGone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := osfs.NewRooted(dir)
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	_, openErr := fsys.Open("/x")
	_, statErr := fsys.Stat("/")
	for name, err := range map[string]error{"/x": openErr, "/": statErr, "/f": fsys.WriteFile("/f", nil, 0o644)} {
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != name || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a call on %s with the root gone = %v, want a *fs.PathError naming it with fs.ErrNotExist", name, err)
		}
	}
}
