package vfstest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
)

// DiffConfig describes the system under test of [KernelDifferential]:
// how to make it for one case, what tree it starts with, and what it must
// satisfy beyond agreeing with the kernel.
type DiffConfig struct {
	// Name names the system under test in failure messages ("MemFS",
	// "overlay"); empty means "system under test".
	Name string

	// New returns a fresh system under test for one case, empty apart
	// from its root "/" unless Lower is set. lower is the file system
	// Lower returned, holding the case's initial tree (nil without
	// Lower); umask is the process's, which the oracle's creating calls
	// obey, so the system under test should apply it too. New must not be
	// nil.
	New func(t *rapid.T, lower vfs.ReadWriteFS, umask fs.FileMode) vfs.ReadWriteFS

	// Lower is the initial tree policy. When nil, every case starts from
	// an empty tree, and the oracle's root takes the permission bits of
	// the root of the system under test. When set, Lower returns a file
	// system whose "/" is dir, a fresh real directory of mode 0755 (like
	// the oracle's root); the machine builds the same random small tree
	// (up to 12 steps of its WriteFile, Mkdir, MkdirAll and Symlink
	// actions, each checked against the oracle like any action) in it and
	// in the oracle, then hands it to New.
	Lower func(dir string) vfs.ReadWriteFS

	// Check, when not nil, is an extra invariant, run after the common one
	// at every step. initial is the snapshot of the case's initial tree
	// (empty without Lower) and got the snapshot of sut, which agrees with
	// the oracle's when Check runs.
	Check func(t *rapid.T, sut vfs.ReadWriteFS, initial, got vfs.Tree)
}

// KernelDifferential runs a differential state machine with the kernel as
// the oracle: every random operation runs on the system that cfg makes
// and, through raw package os and syscall calls, on a real directory below
// t.TempDir() (a [HostDir]). After every operation the error classes
// ([ErrClass]) must agree, and the error of the system under test must have
// the type os promises (*fs.PathError, or *os.LinkError for Symlink and
// Rename). After every step the two trees must have equal snapshots, equal
// link resolution ([Resolving]) and equal root modes, and cfg.Check must
// hold. Depth comes from -rapid.checks.
//
// The operations: WriteFile, an appending OpenFile+Write+Close, Mkdir,
// MkdirAll (sometimes one level below a new name), Symlink (relative,
// absolute, dangling, to itself, to "." or ".."), Rename, Remove,
// RemoveAll, Chmod, and a query of one name with Stat, Lstat (compared as
// name, type, permissions and file size), ReadFile, ReadDir, ReadLink and
// Open+ReadAll.
//
// Names. Names are drawn from a small alphabet so that operations collide:
// an existing entry, or a child of one, at most four components deep;
// they never contain "." or "..", and never name "/" itself. Two
// variations come once the initial tree is built: one name in eight ends
// in a slash; one name in eight, and one relative link target in eight, is padded with
// slashes to a length between [vfs.PathMax]-2 and [vfs.PathMax]+1 bytes
// (a target after a leading "."), so that both sides meet Linux's limit on
// the length of a name as given (the oracle's host path is padded to the
// same length). The name "/a/b" is "<dir>/a/b" on disk; an absolute link
// target "/a" is written to the oracle as "<dir>/a", so that both sides
// mean the same entry, and read back without the prefix. Relative targets are written verbatim to both
// sides; they are generated as "../"×k + a clean path from the link's
// physical parent, so no generated link climbs above "/" where it is
// created. A link to ".." in "/", and a Rename that would move a relative
// link to a place where it climbs above "/" ([HostDir.RenameEscapes]), are
// skipped: above "/" the two sides differ by construction (the system
// under test has no parent of "/", the oracle's directory has one).
//
// Where Go's os differs from POSIX. os.Rename refuses to rename a directory
// onto an existing directory (EEXIST, even an empty one or itself); the
// vfs contract follows rename(2), so the oracle calls syscall.Rename.
// os.Remove, os.MkdirAll and os.RemoveAll are library loops over system
// calls whose results the vfs contract promises, so the oracle calls them
// as they are.
//
// Permissions. The generated modes always leave the owner rwx on
// directories and rw on files, so the oracle never refuses an operation for
// lack of permission, and a system that records but does not enforce
// permission bits is compared fairly.
//
// The oracle is Linux: call KernelDifferential from a test built for linux
// only.
func KernelDifferential(t *testing.T, cfg DiffConfig) {
	t.Helper()
	if cfg.New == nil {
		t.Fatal("vfstest: DiffConfig.New is nil")
	}
	name := cfg.Name
	if name == "" {
		name = "system under test"
	}
	umask := ProcessUmask(t)
	rapid.Check(t, func(rt *rapid.T) {
		m := &diffMachine{host: HostDir(diffTempDir(rt, t, "oracle")), initial: vfs.Tree{}, check: cfg.Check}
		var lower vfs.ReadWriteFS
		if cfg.Lower != nil {
			lower = cfg.Lower(diffTempDir(rt, t, "lower"))
			m.sut, m.name = lower, "lower layer"
			m.seed(rt)
			m.initial = m.snapshot(rt)
		}
		m.sut, m.name = cfg.New(rt, lower, umask), name
		m.varied = true
		if m.sut == nil {
			rt.Fatalf("vfstest: DiffConfig.New returned nil")
		}
		if cfg.Lower == nil {
			root, err := m.sut.Stat("/")
			if err != nil {
				rt.Fatalf("Stat(/): %v", err)
			}
			if err := os.Chmod(string(m.host), root.Mode().Perm()); err != nil {
				rt.Fatalf("Chmod: %v", err)
			}
		}
		rt.Repeat(map[string]func(*rapid.T){
			"":          m.invariant,
			"WriteFile": m.writeFile,
			"Append":    m.appendFile,
			"Mkdir":     m.mkdir,
			"MkdirAll":  m.mkdirAll,
			"Symlink":   m.symlink,
			"Rename":    m.rename,
			"Remove":    m.remove,
			"RemoveAll": m.removeAll,
			"Chmod":     m.chmod,
			"Query":     m.query,
		})
	})
}

// diffNames is the alphabet of path components: few, so that operations
// collide.
var diffNames = []string{"a", "b", "ab"}

// diffMaxDepth bounds the number of components of a generated name.
const diffMaxDepth = 4

// diffTempDir makes a directory below t.TempDir() with mode 0755 (MkdirTemp
// makes 0700) and removes it when rt ends.
func diffTempDir(rt *rapid.T, t *testing.T, pattern string) string {
	rt.Helper()
	dir, err := os.MkdirTemp(t.TempDir(), pattern)
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		rt.Fatalf("temp dir: %v", err)
	}
	rt.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// diffMachine holds the system under test and the oracle directory.
type diffMachine struct {
	sut     vfs.ReadWriteFS
	name    string // names sut in failure messages
	host    HostDir
	initial vfs.Tree // the snapshot of the initial tree, which never changes
	// varied enables names of about PATH_MAX bytes and names ending in a
	// slash ([diffMachine.pad]); it is off while the initial tree is
	// built, which tests the lower layer.
	varied bool
	check  func(t *rapid.T, sut vfs.ReadWriteFS, initial, got vfs.Tree)
}

// seed builds the same random small tree in the system under test and in
// the oracle, with the machine's own creating actions.
func (m *diffMachine) seed(t *rapid.T) {
	steps := rapid.IntRange(0, 12).Draw(t, "initial")
	for range steps {
		switch rapid.SampledFrom([]string{"file", "dir", "dirs", "link"}).Draw(t, "initial.kind") {
		case "file":
			m.writeFile(t)
		case "dir":
			m.mkdir(t)
		case "dirs":
			m.mkdirAll(t)
		case "link":
			m.symlink(t)
		}
	}
}

// snapshot returns the snapshot of the system under test.
func (m *diffMachine) snapshot(t *rapid.T) vfs.Tree {
	t.Helper()
	tree, err := vfs.Snapshot(m.sut, "/")
	if err != nil {
		t.Fatalf("Snapshot(%s): %v", m.name, err)
	}
	return tree
}

// draw draws a name: an existing entry, or a child of one (often a new
// name), from a small alphabet.
func (m *diffMachine) draw(t *rapid.T, label string) string {
	bases := append([]string{""}, m.existing()...)
	base := rapid.SampledFrom(bases).Draw(t, label+".base")
	if base != "" && rapid.Bool().Draw(t, label+".existing") {
		return "/" + base
	}
	if strings.Count(base, "/")+1 >= diffMaxDepth {
		base = path.Dir(base)
	}
	return "/" + path.Join(base, rapid.SampledFrom(diffNames).Draw(t, label+".leaf"))
}

// existing lists the entries of the system under test, sorted (empty on
// error: the invariant reports errors).
func (m *diffMachine) existing() []string {
	tree, err := vfs.Snapshot(m.sut, "/")
	if err != nil {
		return nil
	}
	return tree.Paths()
}

// pad returns the name to give the system under test and the host path to
// give the oracle: name and its host path, with the variations once the
// initial tree is built. One name in eight ends in a slash. One name in
// eight gets extra slashes (after a leading "/." or at one of its
// separators)
// that bring its length to about [vfs.PathMax], and the host path gets as
// many fewer as the directory's prefix is long, so that the kernel judges
// a string of the same length as the system under test gets. The slashes
// never lead the name: os.RemoveAll collapses leading slashes, which the
// host path does not have.
func (m *diffMachine) pad(t *rapid.T, label, name string) (sut, host string) {
	if m.varied && rapid.IntRange(0, 7).Draw(t, label+".slash") == 0 {
		name += "/"
	}
	if !m.varied || rapid.IntRange(0, 7).Draw(t, label+".long") != 0 {
		return name, m.host.Path(name)
	}
	n := rapid.IntRange(vfs.PathMax-2, vfs.PathMax+1).Draw(t, label+".length")
	head, tail := "/.", name
	// A separator inside the name gives os.MkdirAll and os.RemoveAll
	// parents that end in slashes.
	cuts := []int{0}
	for i := 1; i < len(name)-1; i++ {
		if name[i] == '/' {
			cuts = append(cuts, i)
		}
	}
	if i := rapid.SampledFrom(cuts).Draw(t, label+".cut"); i > 0 {
		head, tail = name[:i], name[i:]
	}
	return PadName(head, tail, n), string(m.host) + PadName(head, tail, n-len(m.host))
}

// show shortens the run of slashes of a padded name or target for a
// failure message.
func show(name string) string {
	i := strings.Index(name, "////")
	if len(name) < 80 || i < 0 {
		return name
	}
	j := len(name) - len(strings.TrimLeft(name[i:], "/"))
	return fmt.Sprintf("%s<%d slashes>%s (%d bytes)", name[:i], j-i, name[j:], len(name))
}

func (m *diffMachine) writeFile(t *rapid.T) {
	name := m.draw(t, "name")
	data := []byte(rapid.StringN(0, 3, 3).Draw(t, "data"))
	perm := rapid.SampledFrom([]fs.FileMode{0o644, 0o600, 0o666}).Draw(t, "perm")
	name, host := m.pad(t, "name", name)
	m.same(t, "WriteFile "+show(name), pathErr, m.sut.WriteFile(name, data, perm), os.WriteFile(host, data, perm))
}

func (m *diffMachine) appendFile(t *rapid.T) {
	name := m.draw(t, "name")
	data := []byte(rapid.StringN(1, 3, 3).Draw(t, "data"))
	const flag = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	name, host := m.pad(t, "name", name)
	var sutErr, osErr error
	if f, err := m.sut.OpenFile(name, flag, 0o644); err != nil {
		sutErr = err
	} else {
		_, sutErr = f.Write(data)
		sutErr = errors.Join(sutErr, f.Close())
	}
	if f, err := os.OpenFile(host, flag, 0o644); err != nil {
		osErr = err
	} else {
		_, osErr = f.Write(data)
		osErr = errors.Join(osErr, f.Close())
	}
	m.same(t, "Append "+show(name), pathErr, sutErr, osErr)
}

func (m *diffMachine) mkdir(t *rapid.T) {
	name := m.draw(t, "name")
	perm := rapid.SampledFrom([]fs.FileMode{0o755, 0o700, 0o777}).Draw(t, "perm")
	name, host := m.pad(t, "name", name)
	m.same(t, "Mkdir "+show(name), pathErr, m.sut.Mkdir(name, perm), os.Mkdir(host, perm))
}

func (m *diffMachine) mkdirAll(t *rapid.T) {
	name := m.draw(t, "name")
	if rapid.Bool().Draw(t, "deeper") && strings.Count(name, "/") < diffMaxDepth {
		name = path.Join(name, rapid.SampledFrom(diffNames).Draw(t, "child"))
	}
	name, host := m.pad(t, "name", name)
	m.same(t, "MkdirAll "+show(name), pathErr, m.sut.MkdirAll(name, 0o755), os.MkdirAll(host, 0o755))
}

func (m *diffMachine) symlink(t *rapid.T) {
	name := m.draw(t, "name")
	var target string
	switch kind := rapid.SampledFrom([]string{"relative", "absolute", "dangling", "self", "dot"}).Draw(t, "kind"); kind {
	case "relative":
		target = RelativeTarget(m.host.PhysicalDir(path.Dir(name)), m.draw(t, "to"))
	case "absolute":
		target = m.draw(t, "to")
	case "dangling":
		target = "nowhere/" + rapid.SampledFrom(diffNames).Draw(t, "leaf")
	case "self":
		target = path.Base(name)
	case "dot":
		target = rapid.SampledFrom([]string{".", ".."}).Draw(t, "dot")
		if target == ".." && m.host.PhysicalDir(path.Dir(name)) == "/" {
			t.Skip("a link to .. in / climbs above the root")
		}
	}
	if kind := target; kind != "." && kind != ".." && rapid.Bool().Draw(t, "slash") {
		// A target's trailing slash: what it names must be a directory.
		target += "/"
	}
	hostTarget := m.host.MapTarget(target)
	if m.varied && !strings.HasPrefix(target, "/") && rapid.IntRange(0, 7).Draw(t, "target.long") == 0 {
		// A relative target is the same string on both sides.
		target = PadName(".", "/"+target, rapid.IntRange(vfs.PathMax-2, vfs.PathMax+1).Draw(t, "target.length"))
		hostTarget = target
	}
	name, host := m.pad(t, "name", name)
	m.same(t, "Symlink "+show(target)+" "+show(name), linkErr, m.sut.Symlink(target, name), os.Symlink(hostTarget, host))
}

func (m *diffMachine) rename(t *rapid.T) {
	oldname, newname := m.draw(t, "old"), m.draw(t, "new")
	if m.host.RenameEscapes(oldname, newname) {
		t.Skip("the rename would move a relative link to where it climbs above the root")
	}
	oldname, oldHost := m.pad(t, "old", oldname)
	newname, newHost := m.pad(t, "new", newname)
	m.same(t, "Rename "+show(oldname)+" "+show(newname), linkErr, m.sut.Rename(oldname, newname), syscall.Rename(oldHost, newHost))
}

func (m *diffMachine) remove(t *rapid.T) {
	name, host := m.pad(t, "name", m.draw(t, "name"))
	m.same(t, "Remove "+show(name), pathErr, m.sut.Remove(name), os.Remove(host))
}

func (m *diffMachine) removeAll(t *rapid.T) {
	name, host := m.pad(t, "name", m.draw(t, "name"))
	m.same(t, "RemoveAll "+show(name), pathErr, m.sut.RemoveAll(name), os.RemoveAll(host))
}

func (m *diffMachine) chmod(t *rapid.T) {
	name := m.draw(t, "name")
	mode := rapid.SampledFrom([]fs.FileMode{0o700, 0o750, 0o755, 0o711}).Draw(t, "mode")
	name, host := m.pad(t, "name", name)
	m.same(t, "Chmod "+show(name), pathErr, m.sut.Chmod(name, mode), os.Chmod(host, mode))
}

// query compares every read operation on one name.
func (m *diffMachine) query(t *rapid.T) {
	name, host := m.pad(t, "name", m.draw(t, "name"))
	what := show(name)

	sfi, serr := m.sut.Stat(name)
	ofi, oerr := os.Stat(host)
	m.same(t, "Stat "+what, pathErr, serr, oerr)
	m.sameInfo(t, "Stat "+what, sfi, ofi)

	sfi, serr = m.sut.Lstat(name)
	ofi, oerr = os.Lstat(host)
	m.same(t, "Lstat "+what, pathErr, serr, oerr)
	m.sameInfo(t, "Lstat "+what, sfi, ofi)

	sdata, serr := m.sut.ReadFile(name)
	odata, oerr := os.ReadFile(host)
	m.same(t, "ReadFile "+what, pathErr, serr, oerr)
	if serr == nil && oerr == nil && string(sdata) != string(odata) {
		t.Fatalf("ReadFile %s = %q, os %q", what, sdata, odata)
	}

	sl, serr := m.sut.ReadDir(name)
	ol, oerr := os.ReadDir(host)
	m.same(t, "ReadDir "+what, pathErr, serr, oerr)
	if d := cmp.Diff(EntryStrings(ol), EntryStrings(sl)); serr == nil && oerr == nil && d != "" {
		t.Fatalf("ReadDir %s (-os +%s):\n%s", what, m.name, d)
	}

	st, serr := m.sut.ReadLink(name)
	ot, oerr := os.Readlink(host)
	m.same(t, "ReadLink "+what, pathErr, serr, oerr)
	if serr == nil && oerr == nil && st != m.host.UnmapTarget(ot) {
		t.Fatalf("ReadLink %s = %q, os %q", what, st, ot)
	}

	f, serr := m.sut.Open(name)
	if serr == nil {
		_, serr = io.ReadAll(f)
		f.Close()
	}
	of, oerr := os.Open(host)
	if oerr == nil {
		_, oerr = io.ReadAll(of)
		of.Close()
	}
	m.same(t, "Open+ReadAll "+what, anyErr, serr, oerr)
}

// invariant checks equal snapshots, including which links resolve, equal
// root modes, and the configuration's own check.
func (m *diffMachine) invariant(t *rapid.T) {
	got := m.snapshot(t)
	want := m.host.Snapshot(t)
	sroot, serr := m.sut.Stat("/")
	oroot, oerr := os.Stat(string(m.host))
	if serr != nil || oerr != nil || sroot.Mode() != oroot.Mode() {
		t.Fatalf("root modes diverged: %s %v (%v), os %v (%v)", m.name, modeOf(sroot), serr, modeOf(oroot), oerr)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("trees diverged (-os +%s):\n%s", m.name, d)
	}
	if d := cmp.Diff(Resolving(want), Resolving(got)); d != "" {
		t.Fatalf("link resolution diverged (-os +%s):\n%s", m.name, d)
	}
	if m.check != nil {
		m.check(t, m.sut, m.initial, got)
	}
}

// errShape says which error type an operation must return.
type errShape int

const (
	anyErr  errShape = iota // the type is not checked (file-handle errors)
	pathErr                 // *fs.PathError
	linkErr                 // *os.LinkError
)

// same fails unless sutErr and osErr have the same errno class, and sutErr
// has the shape os promises.
func (m *diffMachine) same(t *rapid.T, what string, shape errShape, sutErr, osErr error) {
	t.Helper()
	if sc, oc := ErrClass(sutErr), ErrClass(osErr); sc != oc {
		t.Fatalf("%s: %s %s (%v), os %s (%v)", what, m.name, sc, sutErr, oc, osErr)
	}
	if sutErr == nil {
		return
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case shape == pathErr && !errors.As(sutErr, &pe):
		t.Fatalf("%s: %s error %v is %T, want *fs.PathError", what, m.name, sutErr, sutErr)
	case shape == linkErr && !errors.As(sutErr, &le):
		t.Fatalf("%s: %s error %v is %T, want *os.LinkError", what, m.name, sutErr, sutErr)
	}
}

// sameInfo compares what two FileInfos say about type, permissions, size
// (for files) and name.
func (m *diffMachine) sameInfo(t *rapid.T, what string, sfi, ofi fs.FileInfo) {
	t.Helper()
	if sfi == nil || ofi == nil {
		return
	}
	type info struct {
		Name string
		Mode fs.FileMode
		Size int64
	}
	norm := func(fi fs.FileInfo) info {
		i := info{Name: fi.Name(), Mode: fi.Mode()}
		if fi.Mode().IsRegular() {
			i.Size = fi.Size()
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			i.Mode = fs.ModeSymlink // link permission bits are meaningless
		}
		return i
	}
	if d := cmp.Diff(norm(ofi), norm(sfi)); d != "" {
		t.Fatalf("%s (-os +%s):\n%s", what, m.name, d)
	}
}
