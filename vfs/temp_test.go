package vfs_test

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// The semantics every backend owes CreateTemp and ReplaceFile (no link
// followed at the name, links replaced, modes exact) are conformance
// checks (vfstest, "temp.*"); these tests cover the helpers' own logic.

func TestCreateTempRefusesSeparatorsAndMissingCapability(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"d": vfstest.Dir()})
	if _, _, err := vfs.CreateTemp(m, "/d", "a/*"); err == nil {
		t.Fatal("a pattern with a separator was accepted")
	}
	if _, _, err := vfs.CreateTemp(openOnly{m}, "/d", "*"); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("CreateTemp without OpenFile = %v, want ErrUnsupported", err)
	}
	if _, _, err := vfs.CreateTemp(m, "/missing", "*"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("CreateTemp in a missing directory = %v, want ErrNotExist", err)
	}
	// An io/fs view is read-only: nothing is created through it.
	if _, _, err := vfs.CreateTemp(vfs.Sub(m, "/"), "d", "*"); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("CreateTemp on a Sub view = %v, want ErrUnsupported", err)
	}
	if err := vfs.ReplaceFile(vfs.Sub(m, "/"), "d/f", []byte("x"), 0o644); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("ReplaceFile on a Sub view = %v, want ErrUnsupported", err)
	}
	expectTree(t, m, "/d", vfstest.Tree{})
}

func TestReplaceFile(t *testing.T) {
	t.Parallel()
	t.Run("replaces content and mode, and leaves no temporary file", func(t *testing.T) {
		t.Parallel()
		m := vfstest.MemWith(t, "/", vfstest.Tree{"d/f": vfstest.File("old")})
		if err := vfs.ReplaceFile(m, "/d/f", []byte("new"), 0o755); err != nil {
			t.Fatal(err)
		}
		expectTree(t, m, "/d", vfstest.Tree{"f": vfstest.File("new").WithMode(0o755)})
	})
	for _, c := range []struct {
		name string
		rule faultfs.Rule
	}{
		{"full disk at the write", faultfs.OnNthOf(faultfs.KindWrite, 1, vfs.ErrNoSpace)},
		{"close fails", faultfs.OnNthOf(faultfs.KindClose, 1, vfs.ErrIO)},
		{"chmod fails", faultfs.OnNthOf(faultfs.KindChmod, 1, vfs.ErrIO)},
		{"interrupted before the rename", faultfs.OnNthOf(faultfs.KindRename, 1, vfs.ErrIO)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := vfstest.MemWith(t, "/", vfstest.Tree{"d/f": vfstest.File("old value")})
			f := faultfs.New(m, c.rule)
			if err := vfs.ReplaceFile(f, "/d/f", []byte("new value"), 0o644); err == nil {
				t.Fatal("ReplaceFile succeeded under a fault")
			}
			if len(f.Injected()) == 0 {
				t.Fatal("precondition: the fault never fired")
			}
			expectTree(t, m, "/d", vfstest.Tree{"f": vfstest.File("old value")})
		})
	}
	t.Run("missing capabilities write nothing", func(t *testing.T) {
		t.Parallel()
		m := vfstest.MemWith(t, "/", vfstest.Tree{"d": vfstest.Dir()})
		if err := vfs.ReplaceFile(openFileOnly{openOnly{m}}, "/d/f", []byte("x"), 0o644); !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("ReplaceFile = %v, want ErrUnsupported", err)
		}
		expectTree(t, m, "/d", vfstest.Tree{})
	})
}

// expectTree fails the test unless root holds exactly want.
func expectTree(t *testing.T, fsys vfs.FS, root string, want vfstest.Tree) {
	t.Helper()
	if d := cmp.Diff(want.Entries(t), vfstest.Snapshot(t, fsys, root)); d != "" {
		t.Fatalf("%s (-want +got):\n%s", root, d)
	}
}

// TestCreateTempPatternStartingWithStar: a pattern's last "*" is where the
// random part goes, also when it is the first byte, as os.CreateTemp's.
func TestCreateTempPatternStartingWithStar(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"d": vfstest.Dir()})
	f, name, err := vfs.CreateTemp(m, "/d", "*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if base := path.Base(name); strings.Contains(base, "*") || !strings.HasSuffix(base, ".tmp") || len(base) == len(".tmp") {
		t.Errorf("CreateTemp(*.tmp) made %q", name)
	}
}

// TestWriteFileFallbackReportsClose: WriteFile through OpenFile returns
// the error of a Close that fails after a successful Write.
func TestWriteFileFallbackReportsClose(t *testing.T) {
	t.Parallel()
	f := faultfs.New(vfstest.MemWith(t, "/", vfstest.Tree{"d": vfstest.Dir()}), faultfs.OnNthOf(faultfs.KindClose, 1, vfs.ErrIO))
	if err := vfs.WriteFile(openFileOf{f}, "/d/f", []byte("x"), 0o644); !errors.Is(err, vfs.ErrIO) {
		t.Errorf("WriteFile = %v, want the Close's EIO", err)
	}
}

// TestReplaceFileIf: the condition sees what the name holds (or that it
// is missing) and decides whether it is replaced; a name it keeps is left
// as it was.
func TestReplaceFileIf(t *testing.T) {
	t.Parallel()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	if err := fsys.WriteFile("/a", []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	isMissing := func(_ []byte, exists bool) bool { return !exists }
	for _, tt := range []struct {
		name, want string
		cond       func([]byte, bool) bool
		replaced   bool
	}{
		{"/a", "old", isMissing, false},
		{"/b", "new", isMissing, true},
		{"/a", "new", func(data []byte, exists bool) bool { return exists && string(data) == "old" }, true},
	} {
		replaced, err := vfs.ReplaceFileIf(fsys, tt.name, []byte("new"), 0o600, tt.cond)
		if err != nil || replaced != tt.replaced {
			t.Errorf("ReplaceFileIf(%s) = %v, %v; want %v, nil", tt.name, replaced, err, tt.replaced)
		}
		if got, err := fsys.ReadFile(tt.name); err != nil || string(got) != tt.want {
			t.Errorf("%s = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	// A read that fails is the error, and nothing is replaced.
	ffs := faultfs.New(fsys, faultfs.OnNthOf(faultfs.KindReadFile, 1, vfs.ErrIO))
	replaced, err := vfs.ReplaceFileIf(ffs, "/a", []byte("other"), 0o600, func([]byte, bool) bool { return true })
	if replaced || !errors.Is(err, vfs.ErrIO) {
		t.Errorf("ReplaceFileIf with a failing read = %v, %v; want false, EIO", replaced, err)
	}
	if got, err := fsys.ReadFile("/a"); err != nil || string(got) != "new" {
		t.Errorf("/a = %q, %v after a failed read; want %q", got, err, "new")
	}
}
