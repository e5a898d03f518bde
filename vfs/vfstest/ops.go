package vfstest

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

// Fixed times for Chtimes; the suite never asserts wall-clock readings.
var (
	time2001 = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	time2002 = time.Date(2002, 3, 4, 5, 6, 7, 0, time.UTC)
)

func metadataChecks() []check {
	return []check{
		{name: "chmod", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			Must(t, "Chmod file", fsys.Chmod("/d/sub/inner.txt", 0o600))
			Must(t, "Chmod dir", fsys.Chmod("/e", 0o700))
			Must(t, "Chmod through link", fsys.Chmod("/d/rel", 0o640))
			for name, want := range map[string]fs.FileMode{"/d/sub/inner.txt": 0o600, "/e": fs.ModeDir | 0o700, "/d/target.txt": 0o640} {
				fi, err := fsys.Stat(name)
				if err != nil || fi.Mode() != want {
					t.Errorf("Stat(%q) mode = %v, %v; want %v", name, modeOf(fi), err, want)
				}
			}
			wantType(t, fsys, "/d/rel", fs.ModeSymlink)
			err := fsys.Chmod("/nope", 0o600)
			wantPathErr(t, "Chmod missing", err, fs.ErrNotExist, "/nope")
		}},
		{name: "chtimes", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			Must(t, "Chtimes", fsys.Chtimes("/d/sub/inner.txt", time2001, time2001))
			wantMtime(t, fsys, "/d/sub/inner.txt", time2001)
			Must(t, "Chtimes through link", fsys.Chtimes("/d/rel", time2002, time2002))
			wantMtime(t, fsys, "/d/target.txt", time2002)
			Must(t, "Chtimes dir", fsys.Chtimes("/e", time2001, time2001))
			wantMtime(t, fsys, "/e", time2001)
			Must(t, "Chtimes with zero times", fsys.Chtimes("/d/target.txt", time.Time{}, time.Time{}))
			wantMtime(t, fsys, "/d/target.txt", time2002)
			err := fsys.Chtimes("/nope", time2001, time2001)
			wantPathErr(t, "Chtimes missing", err, fs.ErrNotExist, "/nope")
		}},
		{name: "mtime.updates_on_write", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Chtimes", fsys.Chtimes("/d/target.txt", time2001, time2001))
			Must(t, "WriteFile", fsys.WriteFile("/d/target.txt", []byte("new"), 0o644))
			wantMtimeChanged(t, fsys, "/d/target.txt", time2001)
			Must(t, "Chtimes", fsys.Chtimes("/d/target.txt", time2001, time2001))
			f, err := fsys.OpenFile("/d/target.txt", os.O_WRONLY|os.O_APPEND, 0)
			Must(t, "OpenFile", err)
			_, err = f.Write([]byte("more"))
			Must(t, "Write", err)
			Must(t, "Close", f.Close())
			wantMtimeChanged(t, fsys, "/d/target.txt", time2001)
		}},
		{name: "mtime.dir_updates_on_entry_change", why: "creating, removing or renaming an entry changes its directory's mtime", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			steps := []struct {
				what string
				dir  string
				do   func() error
			}{
				{"create", "/e", func() error { return fsys.WriteFile("/e/n", nil, 0o644) }},
				{"remove", "/e", func() error { return fsys.Remove("/e/n") }},
				{"mkdir", "/e", func() error { return fsys.Mkdir("/e/m", 0o755) }},
				{"symlink", "/e", func() error { return fsys.Symlink("x", "/e/l") }},
				{"rename away", "/d", func() error { return fsys.Rename("/d/target.txt", "/e/t") }},
			}
			for _, s := range steps {
				Must(t, "Chtimes", fsys.Chtimes(s.dir, time2001, time2001))
				Must(t, s.what, s.do())
				wantMtimeChanged(t, fsys, s.dir, time2001)
			}
		}},
		{name: "mtime.stable", why: "reading never changes a modification time", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			fi1, err := fsys.Stat("/d/target.txt")
			Must(t, "Stat", err)
			_, err = fsys.ReadFile("/d/target.txt")
			Must(t, "ReadFile", err)
			_, err = fsys.ReadDir("/d")
			Must(t, "ReadDir", err)
			fi2, err := fsys.Stat("/d/target.txt")
			Must(t, "Stat", err)
			if !fi1.ModTime().Equal(fi2.ModTime()) {
				t.Errorf("ModTime changed without a write: %v then %v", fi1.ModTime(), fi2.ModTime())
			}
		}},
		{name: "readdir.sorted", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			for _, name := range []string{"/z", "/a", "/m", "/B"} {
				Must(t, "WriteFile", fsys.WriteFile(name, nil, 0o644))
			}
			Must(t, "Mkdir", fsys.Mkdir("/dir", 0o755))
			Must(t, "Symlink", fsys.Symlink("dir", "/link"))
			list, err := fsys.ReadDir("/")
			Must(t, "ReadDir", err)
			var got []string
			for _, e := range list {
				got = append(got, e.Name()+":"+e.Type().String())
			}
			want := "[B:---------- a:---------- dir:d--------- link:L--------- m:---------- z:----------]"
			if fmt.Sprint(got) != want {
				t.Errorf("ReadDir(/) = %v, want %s", got, want)
			}
			_, err = fsys.ReadDir("/a")
			wantPathErr(t, "ReadDir of a file", err, vfs.ErrNotDir, "/a")
		}},
		{name: "openfile.flags", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			f, err := fsys.OpenFile("/f", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			Must(t, "OpenFile O_EXCL new", err)
			_, err = f.Write([]byte("abc"))
			Must(t, "Write", err)
			Must(t, "Close", f.Close())
			_, err = fsys.OpenFile("/f", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			wantPathErr(t, "OpenFile O_EXCL existing", err, fs.ErrExist, "/f")
			f, err = fsys.OpenFile("/f", os.O_WRONLY|os.O_APPEND, 0)
			Must(t, "OpenFile O_APPEND", err)
			_, err = f.Write([]byte("d"))
			Must(t, "Write", err)
			Must(t, "Close", f.Close())
			WantText(t, fsys, "/f", "abcd")
			f, err = fsys.OpenFile("/f", os.O_RDONLY, 0)
			Must(t, "OpenFile O_RDONLY", err)
			if _, err := f.Write([]byte("x")); err == nil {
				t.Errorf("Write on a read-only handle succeeded")
			}
			Must(t, "Close", f.Close())
			f, err = fsys.OpenFile("/f", os.O_WRONLY|os.O_TRUNC, 0)
			Must(t, "OpenFile O_TRUNC", err)
			Must(t, "Close", f.Close())
			WantText(t, fsys, "/f", "")
			// Linux truncates under O_RDONLY too (POSIX leaves it open).
			Must(t, "WriteFile", fsys.WriteFile("/f", []byte("abc"), 0o644))
			f, err = fsys.OpenFile("/f", os.O_RDONLY|os.O_TRUNC, 0)
			Must(t, "OpenFile O_RDONLY|O_TRUNC", err)
			Must(t, "Close", f.Close())
			WantText(t, fsys, "/f", "")
			_, err = fsys.OpenFile("/nope", os.O_WRONLY, 0)
			wantPathErr(t, "OpenFile missing without O_CREATE", err, fs.ErrNotExist, "/nope")
		}},
	}
}

func renameChecks() []check {
	return []check{
		{name: "rename.file", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Rename", fsys.Rename("/d/target.txt", "/e/moved.txt"))
			WantText(t, fsys, "/e/moved.txt", "T")
			wantMissing(t, fsys, "/d/target.txt")
		}},
		{name: "rename.replace_file", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"a": File("A"), "b": File("B")})
			Must(t, "Rename", fsys.Rename("/a", "/b"))
			WantText(t, fsys, "/b", "A")
			wantMissing(t, fsys, "/a")
		}},
		{name: "rename.dir", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Rename", fsys.Rename("/d", "/e/g"))
			WantText(t, fsys, "/e/g/sub/inner.txt", "I")
			WantText(t, fsys, "/e/g/target.txt", "T")
			wantMissing(t, fsys, "/d")
		}},
		{name: "rename.dir_over_empty_dir", why: "rename(2) replaces an empty directory", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Rename", fsys.Rename("/d", "/e"))
			WantText(t, fsys, "/e/sub/inner.txt", "I")
			wantMissing(t, fsys, "/d")
		}},
		{name: "rename.sibling_prefix", why: "renaming p must not touch pq", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"p/x": File("X"), "pq/y": File("Y"), "p.q": File("Z")})
			Must(t, "Rename", fsys.Rename("/p", "/r"))
			WantText(t, fsys, "/r/x", "X")
			WantText(t, fsys, "/pq/y", "Y")
			WantText(t, fsys, "/p.q", "Z")
			wantMissing(t, fsys, "/p")
			wantMissing(t, fsys, "/r/y")
		}},
		{name: "rename.missing_parent_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			err := fsys.Rename("/d/target.txt", "/nope/x")
			wantLinkErr(t, "Rename to a missing parent", err, "/d/target.txt", "/nope/x", fs.ErrNotExist)
			WantText(t, fsys, "/d/target.txt", "T")
			err = fsys.Rename("/nope", "/e/x")
			wantLinkErr(t, "Rename of a missing file", err, "/nope", "/e/x", fs.ErrNotExist)
		}},
		{name: "rename.dir_over_nonempty_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"a/x": File("X"), "b/y": File("Y")})
			err := fsys.Rename("/a", "/b")
			wantLinkErr(t, "Rename over a non-empty dir", err, "/a", "/b", vfs.ErrNotEmpty, syscall.EEXIST)
			WantText(t, fsys, "/a/x", "X")
			WantText(t, fsys, "/b/y", "Y")
		}},
		{name: "rename.into_self_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			err := fsys.Rename("/d", "/d/sub/x")
			wantLinkErr(t, "Rename into own subtree", err, "/d", "/d/sub/x", syscall.EINVAL, fs.ErrInvalid)
			WantText(t, fsys, "/d/sub/inner.txt", "I")
			wantMissing(t, fsys, "/d/sub/x")
		}},
		{name: "rename.same_is_noop", why: "rename(x, x) succeeds and changes nothing", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"f": File("F"), "d/x": File("X"), "l": Link("f")})
			for _, name := range []string{"/f", "/d", "/l"} {
				Must(t, "Rename "+name+" onto itself", fsys.Rename(name, name))
			}
			WantText(t, fsys, "/f", "F")
			WantText(t, fsys, "/d/x", "X")
			wantTarget(t, fsys, "/l", "f")
		}},
		{name: "rename.type_mismatch_errs", why: "file over dir is EISDIR, dir over file is ENOTDIR", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"f": File("F"), "d": Dir()})
			err := fsys.Rename("/f", "/d")
			wantLinkErr(t, "Rename file over dir", err, "/f", "/d", vfs.ErrIsDir)
			err = fsys.Rename("/d", "/f")
			wantLinkErr(t, "Rename dir over file", err, "/d", "/f", vfs.ErrNotDir)
			WantText(t, fsys, "/f", "F")
			wantType(t, fsys, "/d", fs.ModeDir)
		}},
	}
}

func createRemoveChecks() []check {
	return []check{
		{name: "remove.nonempty_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			err := fsys.Remove("/d")
			wantPathErr(t, "Remove non-empty dir", err, vfs.ErrNotEmpty, "/d")
			WantText(t, fsys, "/d/sub/inner.txt", "I")
			Must(t, "Remove empty dir", fsys.Remove("/e"))
			Must(t, "Remove file", fsys.Remove("/d/target.txt"))
			wantMissing(t, fsys, "/e")
			wantMissing(t, fsys, "/d/target.txt")
		}},
		{name: "removeall", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "RemoveAll", fsys.RemoveAll("/d"))
			wantMissing(t, fsys, "/d")
			wantMissing(t, fsys, "/d/sub/inner.txt")
			Must(t, "RemoveAll missing", fsys.RemoveAll("/nope/x"))
			Must(t, "RemoveAll file", fsys.RemoveAll("/e"))
			list, err := fsys.ReadDir("/")
			if err != nil || len(list) != 0 {
				t.Errorf("ReadDir(/) = %v, %v; want empty", entryNames(list), err)
			}
		}},
		{name: "create.missing_parent_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			err := fsys.WriteFile("/nope/f", []byte("x"), 0o644)
			wantPathErr(t, "WriteFile", err, fs.ErrNotExist, "/nope/f")
			_, err = fsys.OpenFile("/nope/f", os.O_WRONLY|os.O_CREATE, 0o644)
			wantPathErr(t, "OpenFile O_CREATE", err, fs.ErrNotExist, "/nope/f")
			wantMissing(t, fsys, "/nope")
		}},
		{name: "mkdir.missing_parent_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			err := fsys.Mkdir("/nope/d", 0o755)
			wantPathErr(t, "Mkdir", err, fs.ErrNotExist, "/nope/d")
			wantMissing(t, fsys, "/nope")
		}},
		{name: "create.under_file_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"f": File("F")})
			err := fsys.WriteFile("/f/x", []byte("x"), 0o644)
			wantPathErr(t, "WriteFile under a file", err, vfs.ErrNotDir, "/f/x")
			err = fsys.Mkdir("/f/x", 0o755)
			wantPathErr(t, "Mkdir under a file", err, vfs.ErrNotDir, "/f/x")
			_, err = fsys.Stat("/f/x")
			wantPathErr(t, "Stat under a file", err, vfs.ErrNotDir, "/f/x")
			WantText(t, fsys, "/f", "F")
		}},
		{name: "mkdirall", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "MkdirAll", fsys.MkdirAll("/a/b/c", 0o755))
			Must(t, "MkdirAll again", fsys.MkdirAll("/a/b/c", 0o755))
			wantType(t, fsys, "/a/b/c", fs.ModeDir)
			Must(t, "Symlink", fsys.Symlink("../d", "/e/dl"))
			Must(t, "MkdirAll through a dir link", fsys.MkdirAll("/e/dl/new/x", 0o755))
			wantType(t, fsys, "/d/new/x", fs.ModeDir)
		}},
		{name: "mkdirall.over_file_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"f": File("F")})
			err := fsys.MkdirAll("/f", 0o755)
			wantPathErr(t, "MkdirAll over a file", err, vfs.ErrNotDir, "/f")
			err = fsys.MkdirAll("/f/x/y", 0o755)
			if !isAny(err, vfs.ErrNotDir) {
				t.Errorf("MkdirAll below a file = %v, want ErrNotDir", err)
			}
			WantText(t, fsys, "/f", "F")
		}},
	}
}

// modeOf returns fi's mode, or 0 for a nil fi.
func modeOf(fi fs.FileInfo) fs.FileMode {
	if fi == nil {
		return 0
	}
	return fi.Mode()
}

// wantMtime asserts that name (followed) has modification time want.
func wantMtime(t *testing.T, fsys vfs.FS, name string, want time.Time) {
	t.Helper()
	fi, err := vfs.Stat(fsys, name)
	if err != nil {
		t.Errorf("Stat(%q): %v", name, err)
		return
	}
	if !fi.ModTime().Equal(want) {
		t.Errorf("Stat(%q).ModTime() = %v, want %v", name, fi.ModTime(), want)
	}
}

// wantMtimeChanged asserts that name (followed) no longer has modification
// time old.
func wantMtimeChanged(t *testing.T, fsys vfs.FS, name string, old time.Time) {
	t.Helper()
	fi, err := vfs.Stat(fsys, name)
	if err != nil {
		t.Errorf("Stat(%q): %v", name, err)
		return
	}
	if fi.ModTime().Equal(old) {
		t.Errorf("Stat(%q).ModTime() is still %v after a change", name, old)
	}
}
