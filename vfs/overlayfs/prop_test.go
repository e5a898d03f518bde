//go:build linux

package overlayfs_test

// TestPropOverlayMatchesOS is a differential state machine: an overlay
// whose lower layer is a real directory holding a random small tree (read
// through osfs.NewRooted and a faultfs that fails the test on any write)
// against a plain real directory holding the same tree, driven by package
// os and syscall (the kernel is the oracle). After every step the error
// classes must agree and the two trees must have equal snapshots, equal
// link resolution, and the overlay's Changes must equal the difference
// between the lower layer's snapshot and its own.
//
// The name mapping and the generated names follow the MemFS property of
// package vfs (see vfstest.HostDir): absolute link targets are stored as
// "/a" in the lower directory (the rooted osfs resolves them inside it)
// and as "<oracle>/a" in the oracle; relative targets never climb above
// "/". The oracle renames with syscall.Rename (POSIX), like MemFS.
//
// Depth: go test -run PropOverlayMatchesOS ./vfs/overlayfs/ -rapid.checks=2000

import (
	"errors"
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
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// propNames is the alphabet of path components: few, so that operations
// collide.
var propNames = []string{"a", "b", "ab"}

// propMaxDepth bounds the number of components of a generated name.
const propMaxDepth = 4

func TestPropOverlayMatchesOS(t *testing.T) {
	umask := vfstest.ProcessUmask(t)
	rapid.Check(t, func(rt *rapid.T) {
		lowerDir := mkTemp(rt, t, "lower")
		m := &overlayMachine{host: vfstest.HostDir(mkTemp(rt, t, "oracle"))}
		lower := osfs.NewRooted(lowerDir)
		m.populate(rt, lower)
		before, err := vfs.Snapshot(lower, "/")
		if err != nil {
			rt.Fatalf("Snapshot(lower): %v", err)
		}
		m.lowerTree = before
		m.fsys = overlayfs.New(readOnly(rt, lower), overlayfs.Options{Umask: umask, Clock: newClock()})
		rt.Repeat(map[string]func(*rapid.T){
			"":          m.check,
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

// mkTemp makes a directory below t.TempDir() with mode 0755 (MkdirTemp
// makes 0700, a MemFS root is 0755) and removes it when rt ends.
func mkTemp(rt *rapid.T, t *testing.T, pattern string) string {
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

// overlayMachine holds the system under test and the oracle directory.
type overlayMachine struct {
	fsys      *overlayfs.FS
	host      vfstest.HostDir
	lowerTree vfs.Tree // the lower layer's snapshot, which never changes
	// sut is fsys, or during populate the lower layer itself.
	sut vfs.ReadWriteFS
}

// target returns the file system the actions drive.
func (m *overlayMachine) target() vfs.ReadWriteFS {
	if m.sut != nil {
		return m.sut
	}
	return m.fsys
}

// populate builds the same random small tree in the lower directory and
// in the oracle, with the machine's own creating actions.
func (m *overlayMachine) populate(rt *rapid.T, lower *osfs.FS) {
	m.sut = lower
	defer func() { m.sut = nil }()
	steps := rapid.IntRange(0, 12).Draw(rt, "initial")
	for range steps {
		switch rapid.SampledFrom([]string{"file", "dir", "dirs", "link"}).Draw(rt, "initial.kind") {
		case "file":
			m.writeFile(rt)
		case "dir":
			m.mkdir(rt)
		case "dirs":
			m.mkdirAll(rt)
		case "link":
			m.symlink(rt)
		}
	}
}

// name draws a name: an existing entry, or a child of one (often a new
// name), from a small alphabet.
func (m *overlayMachine) name(t *rapid.T, label string) string {
	bases := append([]string{""}, m.existing()...)
	base := rapid.SampledFrom(bases).Draw(t, label+".base")
	if base != "" && rapid.Bool().Draw(t, label+".existing") {
		return "/" + base
	}
	if strings.Count(base, "/")+1 >= propMaxDepth {
		base = path.Dir(base)
	}
	return "/" + path.Join(base, rapid.SampledFrom(propNames).Draw(t, label+".leaf"))
}

// existing lists the entries of the system under test, sorted (empty on
// error: the invariant reports errors).
func (m *overlayMachine) existing() []string {
	tree, err := vfs.Snapshot(m.target(), "/")
	if err != nil {
		return nil
	}
	return tree.Paths()
}

func (m *overlayMachine) writeFile(t *rapid.T) {
	name := m.name(t, "name")
	data := []byte(rapid.StringN(0, 3, 3).Draw(t, "data"))
	perm := rapid.SampledFrom([]fs.FileMode{0o644, 0o600, 0o666}).Draw(t, "perm")
	m.same(t, "WriteFile "+name, pathErr, m.target().WriteFile(name, data, perm), os.WriteFile(m.host.Path(name), data, perm))
}

func (m *overlayMachine) appendFile(t *rapid.T) {
	name := m.name(t, "name")
	data := []byte(rapid.StringN(1, 3, 3).Draw(t, "data"))
	const flag = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	var sutErr, osErr error
	if f, err := m.target().OpenFile(name, flag, 0o644); err != nil {
		sutErr = err
	} else {
		_, sutErr = f.Write(data)
		sutErr = errors.Join(sutErr, f.Close())
	}
	if f, err := os.OpenFile(m.host.Path(name), flag, 0o644); err != nil {
		osErr = err
	} else {
		_, osErr = f.Write(data)
		osErr = errors.Join(osErr, f.Close())
	}
	m.same(t, "Append "+name, pathErr, sutErr, osErr)
}

func (m *overlayMachine) mkdir(t *rapid.T) {
	name := m.name(t, "name")
	perm := rapid.SampledFrom([]fs.FileMode{0o755, 0o700, 0o777}).Draw(t, "perm")
	m.same(t, "Mkdir "+name, pathErr, m.target().Mkdir(name, perm), os.Mkdir(m.host.Path(name), perm))
}

func (m *overlayMachine) mkdirAll(t *rapid.T) {
	name := m.name(t, "name")
	if rapid.Bool().Draw(t, "deeper") && strings.Count(name, "/") < propMaxDepth {
		name = path.Join(name, rapid.SampledFrom(propNames).Draw(t, "child"))
	}
	m.same(t, "MkdirAll "+name, pathErr, m.target().MkdirAll(name, 0o755), os.MkdirAll(m.host.Path(name), 0o755))
}

func (m *overlayMachine) symlink(t *rapid.T) {
	name := m.name(t, "name")
	var target string
	switch kind := rapid.SampledFrom([]string{"relative", "absolute", "dangling", "self", "dot"}).Draw(t, "kind"); kind {
	case "relative":
		target = vfstest.RelativeTarget(m.host.PhysicalDir(path.Dir(name)), m.name(t, "to"))
	case "absolute":
		target = m.name(t, "to")
	case "dangling":
		target = "nowhere/" + rapid.SampledFrom(propNames).Draw(t, "leaf")
	case "self":
		target = path.Base(name)
	case "dot":
		target = rapid.SampledFrom([]string{".", ".."}).Draw(t, "dot")
		if target == ".." && m.host.PhysicalDir(path.Dir(name)) == "/" {
			t.Skip("a link to .. in / climbs above the root")
		}
	}
	m.same(t, "Symlink "+target+" "+name, linkErr, m.target().Symlink(target, name), os.Symlink(m.host.MapTarget(target), m.host.Path(name)))
}

func (m *overlayMachine) rename(t *rapid.T) {
	oldname, newname := m.name(t, "old"), m.name(t, "new")
	if m.host.RenameEscapes(oldname, newname) {
		t.Skip("the rename would move a relative link to where it climbs above the root")
	}
	m.same(t, "Rename "+oldname+" "+newname, linkErr, m.target().Rename(oldname, newname), syscall.Rename(m.host.Path(oldname), m.host.Path(newname)))
}

func (m *overlayMachine) remove(t *rapid.T) {
	name := m.name(t, "name")
	m.same(t, "Remove "+name, pathErr, m.target().Remove(name), os.Remove(m.host.Path(name)))
}

func (m *overlayMachine) removeAll(t *rapid.T) {
	name := m.name(t, "name")
	m.same(t, "RemoveAll "+name, pathErr, m.target().RemoveAll(name), os.RemoveAll(m.host.Path(name)))
}

func (m *overlayMachine) chmod(t *rapid.T) {
	name := m.name(t, "name")
	mode := rapid.SampledFrom([]fs.FileMode{0o700, 0o750, 0o755, 0o711}).Draw(t, "mode")
	m.same(t, "Chmod "+name, pathErr, m.target().Chmod(name, mode), os.Chmod(m.host.Path(name), mode))
}

// query compares every read operation on one name.
func (m *overlayMachine) query(t *rapid.T) {
	name := m.name(t, "name")
	host := m.host.Path(name)
	fsys := m.target()

	sfi, serr := fsys.Stat(name)
	ofi, oerr := os.Stat(host)
	m.same(t, "Stat "+name, pathErr, serr, oerr)
	sameInfo(t, "Stat "+name, sfi, ofi)

	sfi, serr = fsys.Lstat(name)
	ofi, oerr = os.Lstat(host)
	m.same(t, "Lstat "+name, pathErr, serr, oerr)
	sameInfo(t, "Lstat "+name, sfi, ofi)

	sdata, serr := fsys.ReadFile(name)
	odata, oerr := os.ReadFile(host)
	m.same(t, "ReadFile "+name, pathErr, serr, oerr)
	if serr == nil && oerr == nil && string(sdata) != string(odata) {
		t.Fatalf("ReadFile %s = %q, os %q", name, sdata, odata)
	}

	sl, serr := fsys.ReadDir(name)
	ol, oerr := os.ReadDir(host)
	m.same(t, "ReadDir "+name, pathErr, serr, oerr)
	if d := cmp.Diff(vfstest.EntryStrings(ol), vfstest.EntryStrings(sl)); serr == nil && oerr == nil && d != "" {
		t.Fatalf("ReadDir %s (-os +overlay):\n%s", name, d)
	}

	st, serr := fsys.ReadLink(name)
	ot, oerr := os.Readlink(host)
	m.same(t, "ReadLink "+name, pathErr, serr, oerr)
	if serr == nil && oerr == nil && st != m.host.UnmapTarget(ot) {
		t.Fatalf("ReadLink %s = %q, os %q", name, st, ot)
	}

	f, serr := fsys.Open(name)
	if serr == nil {
		_, serr = io.ReadAll(f)
		f.Close()
	}
	of, oerr := os.Open(host)
	if oerr == nil {
		_, oerr = io.ReadAll(of)
		of.Close()
	}
	m.same(t, "Open+ReadAll "+name, anyErr, serr, oerr)
}

// check is the invariant: equal snapshots, including which links resolve,
// equal root modes, and Changes that account for every difference from the
// lower layer.
func (m *overlayMachine) check(t *rapid.T) {
	got, err := vfs.Snapshot(m.fsys, "/")
	if err != nil {
		t.Fatalf("Snapshot(overlay): %v", err)
	}
	want := m.host.Snapshot(t)
	sroot, serr := m.fsys.Stat("/")
	oroot, oerr := os.Stat(string(m.host))
	if serr != nil || oerr != nil || sroot.Mode() != oroot.Mode() {
		t.Fatalf("root modes diverged: overlay %v (%v), os %v (%v)", sroot, serr, oroot, oerr)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("trees diverged (-os +overlay):\n%s", d)
	}
	if d := cmp.Diff(vfstest.Resolving(want), vfstest.Resolving(got)); d != "" {
		t.Fatalf("link resolution diverged (-os +overlay):\n%s", d)
	}
	changes, err := m.fsys.Changes()
	if err != nil {
		t.Fatalf("Changes: %v", err)
	}
	if d := cmp.Diff(vfs.Diff(m.lowerTree, got), changes); d != "" {
		t.Fatalf("Changes differ from the snapshots' difference (-diff +changes):\n%s", d)
	}
}

// knownDivergences are the MemFS bugs that the differential test of
// package vfs lists (the overlay delegates its checks to a MemFS, so it
// inherits them): an operation whose error classes differ like this is
// skipped. An empty os matches any class.
var knownDivergences = []struct {
	op, sut, os string
	why         string
}{
	{op: "Rename", sut: "ENOENT", why: "rename checks the old name before the new parent"},
	{op: "Rename", sut: "EISDIR", os: "ENOTEMPTY", why: "rename of a file onto its ancestor directory"},
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
func (m *overlayMachine) same(t *rapid.T, what string, shape errShape, sutErr, osErr error) {
	t.Helper()
	if sc, oc := vfstest.ErrClass(sutErr), vfstest.ErrClass(osErr); sc != oc {
		for _, k := range knownDivergences {
			if strings.HasPrefix(what, k.op+" ") && sc == k.sut && (k.os == "" || oc == k.os) {
				t.Skipf("known divergence (%s): %s", k.why, what)
			}
		}
		t.Fatalf("%s: overlay %s (%v), os %s (%v)", what, sc, sutErr, oc, osErr)
	}
	if sutErr == nil {
		return
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case shape == pathErr && !errors.As(sutErr, &pe):
		t.Fatalf("%s: error %v is %T, want *fs.PathError", what, sutErr, sutErr)
	case shape == linkErr && !errors.As(sutErr, &le):
		t.Fatalf("%s: error %v is %T, want *os.LinkError", what, sutErr, sutErr)
	}
}

// sameInfo compares what two FileInfos say about type, permissions, size
// (for files) and name.
func sameInfo(t *rapid.T, what string, sfi, ofi fs.FileInfo) {
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
			i.Mode = fs.ModeSymlink
		}
		return i
	}
	if d := cmp.Diff(norm(ofi), norm(sfi)); d != "" {
		t.Fatalf("%s (-os +overlay):\n%s", what, d)
	}
}
