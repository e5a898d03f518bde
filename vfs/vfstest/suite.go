package vfstest

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// check is one conformance check: a subtest with the answer Linux and
// package os give.
type check struct {
	name string
	why  string
	run  func(t *testing.T, fsys vfs.ReadWriteFS)
}

// Run runs the conformance suite against the file systems made by newFS,
// one subtest per check, each on a fresh file system. The subtests run in
// parallel, so newFS must be safe for concurrent use.
//
// The contract newFS must honour: the file system it returns is empty
// apart from its root "/", which is a directory; names are absolute,
// slash-separated and clean. The suite works below "/" of that file system
// only, and absolute symbolic link targets mean names of the same file
// system. For a rooted OS backend "/" is the directory it is rooted at
// (typically t.TempDir()), and absolute targets resolve inside it.
//
// Modification times are asserted as change or no change, or as a value set
// with Chtimes, never as wall-clock readings.
func Run(t *testing.T, newFS func(t *testing.T) vfs.ReadWriteFS) {
	t.Helper()
	RunSkipping(t, nil, newFS)
}

// RunSkipping is [Run] that skips the checks named in skips, each with its
// reason: checks that need what the file system under test cannot
// express, or known divergences being worked on. A name that is not a
// check of the suite fails the test, so that the list cannot go stale.
func RunSkipping(t *testing.T, skips map[string]string, newFS func(t *testing.T) vfs.ReadWriteFS) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(skips)) {
		if !slices.Contains(Names(), name) {
			t.Errorf("vfstest: skipped check %q is not a check of the suite", name)
		}
	}
	for _, c := range checks() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if why, ok := skips[c.name]; ok {
				t.Skip(why)
			}
			fsys := newFS(t)
			if fsys == nil {
				t.Fatal("newFS returned nil")
			}
			c.run(t, fsys)
		})
	}
}

// Names returns the names of the suite's subtests, in the order [Run] runs
// them.
func Names() []string {
	cs := checks()
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return names
}

func checks() []check {
	var all []check
	all = append(all, symlinkChecks()...)
	all = append(all, metadataChecks()...)
	all = append(all, renameChecks()...)
	all = append(all, createRemoveChecks()...)
	all = append(all, errorChecks()...)
	all = append(all, nameChecks()...)
	all = append(all, tempChecks()...)
	all = append(all, lockChecks()...)
	all = append(all, iofsChecks()...)
	return all
}

// symBase is the base tree of the symbolic link checks.
func symBase() Tree {
	return Tree{
		"d/target.txt":    File("T"),
		"d/sub/inner.txt": File("I"),
		"e":               Dir(),
	}
}

// build builds tree below "/".
func build(t *testing.T, fsys vfs.FS, tree Tree) {
	t.Helper()
	Build(t, fsys, "/", tree)
}

// Must stops the test if err is not nil, naming what failed.
func Must(t TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// WantText reports an error unless name reads as want.
func WantText(t TB, fsys vfs.FS, name, want string) {
	t.Helper()
	got, err := vfs.ReadFile(fsys, name)
	if err != nil {
		t.Errorf("ReadFile(%q): %v, want %q", name, err, want)
		return
	}
	if string(got) != want {
		t.Errorf("ReadFile(%q) = %q, want %q", name, got, want)
	}
}

// wantMissing asserts that Lstat reports name as not existing.
func wantMissing(t *testing.T, fsys vfs.FS, name string) {
	t.Helper()
	if fi, err := vfs.Lstat(fsys, name); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lstat(%q) = %v, %v; want fs.ErrNotExist", name, fi, err)
	}
}

// wantType asserts the type bits of name, read with Lstat.
func wantType(t *testing.T, fsys vfs.FS, name string, want fs.FileMode) {
	t.Helper()
	wantModeBits(t, fsys, name, "type", fs.ModeType, want)
}

// wantMode asserts the permission bits of name, read with Lstat.
func wantMode(t *testing.T, fsys vfs.FS, name string, want fs.FileMode) {
	t.Helper()
	wantModeBits(t, fsys, name, "permissions", fs.ModePerm, want)
}

// wantModeBits asserts the bits that mask selects (what) of the mode of
// name, read with Lstat.
func wantModeBits(t *testing.T, fsys vfs.FS, name, what string, mask, want fs.FileMode) {
	t.Helper()
	fi, err := vfs.Lstat(fsys, name)
	if err != nil {
		t.Errorf("Lstat(%q): %v", name, err)
		return
	}
	if got := fi.Mode() & mask; got != want {
		t.Errorf("Lstat(%q) %s = %v, want %v", name, what, got, want)
	}
}

// wantTarget asserts the verbatim target of the link name.
func wantTarget(t *testing.T, fsys vfs.FS, name, want string) {
	t.Helper()
	got, err := vfs.ReadLink(fsys, name)
	if err != nil || got != want {
		t.Errorf("ReadLink(%q) = %q, %v; want %q", name, got, err, want)
	}
}

// wantPathErr asserts that err is an *fs.PathError for the caller's name
// wrapping target.
func wantPathErr(t *testing.T, what string, err, target error, name string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: nil error, want %v", what, target)
		return
	}
	if !errors.Is(err, target) {
		t.Errorf("%s: %v, want an error wrapping %v", what, err, target)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Errorf("%s: error %v is %T, want *fs.PathError", what, err, err)
		return
	}
	if pe.Path != name {
		t.Errorf("%s: PathError.Path = %q, want the caller's name %q", what, pe.Path, name)
	}
}

// wantLinkErr asserts that err is an *os.LinkError for the caller's names
// wrapping one of targets.
func wantLinkErr(t *testing.T, what string, err error, oldname, newname string, targets ...error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: nil error, want %v", what, targets)
		return
	}
	matched := false
	for _, target := range targets {
		matched = matched || errors.Is(err, target)
	}
	if !matched {
		t.Errorf("%s: %v, want an error wrapping one of %v", what, err, targets)
	}
	var le *os.LinkError
	if !errors.As(err, &le) {
		t.Errorf("%s: error %v is %T, want *os.LinkError", what, err, err)
		return
	}
	if le.Old != oldname || le.New != newname {
		t.Errorf("%s: LinkError names = %q, %q; want the caller's %q, %q", what, le.Old, le.New, oldname, newname)
	}
}
