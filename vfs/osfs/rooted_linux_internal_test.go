//go:build linux

package osfs

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestProcFallbacks checks the paths taken on kernels without fchmodat2
// (before 6.6) or without AT_EMPTY_PATH for utimensat, which
// the kernels that run the tests do not take: they act on the file open as
// an O_PATH descriptor through its /proc/self/fd entry.
func TestProcFallbacks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	// Through a link opened without O_NOFOLLOW: the descriptor is the file.
	fd, err := unix.Open(filepath.Join(dir, "l"), unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := chmodProc(fd, 0o600); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2001, 2, 3, 4, 5, 6, 7, time.UTC)
	if err := chtimesProc(fd, []unix.Timespec{utime(time.Time{}), utime(mtime)}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || !fi.ModTime().Equal(mtime) {
		t.Errorf("after the fallbacks: mode %v, mtime %v; want -rw------- and %v", fi.Mode(), fi.ModTime(), mtime)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "l")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link changed: %v, %v", fi, err)
	}
}
