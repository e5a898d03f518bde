package vfs_test

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestPropMkdirAllMatchesGeneric checks MemFS.MkdirAll, which creates the
// missing directories of a plain name in one walk, against the generic
// vfs.MkdirAll (Stat, MkdirAll of the parent, Mkdir, as os.MkdirAll) run
// through Stat, Lstat and Mkdir on an identical MemFS: same error (op,
// path, errno) and same resulting tree, modes and modification times
// included. The trees hold files, links to directories, dangling links and
// loops; names may carry a component too long to create; on a clone, the
// original must stay as it was.
func TestPropMkdirAllMatchesGeneric(t *testing.T) {
	t.Parallel()
	comps := []string{"a", "b", "c", "l", strings.Repeat("x", 256)}
	rapid.Check(t, func(t *rapid.T) {
		umask := rapid.SampledFrom([]fs.FileMode{0, 0o022, 0o077}).Draw(t, "umask")
		fast := vfs.NewMemFS(vfs.MemOptions{Umask: umask, Clock: vfstest.FixedClock()})
		slow := vfs.NewMemFS(vfs.MemOptions{Umask: umask, Clock: vfstest.FixedClock()})
		drawName := func(label string) string {
			n := rapid.IntRange(1, 4).Draw(t, label+"-depth")
			parts := make([]string, n)
			for i := range parts {
				parts[i] = rapid.SampledFrom(comps[:4]).Draw(t, fmt.Sprintf("%s-%d", label, i))
			}
			return "/" + strings.Join(parts, "/")
		}
		for i := range rapid.IntRange(0, 10).Draw(t, "setup-ops") {
			name := drawName(fmt.Sprintf("setup%d", i))
			op := rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("setup%d-op", i))
			target := rapid.SampledFrom([]string{"a", "../b", "/a/b", "nowhere", path.Base(name)}).Draw(t, fmt.Sprintf("setup%d-target", i))
			var errs [2]error
			for j, m := range []*vfs.MemFS{fast, slow} {
				switch op {
				case 0:
					errs[j] = m.Mkdir(name, 0o755)
				case 1:
					errs[j] = m.WriteFile(name, []byte("f"), 0o644)
				default:
					errs[j] = m.Symlink(target, name)
				}
			}
			if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
				t.Fatalf("setup diverged: %v, %v", errs[0], errs[1])
			}
		}
		name := drawName("mkdir")
		if rapid.IntRange(0, 5).Draw(t, "long") == 0 {
			name += "/" + comps[4] + "/d"
		}
		perm := rapid.SampledFrom([]fs.FileMode{0o755, 0o700, 0o2775}).Draw(t, "perm")

		var before []string
		origin := fast
		cloned := rapid.Bool().Draw(t, "clone")
		if cloned {
			// Copy-on-write: the original must not see the new directories.
			before = listing(t, fast)
			fast, slow = fast.Clone(), slow.Clone()
		}

		got := fast.MkdirAll(name, perm)
		want := vfs.MkdirAll(mkdirOnly{openOnly{slow}}, name, perm)
		if diff := cmp.Diff(fmt.Sprintf("%#v", want), fmt.Sprintf("%#v", got)); diff != "" {
			t.Fatalf("MkdirAll(%q) error (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff(listing(t, slow), listing(t, fast)); diff != "" {
			t.Fatalf("tree after MkdirAll(%q) (-want +got):\n%s", name, diff)
		}
		if cloned {
			if diff := cmp.Diff(before, listing(t, origin)); diff != "" {
				t.Fatalf("MkdirAll(%q) on a clone changed the original (-want +got):\n%s", name, diff)
			}
		}
	})
}

// listing returns every entry of m with its Lstat mode, size, modification
// time and link target.
func listing(t *rapid.T, m *vfs.MemFS) []string {
	t.Helper()
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		list, err := m.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range list {
			p := path.Join(dir, de.Name())
			fi, err := de.Info()
			if err != nil {
				t.Fatal(err)
			}
			line := fmt.Sprintf("%s %v %d %v", p, fi.Mode(), fi.Size(), fi.ModTime())
			if fi.Mode()&fs.ModeSymlink != 0 {
				target, err := m.ReadLink(p)
				if err != nil {
					t.Fatal(err)
				}
				line += " -> " + target
			}
			out = append(out, line)
			if fi.IsDir() {
				walk(p)
			}
		}
	}
	fi, err := m.Lstat("/")
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, fmt.Sprintf("/ %v", fi.ModTime()))
	walk("/")
	return out
}

func TestPlainRel(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		"a": true, "a/b": true, ".a/..b": true,
		"": false, "/a": false, "a/": false, "a//b": false, ".": false, "a/./b": false, "../a": false, "a/..": false,
	} {
		if got := vfs.PlainRel(p); got != want {
			t.Errorf("PlainRel(%q) = %v, want %v", p, got, want)
		}
	}
}
