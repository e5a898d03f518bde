package vfstest

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// PadName returns head+tail with slashes inserted between them so that the
// result is exactly n bytes long: a name that resolves like head+tail but
// whose length as given is n. tail must be empty or start with a slash;
// n must leave room for at least one inserted slash.
func PadName(head, tail string, n int) string {
	return head + strings.Repeat("/", n-len(head)-len(tail)) + tail
}

func nameChecks() []check {
	return []check{
		{name: "name.name_max", why: "a component of 255 bytes is fine, one of 256 is ENAMETOOLONG", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d": Dir()})
			ok := "/d/" + strings.Repeat("n", vfs.NameMax)
			Must(t, "WriteFile with a 255-byte component", fsys.WriteFile(ok, []byte("N"), 0o644))
			WantText(t, fsys, ok, "N")
			deep := "/d/" + strings.Repeat("m", vfs.NameMax) + "/x"
			Must(t, "MkdirAll with a 255-byte component", fsys.MkdirAll(deep, 0o755))
			wantType(t, fsys, deep, fs.ModeDir)
			long := "/d/" + strings.Repeat("n", vfs.NameMax+1)
			wantPathErr(t, "WriteFile with a 256-byte component", fsys.WriteFile(long, nil, 0o644), vfs.ErrNameTooLong, long)
			wantPathErr(t, "Mkdir with a 256-byte component", fsys.Mkdir(long, 0o755), vfs.ErrNameTooLong, long)
			_, err := fsys.Stat(long + "/x")
			wantPathErr(t, "Stat below a 256-byte component", err, vfs.ErrNameTooLong, long+"/x")
		}},
		{name: "name.trailing_slash", why: "mkdir, symlink, unlink, rmdir and rename never follow a final name ending in a slash; the slash wants a directory", run: trailingSlash},
		{name: "name.path_max", why: "a name of PATH_MAX (4096) bytes or more, as given, is ENAMETOOLONG before any lookup; 4095 bytes are fine", run: pathMax},
		{name: "name.path_max_target", why: "a link target of 4096 bytes or more is ENAMETOOLONG; a target does not add to the length of the names that pass through it", run: pathMaxTarget},
		{name: "name.path_max_all", why: "MkdirAll and RemoveAll are os's loops: they stop at the first name too long to pass", run: pathMaxAll},
	}
}

// pathMax checks the limit on the name arguments of every operation.
func pathMax(t *testing.T, fsys vfs.ReadWriteFS) {
	build(t, fsys, Tree{"d/f": File("F"), "d/sub/x": File("X"), "d/l": Link("f")})
	fits := PadName("/d", "/f", vfs.PathMax-1)
	WantText(t, fsys, fits, "F")
	Must(t, "WriteFile with a 4095-byte name", fsys.WriteFile(PadName("/d", "/g", vfs.PathMax-1), []byte("G"), 0o644))
	WantText(t, fsys, "/d/g", "G")
	Must(t, "Mkdir with a 4095-byte name", fsys.Mkdir(PadName("/d", "/m", vfs.PathMax-1), 0o755))
	wantType(t, fsys, "/d/m", fs.ModeDir)

	for _, n := range []int{vfs.PathMax, vfs.PathMax + 1} {
		file := PadName("/d", "/f", n)
		link := PadName("/d", "/l", n)
		dir := PadName("/d", "/sub", n)
		fresh := PadName("/d", "/new", n)
		missing := PadName("/nope", "/x", n)
		ops := []struct {
			op   string
			name string
			do   func(name string) error
		}{
			{"Open", file, func(name string) error { _, err := fsys.Open(name); return err }},
			{"OpenFile", file, func(name string) error { _, err := fsys.OpenFile(name, os.O_RDWR, 0); return err }},
			{"OpenFile O_CREATE|O_EXCL", fresh, func(name string) error {
				_, err := fsys.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
				return err
			}},
			{"Stat", file, func(name string) error { _, err := fsys.Stat(name); return err }},
			{"Stat of a missing name", missing, func(name string) error { _, err := fsys.Stat(name); return err }},
			{"Lstat", link, func(name string) error { _, err := fsys.Lstat(name); return err }},
			{"ReadFile", file, func(name string) error { _, err := fsys.ReadFile(name); return err }},
			{"ReadDir", dir, func(name string) error { _, err := fsys.ReadDir(name); return err }},
			{"ReadLink", link, func(name string) error { _, err := fsys.ReadLink(name); return err }},
			{"WriteFile", fresh, func(name string) error { return fsys.WriteFile(name, nil, 0o644) }},
			{"WriteFile over a file", file, func(name string) error { return fsys.WriteFile(name, []byte("W"), 0o644) }},
			{"Mkdir", fresh, func(name string) error { return fsys.Mkdir(name, 0o755) }},
			{"Mkdir with a missing parent", missing, func(name string) error { return fsys.Mkdir(name, 0o755) }},
			{"MkdirAll of an existing directory", dir, func(name string) error { return fsys.MkdirAll(name, 0o755) }},
			{"Remove", file, func(name string) error { return fsys.Remove(name) }},
			{"Chmod", file, func(name string) error { return fsys.Chmod(name, 0o600) }},
			{"Chtimes", file, func(name string) error { return fsys.Chtimes(name, time2001, time2001) }},
		}
		for _, o := range ops {
			wantTooLong(t, o.op+" with a name of "+strconv.Itoa(n)+" bytes", o.do(o.name), o.name, "")
		}
		err := fsys.Symlink("f", fresh)
		wantTooLong(t, "Symlink with a long new name", err, "f", fresh)
		err = fsys.Rename(file, "/d/moved")
		wantTooLong(t, "Rename with a long old name", err, file, "/d/moved")
		err = fsys.Rename("/d/f", fresh)
		wantTooLong(t, "Rename with a long new name", err, "/d/f", fresh)
		err = fsys.Rename("/d/nope", fresh)
		wantTooLong(t, "Rename of a missing name to a long one", err, "/d/nope", fresh)
	}
	WantText(t, fsys, "/d/f", "F")
	wantTarget(t, fsys, "/d/l", "f")
	wantMissing(t, fsys, "/d/new")
	wantMissing(t, fsys, "/d/moved")
	fi, err := fsys.Stat("/d/f")
	Must(t, "Stat", err)
	if fi.Mode().Perm() != DefaultFileMode {
		t.Errorf("Stat(/d/f) mode = %v after a refused Chmod, want %v", fi.Mode().Perm(), DefaultFileMode)
	}
}

// pathMaxTarget checks the limit on link targets.
func pathMaxTarget(t *testing.T, fsys vfs.ReadWriteFS) {
	build(t, fsys, Tree{"d/f": File("F"), "d/sub/x": File("X")})
	fits := PadName(".", "/f", vfs.PathMax-1)
	Must(t, "Symlink with a 4095-byte target", fsys.Symlink(fits, "/d/fits"))
	wantTarget(t, fsys, "/d/fits", fits)
	WantText(t, fsys, "/d/fits", "F")
	for _, n := range []int{vfs.PathMax, vfs.PathMax + 1} {
		long := PadName(".", "/f", n)
		err := fsys.Symlink(long, "/d/long")
		wantTooLong(t, "Symlink with a target of "+strconv.Itoa(n)+" bytes", err, long, "/d/long")
		wantMissing(t, fsys, "/d/long")
	}
	// A name that passes through a long target: the limit is the name's
	// own length, not that of the target with the rest of the name.
	Must(t, "Symlink to a directory with a 4000-byte target", fsys.Symlink(PadName(".", "/sub", 4000), "/d/sl"))
	through := PadName("/d/sl", "/x", 3000)
	WantText(t, fsys, through, "X")
	_, err := fsys.Stat(PadName("/d/sl", "/nope", 3000))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a missing name through a long target: %s, want ENOENT", ErrClass(err))
	}
}

// pathMaxAll checks MkdirAll and RemoveAll, which package os builds from
// Stat, Mkdir, Remove and a descent from the parent: a long name's parents
// whose own names fit are made, and a long name whose parent's name fits
// is removed.
func pathMaxAll(t *testing.T, fsys vfs.ReadWriteFS) {
	build(t, fsys, Tree{"d/f": File("F"), "d/g": File("G"), "d/sub/x": File("X"), "e": Dir()})
	long := PadName("/e/p", "/q", vfs.PathMax)
	wantTooLong(t, "MkdirAll of a long name", fsys.MkdirAll(long, 0o755), long, "")
	wantType(t, fsys, "/e/p", fs.ModeDir)
	wantMissing(t, fsys, "/e/p/q")

	// The parent's name, "/d" and the slashes, fits: the entry goes.
	gone := PadName("/d", "/f", vfs.PathMax)
	Must(t, "RemoveAll of a long name whose parent's name fits", fsys.RemoveAll(gone))
	wantMissing(t, fsys, "/d/f")
	Must(t, "RemoveAll of a missing long name whose parent's name fits", fsys.RemoveAll(PadName("/d", "/nope", vfs.PathMax)))
	// Leading slashes count once in the parent's name, as os splits it.
	Must(t, "RemoveAll of a long name with two leading slashes", fsys.RemoveAll("/"+PadName("/d", "/g", vfs.PathMax)))
	wantMissing(t, fsys, "/d/g")
	// The parent's name is itself too long: nothing is removed.
	kept := PadName("/d", "/sub/x", vfs.PathMax+len("/x"))
	err := fsys.RemoveAll(kept)
	var pe *fs.PathError
	if !errors.Is(err, vfs.ErrNameTooLong) || !errors.As(err, &pe) {
		t.Errorf("RemoveAll of a name whose parent's name is too long: %s (%T), want a *fs.PathError wrapping ENAMETOOLONG", ErrClass(err), err)
	}
	WantText(t, fsys, "/d/sub/x", "X")
}

// wantTooLong asserts that err wraps [vfs.ErrNameTooLong] and names the
// caller's names: an *fs.PathError for name when newname is empty, else an
// *os.LinkError for name and newname. Names are reported by length only.
func wantTooLong(t *testing.T, what string, err error, name, newname string) {
	t.Helper()
	if !errors.Is(err, vfs.ErrNameTooLong) {
		t.Errorf("%s: %s, want ENAMETOOLONG", what, ErrClass(err))
		return
	}
	if newname == "" {
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != name {
			t.Errorf("%s: error %T does not name the caller's name (%d bytes)", what, err, len(name))
		}
		return
	}
	var le *os.LinkError
	if !errors.As(err, &le) || le.Old != name || le.New != newname {
		t.Errorf("%s: error %T does not name the caller's names (%d and %d bytes)", what, err, len(name), len(newname))
	}
}

// trailingSlash checks the calls that create or remove a name, whose final
// component the kernel looks up without following it even under a
// trailing slash, and then applies the slash's rule: mkdir accepts it,
// symlink wants a new name to be a directory (ENOENT), unlink and rmdir
// refuse a non-directory (ENOTDIR), and rename refuses it on either name
// when the old entry is not a directory (ENOTDIR).
func trailingSlash(t *testing.T, fsys vfs.ReadWriteFS) {
	build(t, fsys, Tree{
		"d/f":     File("F"),
		"d/empty": Dir(),
		"d/sub/x": File("X"),
		"d/le":    Link("empty"),
		"d/dang":  Link("made"),
	})
	for _, name := range []string{"/d/f/", "/d/le/", "/d/dang/", "/d/empty/"} {
		wantPathErr(t, "Mkdir "+name, fsys.Mkdir(name, 0o755), fs.ErrExist, name)
	}
	wantMissing(t, fsys, "/d/made")
	Must(t, "Mkdir of a new name with a slash", fsys.Mkdir("/d/new/", 0o755))
	wantType(t, fsys, "/d/new", fs.ModeDir)

	for _, name := range []string{"/d/f/", "/d/le/", "/d/dang/"} {
		wantLinkErr(t, "Symlink onto "+name, fsys.Symlink("x", name), "x", name, fs.ErrExist)
	}
	wantLinkErr(t, "Symlink to a new name with a slash", fsys.Symlink("x", "/d/nl/"), "x", "/d/nl/", fs.ErrNotExist)
	wantMissing(t, fsys, "/d/nl")

	for _, name := range []string{"/d/f/", "/d/le/", "/d/dang/"} {
		wantPathErr(t, "Remove "+name, fsys.Remove(name), vfs.ErrNotDir, name)
	}
	wantPathErr(t, "Remove a missing name with a slash", fsys.Remove("/d/nope/"), fs.ErrNotExist, "/d/nope/")
	WantText(t, fsys, "/d/f", "F")
	wantTarget(t, fsys, "/d/le", "empty")
	wantType(t, fsys, "/d/empty", fs.ModeDir)
	Must(t, "Remove a directory with a slash", fsys.Remove("/d/new/"))
	wantMissing(t, fsys, "/d/new")

	for _, names := range [][2]string{{"/d/le/", "/d/moved"}, {"/d/f/", "/d/moved"}, {"/d/f", "/d/moved/"}, {"/d/le", "/d/moved/"}} {
		wantLinkErr(t, "Rename "+names[0]+" "+names[1], fsys.Rename(names[0], names[1]), names[0], names[1], vfs.ErrNotDir)
	}
	wantMissing(t, fsys, "/d/moved")
	Must(t, "Rename a directory with slashes", fsys.Rename("/d/sub/", "/d/sub2/"))
	WantText(t, fsys, "/d/sub2/x", "X")
	wantTarget(t, fsys, "/d/le", "empty")
	wantType(t, fsys, "/d/empty", fs.ModeDir)
}
