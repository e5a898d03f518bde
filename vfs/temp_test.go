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

// plantingFS plants a link to /outside/victim at the first name CreateTemp
// tries, as an attacker who guessed it would.
type plantingFS struct {
	*vfs.MemFS
	planted string
}

func (p *plantingFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if p.planted == "" {
		p.planted = name
		if err := p.MemFS.Symlink("/outside/victim", name); err != nil {
			return nil, err
		}
	}
	return p.MemFS.OpenFile(name, flag, perm)
}

func TestCreateTempNeverFollowsAPlantedLink(t *testing.T) {
	t.Parallel()
	m := memWith(t, "/", vfstest.Tree{"d": vfstest.Dir(), "outside": vfstest.Dir()})
	p := &plantingFS{MemFS: m}
	f, name, err := vfs.CreateTemp(p, "/d", ".x.*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("secret")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if p.planted == "" || name == p.planted {
		t.Fatalf("name %q, planted %q: the planted name must be refused and another drawn", name, p.planted)
	}
	if _, err := m.Lstat("/outside/victim"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the link's target was created: %v", err)
	}
	fi, err := m.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("Lstat(%q) = %v, %v; want a regular 0600 file", name, fi, err)
	}
	base := path.Base(name)
	if path.Dir(name) != "/d" || !strings.HasPrefix(base, ".x.") || !strings.HasSuffix(base, ".tmp") || len(base) <= len(".x..tmp") {
		t.Fatalf("name %q does not follow the pattern", name)
	}
}

func TestCreateTempRefusesSeparatorsAndMissingCapability(t *testing.T) {
	t.Parallel()
	m := memWith(t, "/", vfstest.Tree{"d": vfstest.Dir()})
	if _, _, err := vfs.CreateTemp(m, "/d", "a/*"); err == nil {
		t.Fatal("a pattern with a separator was accepted")
	}
	if _, _, err := vfs.CreateTemp(openOnly{m}, "/d", "*"); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("CreateTemp without OpenFile = %v, want ErrUnsupported", err)
	}
	if _, _, err := vfs.CreateTemp(m, "/missing", "*"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("CreateTemp in a missing directory = %v, want ErrNotExist", err)
	}
}

func TestReplaceFile(t *testing.T) {
	t.Parallel()
	t.Run("replaces content and mode, and leaves no temporary file", func(t *testing.T) {
		t.Parallel()
		m := memWith(t, "/", vfstest.Tree{"d/f": vfstest.File("old")})
		if err := vfs.ReplaceFile(m, "/d/f", []byte("new"), 0o755); err != nil {
			t.Fatal(err)
		}
		expectTree(t, m, "/d", vfstest.Tree{"f": vfstest.File("new").WithMode(0o755)})
	})
	t.Run("a link at the name is replaced, never written through", func(t *testing.T) {
		t.Parallel()
		m := memWith(t, "/", vfstest.Tree{"d/f": vfstest.Link("/outside/victim"), "outside/victim": vfstest.File("keep")})
		if err := vfs.ReplaceFile(m, "/d/f", []byte("new"), 0o600); err != nil {
			t.Fatal(err)
		}
		expectTree(t, m, "/", vfstest.Tree{"d/f": vfstest.File("new").WithMode(0o600), "outside/victim": vfstest.File("keep")})
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
			m := memWith(t, "/", vfstest.Tree{"d/f": vfstest.File("old value")})
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
		m := memWith(t, "/", vfstest.Tree{"d": vfstest.Dir()})
		if err := vfs.ReplaceFile(openFileOnly{openOnly{m}}, "/d/f", []byte("x"), 0o644); !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("ReplaceFile = %v, want ErrUnsupported", err)
		}
		expectTree(t, m, "/d", vfstest.Tree{})
	})
}

// expectTree fails the test unless root holds exactly want.
func expectTree(t *testing.T, fsys vfs.FS, root string, want vfstest.Tree) {
	t.Helper()
	if d := cmp.Diff(want.Entries(t), snapshotOf(t, fsys, root)); d != "" {
		t.Fatalf("%s (-want +got):\n%s", root, d)
	}
}
