//go:build linux

package osfs_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// raceAttempts is how many times each operation runs against the swapper
// (a tenth of it with -short).
func raceAttempts() int {
	if testing.Short() {
		return 200
	}
	return 2000
}

// raceMinOutcomes is how many successes and how many failures each
// operation must see for the race to count as real. On a loaded machine
// the swapper can be starved for a while, so an operation keeps running,
// up to raceMaxRounds times its attempts, until it has seen both.
const (
	raceMinOutcomes = 5
	raceMaxRounds   = 10
)

// The tree of the swap race: the same names inside the root's directory
// /in and in a directory outside the root, with different contents, so
// that whatever an operation reads or changes tells which side it reached.
// outside holds one name more, which a listing of /in must never show.
var (
	raceInside  = raceTree("inside")
	raceOutside = append(raceTree("OUTSIDE"), node{path: "only-outside", data: "OUTSIDE"})
)

// raceTree returns the common names of the swap race, holding text.
func raceTree(text string) []node {
	return []node{
		{path: "secret", data: text},
		{path: "victim", data: text},
		{path: "vdir", dir: true},
		{path: "vdir/f", data: text},
		{path: "from", data: text},
		{path: "link", target: text + "-target"},
	}
}

// swapRace is one run of the harness: a root whose directory /in a
// goroutine keeps exchanging (renameat2 RENAME_EXCHANGE) with /swap, a
// link to a host directory outside the root, while the operation under
// test runs on /in.
type swapRace struct {
	t       *testing.T
	root    string           // the host directory of "/"
	outside string           // the host directory /swap points to
	inner   int              // a descriptor of the real /in, wherever it is
	want    string           // the fingerprint of outside
	stamp   [8]unix.Timespec // its stamps
	// outsideFd is a descriptor of the outside directory, and secretIno
	// the inode of its file secret.
	outsideFd int
	secretIno uint64
	created   string // the base name CreateTemp made last
}

func newSwapRace(t *testing.T) *swapRace {
	t.Helper()
	base := t.TempDir()
	r := &swapRace{t: t, root: filepath.Join(base, "root"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{r.root, r.root + "/in", r.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hostBuild(t, r.root+"/in", raceInside)
	hostBuild(t, r.outside, raceOutside)
	// An absolute host target: a rooted FS reads it as a name below its
	// root, os.Root refuses it; package os would follow it out.
	if err := os.Symlink(r.outside, r.root+"/swap"); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(r.root+"/in", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	r.inner = fd
	r.want = fingerprint(t, r.outside)
	r.openOutside()
	t.Cleanup(func() { unix.Close(r.outsideFd) })
	return r
}

// hostBuild creates nodes below the host directory dir.
func hostBuild(t *testing.T, dir string, nodes []node) {
	t.Helper()
	for _, n := range nodes {
		p := filepath.Join(dir, n.path)
		var err error
		switch {
		case n.dir:
			err = os.Mkdir(p, 0o755)
		case n.target != "":
			err = os.Symlink(n.target, p)
		default:
			err = os.WriteFile(p, []byte(n.data), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// fingerprint describes the host tree below dir: names, types, modes,
// contents, link targets and file modification times.
func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v", strings.TrimPrefix(p, dir), fi.Mode())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " -> %s", target)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %q %d", data, fi.ModTime().UnixNano())
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// stampNames are the outside entries whose change times tell whether
// anything outside changed.
var stampNames = []string{".", "vdir", "secret", "victim", "vdir/f", "from", "link", "only-outside"}

// stamps returns when the outside tree last changed: the change times
// (ctime) of the outside directory, of vdir and of every entry. Creating,
// removing or renaming an entry changes its directory's; writing, chmod
// and utimes change the file's; reading changes none.
func (r *swapRace) stamps() [8]unix.Timespec {
	r.t.Helper()
	var ts [8]unix.Timespec
	for i, name := range stampNames {
		var st unix.Stat_t
		if err := unix.Fstatat(r.outsideFd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			ts[i] = unix.Timespec{Sec: -1}
			continue
		}
		ts[i] = st.Ctim
	}
	return ts
}

// changedOutside reports whether anything outside changed since the last
// call, and if so builds the outside tree again.
func (r *swapRace) changedOutside() bool {
	r.t.Helper()
	if r.stamps() == r.stamp {
		return false
	}
	r.restoreOutside()
	return true
}

// restoreOutside builds the outside tree again as it was at the start.
func (r *swapRace) restoreOutside() {
	r.t.Helper()
	if err := os.RemoveAll(r.outside); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Mkdir(r.outside, 0o755); err != nil {
		r.t.Fatal(err)
	}
	hostBuild(r.t, r.outside, raceOutside)
	unix.Close(r.outsideFd)
	r.openOutside()
}

// openOutside opens the outside directory and notes its stamps and the
// inode of its secret.
func (r *swapRace) openOutside() {
	r.t.Helper()
	fd, err := unix.Open(r.outside, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	r.outsideFd = fd
	var st unix.Stat_t
	if err := unix.Fstatat(fd, "secret", &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		r.t.Fatal(err)
	}
	r.secretIno = st.Ino
	r.stamp = r.stamps()
}

// swap starts the goroutine that exchanges /in and /swap until the
// returned function is called; that function puts /in back in place and
// returns the number of exchanges made.
func (r *swapRace) swap() func() int {
	r.t.Helper()
	dir, err := unix.Open(r.root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	var stop atomic.Bool
	var n int
	var wg sync.WaitGroup
	wg.Go(func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for !stop.Load() {
			if err := unix.Renameat2(dir, "in", dir, "swap", unix.RENAME_EXCHANGE); err != nil {
				r.t.Errorf("renameat2: %v", err)
				return
			}
			n++
		}
	})
	return func() int {
		stop.Store(true)
		wg.Wait()
		defer unix.Close(dir)
		if n%2 == 1 {
			if err := unix.Renameat2(dir, "in", dir, "swap", unix.RENAME_EXCHANGE); err != nil {
				r.t.Fatal(err)
			}
		}
		return n
	}
}

// innerFile creates or truncates the file name in the real /in (or below
// it) with data, through its descriptor, never through a name the swapper
// moves.
func (r *swapRace) innerFile(name, data string) {
	r.t.Helper()
	fd, err := unix.Openat(r.inner, name, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if err != nil {
		r.t.Fatal(err)
	}
	_, err = unix.Write(fd, []byte(data))
	unix.Close(fd)
	if err != nil {
		r.t.Fatal(err)
	}
}

// innerFstat returns the error of an lstat of name in the real /in.
func (r *swapRace) innerFstat(name string) error {
	var st unix.Stat_t
	return unix.Fstatat(r.inner, name, &st, unix.AT_SYMLINK_NOFOLLOW)
}

// inode returns the inode a FileInfo describes, or 0.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// raceOp is one operation under the swap race. run performs it once and
// reports whether it succeeded and whether what it returned came from
// outside the root; what it changed outside is checked after it. reset,
// when not nil, undoes in the real /in what a successful run did.
type raceOp struct {
	name  string
	run   func(r *swapRace, fsys vfs.ReadWriteFS) (ok, leaked bool)
	reset func(r *swapRace)
}

var t2001 = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

func raceOps() []raceOp {
	return []raceOp{
		{name: "ReadFile", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			data, err := fsys.ReadFile("/in/secret")
			return err == nil, bytes.Contains(data, []byte("OUTSIDE"))
		}},
		{name: "ReadFile/dotdot", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			data, err := fsys.ReadFile("/in/../in/secret")
			return err == nil, bytes.Contains(data, []byte("OUTSIDE"))
		}},
		{name: "Open+ReadDir", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			f, err := fsys.Open("/in")
			if err != nil {
				return false, false
			}
			defer f.Close()
			d, ok := f.(fs.ReadDirFile)
			if !ok {
				r.t.Fatalf("%T is not an fs.ReadDirFile", f)
			}
			list, err := d.ReadDir(-1)
			return err == nil, r.listLeaks(list)
		}},
		{name: "WriteFile", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.WriteFile("/in/secret", []byte("written"), 0o644) == nil, false
		}},
		{name: "OpenFile create", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			f, err := fsys.OpenFile("/in/new", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				return false, false
			}
			_, err = f.Write([]byte("created"))
			return f.Close() == nil && err == nil, false
		}, reset: func(r *swapRace) { _ = unix.Unlinkat(r.inner, "new", 0) }},
		{name: "CreateTemp", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			f, name, err := vfs.CreateTemp(fsys, "/in", "tmp*")
			if err != nil {
				return false, false
			}
			r.created = filepath.Base(name)
			_, err = f.Write([]byte("temporary"))
			return f.Close() == nil && err == nil, false
		}, reset: func(r *swapRace) { _ = unix.Unlinkat(r.inner, r.created, 0) }},
		{name: "Stat", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			fi, err := fsys.Stat("/in/secret")
			return err == nil, err == nil && inode(fi) == r.secretIno
		}},
		{name: "Lstat", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			fi, err := fsys.Lstat("/in/secret")
			return err == nil, err == nil && inode(fi) == r.secretIno
		}},
		{name: "ReadDir", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			list, err := fsys.ReadDir("/in")
			return err == nil, r.listLeaks(list)
		}},
		{name: "ReadLink", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			target, err := fsys.ReadLink("/in/link")
			return err == nil, target == "OUTSIDE-target"
		}},
		{name: "Mkdir", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.Mkdir("/in/newdir", 0o755) == nil, false
		}, reset: func(r *swapRace) { _ = unix.Unlinkat(r.inner, "newdir", unix.AT_REMOVEDIR) }},
		{name: "MkdirAll", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.MkdirAll("/in/a/b", 0o755) == nil, false
		}, reset: func(r *swapRace) {
			_ = unix.Unlinkat(r.inner, "a/b", unix.AT_REMOVEDIR)
			_ = unix.Unlinkat(r.inner, "a", unix.AT_REMOVEDIR)
		}},
		{name: "Remove", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.Remove("/in/victim") == nil, false
		}, reset: func(r *swapRace) { r.innerFile("victim", "inside") }},
		{name: "RemoveAll", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			// RemoveAll succeeds on a missing name; success means vdir is
			// gone from the real /in.
			err := fsys.RemoveAll("/in/vdir")
			return err == nil && r.innerFstat("vdir") == unix.ENOENT, false
		}, reset: func(r *swapRace) {
			if err := unix.Mkdirat(r.inner, "vdir", 0o755); err != nil && err != unix.EEXIST {
				r.t.Fatal(err)
			}
			r.innerFile("vdir/f", "inside")
		}},
		{name: "Rename", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.Rename("/in/from", "/in/to") == nil, false
		}, reset: func(r *swapRace) { _ = unix.Renameat(r.inner, "to", r.inner, "from") }},
		{name: "Symlink", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.Symlink("target", "/in/newlink") == nil, false
		}, reset: func(r *swapRace) { _ = unix.Unlinkat(r.inner, "newlink", 0) }},
		{name: "Chmod", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.Chmod("/in/secret", 0o600) == nil, false
		}, reset: func(r *swapRace) {
			if err := unix.Fchmodat(r.inner, "secret", 0o644, 0); err != nil {
				r.t.Fatal(err)
			}
		}},
		{name: "Chtimes", run: func(r *swapRace, fsys vfs.ReadWriteFS) (bool, bool) {
			return fsys.Chtimes("/in/secret", t2001, t2001) == nil, false
		}},
	}
}

// listLeaks reports whether a listing of /in shows the outside directory:
// its extra name, or an entry whose Info is an outside file.
func (r *swapRace) listLeaks(list []fs.DirEntry) bool {
	for _, e := range list {
		if e.Name() == "only-outside" {
			return true
		}
		if e.Name() == "secret" {
			if fi, err := e.Info(); err == nil && inode(fi) == r.secretIno {
				return true
			}
		}
	}
	return false
}

// raceResult counts the outcomes of one operation's attempts.
type raceResult struct {
	ok, failed, escapes, swaps int
}

// runSwapRace runs op raceAttempts times (more, up to raceMaxRounds
// times as many, until it has seen raceMinOutcomes successes and
// failures) on the file system that open
// makes for the root, against the swapper, and finally compares the whole
// outside tree, contents included, with how it started.
func runSwapRace(t *testing.T, op raceOp, open func(root string) vfs.ReadWriteFS) raceResult {
	t.Helper()
	r := newSwapRace(t)
	fsys := open(r.root)
	var res raceResult
	stop := r.swap()
	for i := 0; i < raceMaxRounds*raceAttempts(); i++ {
		if i >= raceAttempts() && res.ok >= raceMinOutcomes && res.failed >= raceMinOutcomes {
			break
		}
		ok, leaked := op.run(r, fsys)
		if ok {
			res.ok++
		} else {
			res.failed++
		}
		if r.changedOutside() || leaked {
			res.escapes++
		}
		if ok && op.reset != nil {
			op.reset(r)
		}
	}
	res.swaps = stop()
	if got := fingerprint(t, r.outside); got != r.want {
		t.Errorf("the outside tree changed:\n%s\nwant:\n%s", got, r.want)
	}
	return res
}

// TestRootedSwapRace is the confinement test under a race: while one
// goroutine exchanges the directory /in with a link to a directory outside
// the root (renameat2 RENAME_EXCHANGE), each operation runs thousands of
// times on names below /in. Nothing may be read from the outside directory
// and nothing there may change. The precondition that the race is real is
// checked: every operation must both succeed (it met the directory) and
// fail (it met the link) several times. How often each happens varies a
// lot between operations (the swaps tend to fall into step with the
// calls): from 1% to 70% success.
//
// The resolution of names in user space that preceded openat2 escaped
// here in every operation on a name below /in: it read, listed, wrote,
// created, removed, renamed and chmodded outside files.
//
// The same harness runs on os.Root as a reference, which refuses the
// absolute link as an escape: no escape either.
func TestRootedSwapRace(t *testing.T) {
	t.Parallel()
	backends := []struct {
		name string
		open func(root string) vfs.ReadWriteFS
	}{
		{"rooted osfs", func(root string) vfs.ReadWriteFS { return osfs.NewRooted(root) }},
		{"os.Root", func(root string) vfs.ReadWriteFS { return openOSRoot(t, root) }},
	}
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			for _, op := range raceOps() {
				t.Run(op.name, func(t *testing.T) {
					res := runSwapRace(t, op, be.open)
					n := res.ok + res.failed
					t.Logf("%s %s: %d attempts, %d escapes (%d succeeded, %d failed, %d swaps)",
						be.name, op.name, n, res.escapes, res.ok, res.failed, res.swaps)
					if res.escapes != 0 {
						t.Errorf("%s: %d of %d attempts escaped the root", op.name, res.escapes, n)
					}
					if res.ok < raceMinOutcomes || res.failed < raceMinOutcomes {
						t.Errorf("precondition: %d succeeded and %d failed of %d attempts; the swap did not race the operation", res.ok, res.failed, n)
					}
				})
			}
		})
	}
}

// osRoot is an os.Root seen as a vfs.ReadWriteFS, as the reference of the
// swap race: the vfs name "/x" is the root's "x".
type osRoot struct{ r *os.Root }

var _ vfs.ReadWriteFS = osRoot{}

func openOSRoot(t *testing.T, dir string) osRoot {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return osRoot{r}
}

// rel returns the root-relative name of the vfs name.
func rel(name string) string {
	if name = strings.TrimLeft(name, "/"); name == "" {
		return "."
	}
	return name
}

func (o osRoot) Open(name string) (fs.File, error) { return o.r.Open(rel(name)) }

func (o osRoot) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return o.r.OpenFile(rel(name), flag, perm)
}

func (o osRoot) Stat(name string) (fs.FileInfo, error)  { return o.r.Stat(rel(name)) }
func (o osRoot) Lstat(name string) (fs.FileInfo, error) { return o.r.Lstat(rel(name)) }
func (o osRoot) ReadFile(name string) ([]byte, error)   { return o.r.ReadFile(rel(name)) }
func (o osRoot) ReadLink(name string) (string, error)   { return o.r.Readlink(rel(name)) }

func (o osRoot) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := o.r.Open(rel(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, err
}

func (o osRoot) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return o.r.WriteFile(rel(name), data, perm)
}

func (o osRoot) Mkdir(name string, perm fs.FileMode) error    { return o.r.Mkdir(rel(name), perm) }
func (o osRoot) MkdirAll(name string, perm fs.FileMode) error { return o.r.MkdirAll(rel(name), perm) }
func (o osRoot) Remove(name string) error                     { return o.r.Remove(rel(name)) }
func (o osRoot) RemoveAll(name string) error                  { return o.r.RemoveAll(rel(name)) }

func (o osRoot) Rename(oldname, newname string) error {
	return o.r.Rename(rel(oldname), rel(newname))
}

func (o osRoot) Symlink(oldname, newname string) error {
	return o.r.Symlink(oldname, rel(newname))
}

func (o osRoot) Chmod(name string, mode fs.FileMode) error { return o.r.Chmod(rel(name), mode) }

func (o osRoot) Chtimes(name string, atime, mtime time.Time) error {
	return o.r.Chtimes(rel(name), atime, mtime)
}
