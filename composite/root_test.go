package composite_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// rootBackends are the file systems the tests of a root's cleanup and
// sweep run on, each with the directory its machine lives in: memory, the
// host (in a temporary directory) and a rooted host directory.
func rootBackends(t *testing.T) map[string]func(t *testing.T) (vfs.ReadWriteFS, string) {
	t.Helper()
	return map[string]func(t *testing.T) (vfs.ReadWriteFS, string){
		"mem": func(t *testing.T) (vfs.ReadWriteFS, string) {
			t.Helper()
			return vfs.NewMemFS(vfs.MemOptions{}), "/"
		},
		"host": func(t *testing.T) (vfs.ReadWriteFS, string) {
			t.Helper()
			return osfs.New(), t.TempDir() + "/"
		},
		"rooted": func(t *testing.T) (vfs.ReadWriteFS, string) {
			t.Helper()
			return osfs.NewRooted(t.TempDir()), "/"
		},
	}
}

// rootMachine lays out a temp dir and a durable pi folder holding
// auth.json ("SECRET") below base, and returns both directories.
func rootMachine(t *testing.T, fsys vfs.ReadWriteFS, base string) (tmp, durable string) {
	t.Helper()
	tmp, durable = base+"tmp", base+"home/.pi/agent"
	must(t, fsys.MkdirAll(tmp, 0o755))
	must(t, fsys.MkdirAll(durable, 0o755))
	must(t, fsys.WriteFile(durable+"/auth.json", []byte("SECRET"), 0o600))
	return tmp, durable
}

// TestCleanupUnlinksARootReplacedByALink: an agent that replaced its root by
// a link to durable data loses nothing at cleanup.
func TestCleanupUnlinksARootReplacedByALink(t *testing.T) {
	for name, mk := range rootBackends(t) {
		t.Run(name, func(t *testing.T) {
			fsys, base := mk(t)
			tmp, durable := rootMachine(t, fsys, base)
			root, err := composite.CreateRoot(fsys, tmp, "eng", "pi", nil)
			must(t, err)
			must(t, fsys.RemoveAll(root))
			must(t, fsys.Symlink(durable, root))
			must(t, composite.Cleanup(fsys, root))
			if _, err := fsys.Lstat(root); err == nil {
				t.Errorf("root link %s survived", root)
			}
			if data, err := fsys.ReadFile(durable + "/auth.json"); err != nil || string(data) != "SECRET" {
				t.Errorf("durable auth.json = %q, %v", data, err)
			}
		})
	}
}

// TestCleanupUnlinksLinksInsideTheRoot: links planted in the root (to a file,
// a directory, a parent of the root) are unlinked, never followed.
func TestCleanupUnlinksLinksInsideTheRoot(t *testing.T) {
	for name, mk := range rootBackends(t) {
		t.Run(name, func(t *testing.T) {
			fsys, base := mk(t)
			tmp, durable := rootMachine(t, fsys, base)
			must(t, fsys.MkdirAll(durable+"/plugins", 0o755))
			must(t, fsys.WriteFile(durable+"/plugins/p.json", []byte("p"), 0o644))
			root, err := composite.CreateRoot(fsys, tmp, "eng", "pi", nil)
			must(t, err)
			must(t, fsys.MkdirAll(root+"/deep/er", 0o755))
			must(t, fsys.Symlink(durable+"/plugins", root+"/plugins"))
			must(t, fsys.Symlink(durable+"/plugins/p.json", root+"/deep/p.json"))
			must(t, fsys.Symlink(base+"home", root+"/deep/er/home"))
			must(t, fsys.Symlink("../..", root+"/deep/er/up"))
			must(t, composite.Cleanup(fsys, root))
			if data, err := fsys.ReadFile(durable + "/plugins/p.json"); err != nil || string(data) != "p" {
				t.Errorf("durable p.json = %q, %v", data, err)
			}
			if _, err := fsys.Lstat(root); err == nil {
				t.Errorf("root %s survived", root)
			}
		})
	}
}

// TestSweepSkipsLinksAndFreshRoots: a link named like a stale root (to a
// directory with an old mtime) and a fresh root survive the sweep.
func TestSweepSkipsLinksAndFreshRoots(t *testing.T) {
	for name, mk := range rootBackends(t) {
		t.Run(name, func(t *testing.T) {
			fsys, base := mk(t)
			tmp, durable := rootMachine(t, fsys, base)
			old := time.Now().Add(-30 * 24 * time.Hour)
			must(t, fsys.Chtimes(durable, old, old))
			link := tmp + "/outfitter-eng-pi-AAAAAA"
			must(t, fsys.Symlink(durable, link))
			fresh, err := composite.CreateRoot(fsys, tmp, "eng", "pi", nil)
			must(t, err)
			got := composite.Sweep(fsys, tmp, time.Now(), 0)
			if len(got) != 0 {
				t.Errorf("Sweep removed %q; want nothing", got)
			}
			for _, p := range []string{link, fresh, durable + "/auth.json"} {
				if _, err := fsys.Lstat(p); err != nil {
					t.Errorf("%s: %v", p, err)
				}
			}
		})
	}
}

// TestSweepRemovesAnyStaleOutfitterDirectory: the sweep removes any
// stale real directory whose name starts with "outfitter-", as upstream's
// does, not only names of the root pattern.
func TestSweepRemovesAnyStaleOutfitterDirectory(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "outfitter-notes")
	if err := os.MkdirAll(keep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keep, "todo.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-30 * 24 * time.Hour)
	if err := os.Chtimes(keep, old, old); err != nil {
		t.Fatal(err)
	}
	got := composite.Sweep(osfs.New(), dir, time.Now(), 0)
	if !slices.Equal(got, []string{keep}) {
		t.Errorf("Sweep = %q; want %q (upstream removes every stale outfitter-* directory)", got, keep)
	}
}
