package hackpadfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	hpfs "github.com/hack-pad/hackpadfs"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/hackpadfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// eachBackend runs test in parallel subtests on the adapter over a MemFS
// (below /work/tree) and over a rooted OS FS (below /).
func eachBackend(t *testing.T, test func(t *testing.T, fsys *hackpadfs.FS)) {
	t.Helper()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	if err := mem.MkdirAll("/work/tree", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, fsys := range map[string]*hackpadfs.FS{
		"memfs":    hackpadfs.New(mem, "/work/tree"),
		"rootedos": hackpadfs.New(osfs.NewRooted(t.TempDir()), "/"),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, fsys)
		})
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, fsys *hackpadfs.FS) {
		tests := []struct {
			name    string
			err     error
			wantOp  string
			want    string
			wantErr error
		}{
			{name: "invalid open", err: second(fsys.Open("a/../b")), wantOp: "open", want: "a/../b", wantErr: syscall.EINVAL},
			{name: "absolute name", err: fsys.Mkdir("/a", 0o755), wantOp: "mkdir", want: "/a", wantErr: syscall.EINVAL},
			{name: "missing", err: second(fsys.Stat("nope/x")), wantOp: "stat", want: "nope/x", wantErr: fs.ErrNotExist},
			{name: "remove missing", err: fsys.Remove("nope"), wantOp: "remove", want: "nope", wantErr: fs.ErrNotExist},
			{name: "readlink-free lstat", err: second(fsys.Lstat("nope")), wantOp: "lstat", want: "nope", wantErr: fs.ErrNotExist},
		}
		for _, tt := range tests {
			var pe *fs.PathError
			if !errors.As(tt.err, &pe) {
				t.Errorf("%s: %#v is not a *fs.PathError", tt.name, tt.err)
				continue
			}
			if pe.Op != tt.wantOp || pe.Path != tt.want || !errors.Is(pe, tt.wantErr) {
				t.Errorf("%s: %v, want op %q path %q wrapping %v", tt.name, pe, tt.wantOp, tt.want, tt.wantErr)
			}
		}
		err := fsys.Rename("nope", "x/../y")
		var le *hpfs.LinkError
		if !errors.As(err, &le) || !errors.Is(err, syscall.EINVAL) {
			t.Errorf("Rename to an invalid name: %#v, want *hackpadfs.LinkError wrapping EINVAL", err)
		}
		err = fsys.Rename("nope", "y")
		if !errors.As(err, &le) || le.Old != "nope" || le.New != "y" || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Rename of a missing name: %#v, want *hackpadfs.LinkError with hackpadfs names", err)
		}
	})
}

// TestPOSIXRename asserts positively what the skipped fstest rename cases
// get wrong.
func TestPOSIXRename(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, fsys *hackpadfs.FS) {
		for _, d := range []string{"foo", "bar"} {
			if err := fsys.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := fsys.Rename("foo", "foo"); err != nil {
			t.Errorf("Rename(foo, foo): %v, want success as in rename(2)", err)
		}
		if err := fsys.Rename("foo", "bar"); err != nil {
			t.Errorf("Rename(foo, bar) onto an empty dir: %v, want success", err)
		}
		if _, err := fsys.Stat("foo"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("foo after the rename: %v, want ErrNotExist", err)
		}
	})
}

func TestSymlink(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, fsys *hackpadfs.FS) {
		if err := fsys.Mkdir("d", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := hpfs.WriteFullFile(fsys, "d/f", []byte("F"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := fsys.Symlink("d/f", "l"); err != nil {
			t.Fatal(err)
		}
		fi, err := fsys.Lstat("l")
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("Lstat(l) = %v, %v; want a link", fi, err)
		}
		data, err := fsys.ReadFile("l")
		if err != nil || string(data) != "F" {
			t.Errorf("ReadFile(l) = %q, %v", data, err)
		}
		err = fsys.Symlink("x", "l")
		var le *hpfs.LinkError
		if !errors.As(err, &le) || le.New != "l" || !errors.Is(err, fs.ErrExist) {
			t.Errorf("Symlink onto a link: %#v, want *hackpadfs.LinkError naming l", err)
		}
	})
}

func second[T any](_ T, err error) error { return err }

// The adapter runs hackpadfs code on a MemFS subtree.
func ExampleNew() {
	mem := vfs.NewMemFS(vfs.MemOptions{})
	_ = mem.MkdirAll("/fixture/home", 0o755)
	fsys := hackpadfs.New(mem, "/fixture")

	_ = hpfs.WriteFullFile(fsys, "home/notes.txt", []byte("hi"), 0o644)
	data, _ := mem.ReadFile("/fixture/home/notes.txt")
	_, err := hpfs.Stat(fsys, "home/missing")
	fmt.Printf("%s\n%v\n", data, err)
	// Output:
	// hi
	// stat home/missing: no such file or directory
}

// New refuses a nil file system and a root that is not absolute, naming
// the root it was given.
func TestNewPanics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		fsys vfs.ReadWriteFS
		root string
		want string
	}{
		{"nil FS", nil, "/", "hackpadfs: nil FS"},
		{"relative root", vfstest.NewMem(t), "work/tree", "hackpadfs: root work/tree is not absolute"},
		{"empty root", vfstest.NewMem(t), "", "hackpadfs: root  is not absolute"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if got := recover(); got != tt.want {
					t.Errorf("New(%q) panicked with %v; want %q", tt.root, got, tt.want)
				}
			}()
			hackpadfs.New(tt.fsys, tt.root)
		})
	}
}
