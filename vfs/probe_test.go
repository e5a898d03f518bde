package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// TestProbe checks that Probe says what Stat says, and Lprobe what Lstat
// says, of every name of a tree with links (to files, to directories,
// dangling, in a loop, through a file) and of names that are not valid:
// the same mode, or an error that wraps the same errno, on a MemFS and
// through the Stat and Lstat fallback.
func TestProbe(t *testing.T) {
	m := vfs.NewMemFS(vfs.MemOptions{})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(m.MkdirAll("/d/sub", 0o755))
	must(m.WriteFile("/d/f", []byte("x"), 0o600))
	must(m.Symlink("/d", "/ld"))
	must(m.Symlink("f", "/d/lf"))
	must(m.Symlink("/missing", "/dangling"))
	must(m.Symlink("/loop2", "/loop1"))
	must(m.Symlink("/loop1", "/loop2"))
	must(m.Symlink("../ld/sub", "/d/rel"))
	names := []string{
		"/", "/d", "/d/sub", "/d/f", "/ld", "/ld/f", "/ld/sub", "/d/lf", "/ld/lf",
		"/dangling", "/loop1", "/loop1/x", "/d/rel", "/d/f/x", "/ld/f/x", "/missing",
		"/d/missing/x", "/dangling/x", "", "relative", "/d/../d", "/d//f", "/d/\x00",
		"/" + strings.Repeat("a", 5000),
	}
	for _, backend := range []struct {
		name  string
		fsys  vfs.FS
		probe func(vfs.FS, string) (fs.FileMode, error)
		stat  func(vfs.FS, string) (fs.FileInfo, error)
	}{
		{"memfs", m, vfs.Probe, vfs.Stat},
		{"fallback", openOnly{m}, vfs.Probe, vfs.Stat},
		{"memfs lprobe", m, vfs.Lprobe, vfs.Lstat},
		{"lprobe fallback", lstatOnly{openOnly{m}}, vfs.Lprobe, vfs.Lstat},
	} {
		for _, name := range names {
			mode, err := backend.probe(backend.fsys, name)
			fi, serr := backend.stat(backend.fsys, name)
			if (err == nil) != (serr == nil) {
				t.Errorf("%s: Probe(%q) error %v, Stat error %v", backend.name, name, err, serr)
				continue
			}
			if serr != nil {
				var pe *fs.PathError
				if !errors.As(serr, &pe) {
					t.Fatalf("%s: Stat(%q) error %T", backend.name, name, serr)
				}
				if !errors.Is(err, pe.Err) {
					t.Errorf("%s: Probe(%q) error %v, Stat's wraps %v", backend.name, name, err, pe.Err)
				}
				for _, target := range []error{fs.ErrNotExist, fs.ErrExist, fs.ErrInvalid, fs.ErrPermission} {
					if errors.Is(err, target) != errors.Is(serr, target) {
						t.Errorf("%s: Probe(%q): errors.Is(%v, %v) differs from Stat's %v", backend.name, name, err, target, serr)
					}
				}
				continue
			}
			if mode != fi.Mode() {
				t.Errorf("%s: Probe(%q) = %v, Stat's mode %v", backend.name, name, mode, fi.Mode())
			}
		}
	}
}

// lstatOnly adds Lstat to openOnly, for the fallback of Lprobe.
type lstatOnly struct{ openOnly }

func (l lstatOnly) Lstat(name string) (fs.FileInfo, error) { return l.m.Lstat(name) }

// TestProbeAllocs checks that a MemFS probes (and lprobes) a missing name
// and an existing one, a link among them, without allocating (following
// a link costs what the walk costs, as for Stat).
func TestProbeAllocs(t *testing.T) {
	m := vfs.NewMemFS(vfs.MemOptions{})
	if err := m.MkdirAll("/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := m.Symlink("/missing", "/a/l"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/a/b", "/a", "/a/missing", "/a/missing/x", "/a/b/c"} {
		if n := testing.AllocsPerRun(100, func() { _, _ = vfs.Probe(m, name) }); n != 0 {
			t.Errorf("Probe(%q): %v allocs, want 0", name, n)
		}
	}
	for _, name := range []string{"/a/b", "/a/l", "/a/missing", "/a/missing/x"} {
		if n := testing.AllocsPerRun(100, func() { _, _ = vfs.Lprobe(m, name) }); n != 0 {
			t.Errorf("Lprobe(%q): %v allocs, want 0", name, n)
		}
	}
}

// pipeStat is a MemFS whose Stat reports one name as a named pipe.
type pipeStat struct {
	*vfs.MemFS
	pipe string
}

func (p pipeStat) Stat(name string) (fs.FileInfo, error) {
	fi, err := p.MemFS.Stat(name)
	if err == nil && name == p.pipe {
		return pipeModeInfo{fi}, nil
	}
	return fi, err
}

type pipeModeInfo struct{ fs.FileInfo }

func (pipeModeInfo) Mode() fs.FileMode { return fs.ModeNamedPipe | 0o644 }

// TestProbeEmbeddedMemFS checks that a type embedding a *MemFS is probed
// through its own Stat, not the MemFS's.
func TestProbeEmbeddedMemFS(t *testing.T) {
	m := vfs.NewMemFS(vfs.MemOptions{})
	if err := m.WriteFile("/p", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mode, err := vfs.Probe(pipeStat{m, "/p"}, "/p")
	if err != nil || mode.Type() != fs.ModeNamedPipe {
		t.Errorf("Probe = %v, %v; want a named pipe", mode, err)
	}
}

// TestWriteFileString checks that WriteFileString leaves what WriteFile of
// the same bytes leaves, on a MemFS and through the fallback, for contents
// that fit the slab's batches and ones that do not, and for the errors.
func TestWriteFileString(t *testing.T) {
	for _, s := range []string{"", "x", strings.Repeat("a", 300), strings.Repeat("b", 600), strings.Repeat("c", 5000)} {
		for _, backend := range []struct {
			name string
			wrap func(*vfs.MemFS) vfs.FS
		}{{"memfs", func(m *vfs.MemFS) vfs.FS { return m }}, {"fallback", func(m *vfs.MemFS) vfs.FS { return openFileOnly{openOnly{m}} }}} {
			a, b := vfs.NewMemFS(vfs.MemOptions{}), vfs.NewMemFS(vfs.MemOptions{})
			for _, m := range []*vfs.MemFS{a, b} {
				if err := m.MkdirAll("/d", 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range []string{"/d/f", "/d/f", "/missing/f", "/d"} {
				errS := vfs.WriteFileString(backend.wrap(a), name, s, 0o600)
				errB := vfs.WriteFile(backend.wrap(b), name, []byte(s), 0o600)
				if fmt.Sprint(errS) != fmt.Sprint(errB) {
					t.Errorf("%s, %d bytes, %s: error %v, WriteFile's %v", backend.name, len(s), name, errS, errB)
				}
			}
			gotS, errS := a.ReadFile("/d/f")
			gotB, errB := b.ReadFile("/d/f")
			if errS != nil || errB != nil || string(gotS) != string(gotB) || (gotS == nil) != (gotB == nil) {
				t.Errorf("%s, %d bytes: read %q (%v), WriteFile's %q (%v)", backend.name, len(s), gotS, errS, gotB, errB)
			}
		}
	}
}
