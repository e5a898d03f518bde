package hackpadfs_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hack-pad/hackpadfs/fstest"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/hackpadfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// commonSkips names the hackpadfs fstest cases whose expectations are not
// POSIX (package os's own rules) or are wrong, with the reason.
func commonSkips() map[string]string {
	return map[string]string{
		// Both backends follow rename(2), not os.Rename.
		"fs.Rename/same_directory": "os.Rename refuses to rename a directory onto itself with EEXIST; " +
			"rename(2) succeeds and changes nothing",
		"fs.Rename/newpath_is_directory": "os.Rename refuses to rename a directory onto an existing empty " +
			"directory with EEXIST; rename(2) replaces it",
		// The case expects the directory's mode to be 0700 without
		// fs.ModeDir, which no directory has; it passes upstream only
		// because the default FileModeMask of 0 compares no bits.
		"fs.WriteFile/dir_exists": "expects a directory mode without fs.ModeDir",
	}
}

// runSuites runs hackpadfs's FS and File suites on the FS newFS returns and
// checks, once every case has run, that each skip named a real case.
func runSuites(t *testing.T, name string, mask os.FileMode, skips map[string]string, newFS func(tb testing.TB) fstest.SetupFS) {
	t.Helper()
	var mu sync.Mutex
	used := map[string]bool{}
	// The suite's own ShouldSkip skips without a reason; a case is skipped
	// here instead, when it sets up its file system, saying why.
	skipFor := func(tb testing.TB) {
		tb.Helper()
		for s, reason := range skips {
			if strings.HasSuffix(tb.Name(), "/"+s) {
				mu.Lock()
				used[s] = true
				mu.Unlock()
				tb.Skip("skipped: " + reason)
			}
		}
	}
	opts := fstest.FSOptions{
		Name: name,
		TestFS: func(tb testing.TB) fstest.SetupFS {
			skipFor(tb)
			return newFS(tb)
		},
		// hackpadfs v0.2.4 ANDs modes with this mask before comparing, so
		// its zero value would compare no mode bit at all.
		Constraints: fstest.Constraints{FileModeMask: mask},
	}
	t.Cleanup(func() {
		// Cleanup runs after the parallel cases have finished.
		mu.Lock()
		defer mu.Unlock()
		for s := range skips {
			if !used[s] {
				t.Errorf("skip list names %q, which the suite does not have", s)
			}
		}
	})
	fstest.FS(t, opts)
	fstest.File(t, opts)
}

func TestFSTestMemFS(t *testing.T) {
	t.Parallel()
	skips := commonSkips()
	// pwrite(2) at a negative offset fails with EINVAL, which MemFS
	// returns; the case wants package os's own "negative offset" text.
	skips["file.WriteAt/negative_offset"] = "wants os's message, not the kernel's EINVAL"
	runSuites(t, "memfs", ^os.FileMode(0), skips, func(tb testing.TB) fstest.SetupFS {
		mem := vfs.NewMemFS(vfs.MemOptions{})
		if err := mem.MkdirAll("/work/tree", 0o755); err != nil {
			tb.Fatal(err)
		}
		return hackpadfs.New(mem, "/work/tree")
	})
}

func TestFSTestRootedOS(t *testing.T) {
	t.Parallel()
	umask := probeUmask(t)
	skips := commonSkips()
	// Go's os.ReadDir opens with O_DIRECTORY, so on a file it fails in open
	// (Op "open"); the case predates that and wants "readdirent".
	skips["fs.ReadDir/file_is_not_a_dir"] = "os.ReadDir now fails at open with ENOTDIR"
	if umask != 0 {
		// These cases compare modes without the mask, so the umask of the
		// process (which osfs honours, as the OS does) shows through.
		// Changing the umask would change process state under other tests.
		skips["fs.ReadDir/exists"] = "compares modes unmasked; the process umask clears bits"
		skips["file_concurrent.Stat"] = "compares modes unmasked; the process umask clears bits"
	}
	runSuites(t, "rootedos", ^umask, skips, func(tb testing.TB) fstest.SetupFS {
		return hackpadfs.New(osfs.NewRooted(tb.TempDir()), "/")
	})
}

// probeUmask returns the permission bits the process umask clears, seen by
// creating a file with mode 0777.
func probeUmask(t *testing.T) os.FileMode {
	t.Helper()
	name := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(name, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}
