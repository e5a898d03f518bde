package vfstest

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
)

// CaseConfig describes the two sides of [CaseDifferential].
type CaseConfig struct {
	// Name names the system under test in failure messages.
	Name string
	// New returns a fresh, empty system under test for one case: a
	// folding file system such as a MemFS with [vfs.PlatformDarwin].
	New func(t *rapid.T) vfs.ReadWriteFS
	// Oracle returns a fresh, empty directory of a real case-insensitive
	// file system for one case, as a file system rooted there (the rooted
	// OS backend over a [MountExFAT] mount).
	Oracle func(t *rapid.T) vfs.ReadWriteFS
	// Steps is the number of operations of one case; 0 means 100.
	Steps int
}

// caseLeaves are the components of names: letters in both cases, and a
// letter outside ASCII in both cases (é, É: precomposed, which both exFAT's
// upcase table and APFS's fold match; exFAT does not fold normalization,
// so no decomposed form is drawn).
var caseLeaves = []string{"a", "A", "b", "B", "ab", "aB", "Ab", "AB", "\u00e9", "\u00c9"}

// CaseDifferential runs random sequences of operations on names that
// differ in case on the system under test and on the oracle, a real
// case-insensitive file system, and requires after every operation the
// same error class ([ErrClass]) and the same tree: every entry's stored
// spelling and type, and, after every fourth operation and at the end of
// a case, every file's content too (reading contents through a FUSE
// mount costs most; permission bits are not compared: exFAT has none).
// Each case runs cfg.Steps operations; it
// returns how many cases ran whole, and their operations, so that a test
// can require a number.
//
// The operations: WriteFile, an exclusive create (O_CREATE|O_EXCL),
// an appending write, Mkdir, MkdirAll, Rename, Remove, RemoveAll, and a
// query of one name (Stat's name, type and size, ReadFile, ReadDir's
// names and types). A name is an existing entry or a new child of an
// existing directory, at most three components deep, with each letter's
// case drawn anew: "/Ab/a" names the entry stored as "/ab/A" as often as
// not. Links are not drawn (exFAT has none), nor decomposed names (exFAT
// does not fold normalization): the table of APFS's documented behaviour
// in package vfs's tests pins those.
func CaseDifferential(t *testing.T, cfg CaseConfig) (cases, ops int) {
	t.Helper()
	if cfg.New == nil || cfg.Oracle == nil {
		t.Fatal("vfstest: CaseConfig.New and Oracle must be set")
	}
	steps := cfg.Steps
	if steps == 0 {
		steps = 100
	}
	name := cfg.Name
	if name == "" {
		name = "system under test"
	}
	rapid.Check(t, func(rt *rapid.T) {
		m := &caseMachine{sut: cfg.New(rt), oracle: cfg.Oracle(rt), name: name}
		actions := map[string]func(*rapid.T){
			"WriteFile": m.writeFile,
			"Create":    m.create,
			"Append":    m.appendFile,
			"Mkdir":     m.mkdir,
			"MkdirAll":  m.mkdirAll,
			"Rename":    m.rename,
			"Remove":    m.remove,
			"RemoveAll": m.removeAll,
			"Query":     m.query,
		}
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range actions {
				if !yield(k) {
					return
				}
			}
		})
		for i := range steps {
			actions[rapid.SampledFrom(names).Draw(rt, "op")](rt)
			// Names and types after every operation; contents, whose
			// reading costs the FUSE mount most, after every fourth and
			// the last.
			m.invariant(rt, i%4 == 3 || i == steps-1)
		}
		// Counted once the case has run whole: rapid discards cases
		// that overrun its budget of random data.
		cases++
		ops += steps
	})
	return cases, ops
}

// RapidChecks returns the number of cases rapid runs per check
// (-rapid.checks), 100 when the flag is not registered.
func RapidChecks() int {
	if f := flag.Lookup("rapid.checks"); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			if n, ok := g.Get().(int); ok {
				return n
			}
		}
	}
	return 100
}

// caseMachine holds the two sides of a case.
type caseMachine struct {
	sut, oracle vfs.ReadWriteFS
	name        string
}

// draw draws a name: an existing entry or a child of an existing
// directory, respelled with each letter's case drawn anew.
func (m *caseMachine) draw(t *rapid.T, label string) string {
	var dirs, all []string
	dirs = append(dirs, "/")
	for _, e := range m.entries(t, m.sut, false) {
		all = append(all, e.Path)
		if e.Kind == "dir" && strings.Count(e.Path, "/") < 3 {
			dirs = append(dirs, e.Path)
		}
	}
	var name string
	if len(all) > 0 && rapid.Bool().Draw(t, label+".existing") {
		name = rapid.SampledFrom(all).Draw(t, label+".entry")
	} else {
		name = path.Join(rapid.SampledFrom(dirs).Draw(t, label+".dir"), rapid.SampledFrom(caseLeaves).Draw(t, label+".leaf"))
	}
	var b strings.Builder
	for i, r := range name {
		if unicode.IsLetter(r) && rapid.Bool().Draw(t, fmt.Sprintf("%s.case%d", label, i)) {
			if unicode.IsUpper(r) {
				r = unicode.ToLower(r)
			} else {
				r = unicode.ToUpper(r)
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// caseEntry is an entry as both sides must have it.
type caseEntry struct {
	Path, Kind, Content string
}

// entries lists the tree of fsys, sorted by path, with the contents of
// its files when contents is set.
func (m *caseMachine) entries(t *rapid.T, fsys vfs.ReadWriteFS, contents bool) []caseEntry {
	t.Helper()
	var out []caseEntry
	var walk func(dir string)
	walk = func(dir string) {
		list, err := fsys.ReadDir(dir)
		if err != nil {
			t.Fatalf("ReadDir(%s) on %s: %v", dir, m.side(fsys), err)
		}
		for _, e := range list {
			p := path.Join(dir, e.Name())
			switch {
			case e.IsDir():
				out = append(out, caseEntry{Path: p, Kind: "dir"})
				walk(p)
			case e.Type().IsRegular():
				entry := caseEntry{Path: p, Kind: "file"}
				if contents {
					data, err := fsys.ReadFile(p)
					if err != nil {
						t.Fatalf("ReadFile(%s) on %s: %v", p, m.side(fsys), err)
					}
					entry.Content = string(data)
				}
				out = append(out, entry)
			default:
				out = append(out, caseEntry{Path: p, Kind: e.Type().String()})
			}
		}
	}
	walk("/")
	return out
}

func (m *caseMachine) side(fsys vfs.ReadWriteFS) string {
	if fsys == m.sut {
		return m.name
	}
	return "the oracle"
}

// invariant requires equal trees, spellings included, and equal file
// contents when contents is set.
func (m *caseMachine) invariant(t *rapid.T, contents bool) {
	want, got := m.entries(t, m.oracle, contents), m.entries(t, m.sut, contents)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("trees diverged (-oracle +%s):\n%s", m.name, d)
	}
}

// same requires the same error class on both sides.
func (m *caseMachine) same(t *rapid.T, what string, sutErr, oracleErr error) {
	t.Helper()
	if sc, oc := ErrClass(sutErr), ErrClass(oracleErr); sc != oc {
		t.Fatalf("%s: %s %s (%v), oracle %s (%v)", what, m.name, sc, sutErr, oc, oracleErr)
	}
}

// both runs op on each side and compares the errors.
func (m *caseMachine) both(t *rapid.T, what string, op func(vfs.ReadWriteFS) error) {
	t.Helper()
	m.same(t, what, op(m.sut), op(m.oracle))
}

func (m *caseMachine) writeFile(t *rapid.T) {
	name := m.draw(t, "name")
	data := []byte(rapid.StringN(0, 3, 3).Draw(t, "data"))
	m.both(t, "WriteFile "+name, func(f vfs.ReadWriteFS) error { return f.WriteFile(name, data, 0o644) })
}

func (m *caseMachine) create(t *rapid.T) {
	name := m.draw(t, "name")
	m.both(t, "Create "+name, func(f vfs.ReadWriteFS) error {
		h, err := f.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = h.Write([]byte("x"))
		return errors.Join(err, h.Close())
	})
}

func (m *caseMachine) appendFile(t *rapid.T) {
	name := m.draw(t, "name")
	data := []byte(rapid.StringN(1, 3, 3).Draw(t, "data"))
	m.both(t, "Append "+name, func(f vfs.ReadWriteFS) error {
		h, err := f.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		_, err = h.Write(data)
		return errors.Join(err, h.Close())
	})
}

func (m *caseMachine) mkdir(t *rapid.T) {
	name := m.draw(t, "name")
	m.both(t, "Mkdir "+name, func(f vfs.ReadWriteFS) error { return f.Mkdir(name, 0o755) })
}

func (m *caseMachine) mkdirAll(t *rapid.T) {
	name := m.draw(t, "name")
	if rapid.Bool().Draw(t, "deeper") && strings.Count(name, "/") < 3 {
		name = path.Join(name, rapid.SampledFrom(caseLeaves).Draw(t, "child"))
	}
	m.both(t, "MkdirAll "+name, func(f vfs.ReadWriteFS) error { return f.MkdirAll(name, 0o755) })
}

func (m *caseMachine) rename(t *rapid.T) {
	oldname, newname := m.draw(t, "old"), m.draw(t, "new")
	rename := func(f vfs.ReadWriteFS) error { return f.Rename(oldname, newname) }
	what := "Rename " + oldname + " " + newname
	foldOld, foldNew := vfs.FoldName(vfs.PlatformDarwin, oldname), vfs.FoldName(vfs.PlatformDarwin, newname)
	if strings.HasPrefix(foldNew, foldOld+"/") || strings.HasPrefix(foldOld, foldNew+"/") {
		// Into its own subtree, or onto its own ancestor, under another
		// spelling: both must refuse, but not with one errno. FUSE gives
		// each spelling of a directory a node of its own, so the kernel
		// does not see the loop (EINVAL) or the ancestor (ENOTEMPTY), and
		// exfat-fuse answers as for unrelated entries (ENOTDIR, EISDIR);
		// a kernel that sees one directory, as APFS's does, and MemFS
		// give the kernel's answer.
		if serr, oerr := rename(m.sut), rename(m.oracle); serr == nil || oerr == nil {
			t.Fatalf("%s: %s %v, oracle %v; want both to fail", what, m.name, serr, oerr)
		}
		return
	}
	if _, err := m.sut.Lstat(oldname); err == nil && oldname != newname && foldOld == foldNew && path.Base(oldname) == path.Base(newname) {
		// One entry, final names spelled alike, parents spelled
		// otherwise: macOS's rename(2) does nothing (one vnode, the same
		// name), while FUSE, which sees two directories, has exfat-fuse
		// respell the entry. Only the system under test runs it, and
		// must leave its tree as it was.
		if err := rename(m.sut); err != nil {
			t.Fatalf("%s: %s %v, want nothing done", what, m.name, err)
		}
		return
	}
	m.both(t, what, rename)
}

func (m *caseMachine) remove(t *rapid.T) {
	name := m.draw(t, "name")
	m.both(t, "Remove "+name, func(f vfs.ReadWriteFS) error { return f.Remove(name) })
}

func (m *caseMachine) removeAll(t *rapid.T) {
	name := m.draw(t, "name")
	m.both(t, "RemoveAll "+name, func(f vfs.ReadWriteFS) error { return f.RemoveAll(name) })
}

// query compares the answers of the read calls on one name.
func (m *caseMachine) query(t *rapid.T) {
	name := m.draw(t, "name")
	type stat struct {
		Name string
		Dir  bool
		Size int64
	}
	sameAnswer(t, m, "Stat "+name, func(f vfs.ReadWriteFS) (stat, error) {
		fi, err := f.Stat(name)
		if err != nil {
			return stat{}, err
		}
		s := stat{Name: fi.Name(), Dir: fi.IsDir()}
		if fi.Mode().IsRegular() {
			s.Size = fi.Size()
		}
		return s, nil
	})
	sameAnswer(t, m, "ReadFile "+name, func(f vfs.ReadWriteFS) (string, error) {
		data, err := f.ReadFile(name)
		return string(data), err
	})
	sameAnswer(t, m, "ReadDir "+name, func(f vfs.ReadWriteFS) ([]string, error) {
		list, err := f.ReadDir(name)
		var out []string
		for _, e := range list {
			out = append(out, fmt.Sprintf("%s %v", e.Name(), e.IsDir()))
		}
		return out, err
	})
}

// sameAnswer asks both sides, and requires the same error class and the
// same answer.
func sameAnswer[T any](t *rapid.T, m *caseMachine, what string, ask func(vfs.ReadWriteFS) (T, error)) {
	t.Helper()
	got, serr := ask(m.sut)
	want, oerr := ask(m.oracle)
	m.same(t, what, serr, oerr)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s (-oracle +%s):\n%s", what, m.name, d)
	}
}
