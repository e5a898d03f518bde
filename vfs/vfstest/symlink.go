package vfstest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

func symlinkChecks() []check {
	return []check{
		{name: "sym.create", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			wantType(t, fsys, "/d/rel", fs.ModeSymlink)
		}},
		{name: "sym.nul_target", why: "a NUL byte anywhere in a target, first included, is EINVAL", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			for _, target := range []string{"\x00x", "x\x00"} {
				wantLinkErr(t, "Symlink with a NUL in the target", fsys.Symlink(target, "/d/nul"), target, "/d/nul", syscall.EINVAL)
			}
			wantMissing(t, fsys, "/d/nul")
		}},
		{name: "sym.readlink_literal", why: "targets are stored verbatim, never cleaned or resolved", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			for i, target := range []string{"target.txt", "./target.txt", "../d//target.txt", "/d/target.txt", "missing/x", "sub/"} {
				name := fmt.Sprintf("/e/l%d", i)
				Must(t, "Symlink", fsys.Symlink(target, name))
				wantTarget(t, fsys, name, target)
			}
		}},
		{name: "sym.lstat", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			fi, err := fsys.Lstat("/d/rel")
			Must(t, "Lstat", err)
			if fi.Mode()&fs.ModeSymlink == 0 || fi.Name() != "rel" {
				t.Errorf("Lstat = %s %v, want rel, a symlink", fi.Name(), fi.Mode())
			}
			if fi.Size() != int64(len("target.txt")) {
				t.Errorf("Lstat size = %d, want the target's length %d (Linux)", fi.Size(), len("target.txt"))
			}
		}},
		{name: "sym.stat_follows", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			fi, err := fsys.Stat("/d/rel")
			Must(t, "Stat", err)
			if !fi.Mode().IsRegular() || fi.Size() != 1 || fi.Name() != "rel" {
				t.Errorf("Stat = %s %v size %d, want rel, a regular file of size 1", fi.Name(), fi.Mode(), fi.Size())
			}
		}},
		{name: "sym.open_relative", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			WantText(t, fsys, "/d/rel", "T")
			f, err := fsys.Open("/d/rel")
			Must(t, "Open", err)
			defer f.Close()
			b, err := io.ReadAll(f)
			if err != nil || string(b) != "T" {
				t.Errorf("Open+ReadAll = %q, %v; want T", b, err)
			}
		}},
		{name: "sym.open_absolute", why: "absolute targets resolve inside the file system's namespace", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("/d/target.txt", "/e/abs"))
			WantText(t, fsys, "/e/abs", "T")
			Must(t, "Symlink", fsys.Symlink("/d", "/e/absdir"))
			WantText(t, fsys, "/e/absdir/sub/inner.txt", "I")
		}},
		{name: "sym.chain", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			Must(t, "Symlink", fsys.Symlink("c2", "/e/c1"))
			Must(t, "Symlink", fsys.Symlink("../d/rel", "/e/c2"))
			WantText(t, fsys, "/e/c1", "T")
			wantTarget(t, fsys, "/e/c1", "c2")
		}},
		{name: "sym.dir_in_path", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("../d", "/e/dl"))
			WantText(t, fsys, "/e/dl/sub/inner.txt", "I")
			Must(t, "WriteFile through a dir link", fsys.WriteFile("/e/dl/new.txt", []byte("N"), 0o644))
			WantText(t, fsys, "/d/new.txt", "N")
			wantType(t, fsys, "/e/dl/sub", fs.ModeDir)
			list, err := fsys.ReadDir("/e/dl")
			Must(t, "ReadDir through a dir link", err)
			if got := entryNames(list); fmt.Sprint(got) != "[new.txt sub target.txt]" {
				t.Errorf("ReadDir(/e/dl) = %v, want [new.txt sub target.txt]", got)
			}
		}},
		{name: "sym.dotdot_target", why: "a .. after a link goes up from the link's target, not lexically", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("../target.txt", "/d/sub/up"))
			WantText(t, fsys, "/d/sub/up", "T")
			Must(t, "Symlink", fsys.Symlink("../d/sub", "/e/sl"))
			Must(t, "Symlink", fsys.Symlink("sl/../target.txt", "/e/phys"))
			WantText(t, fsys, "/e/phys", "T")
		}},
		{name: "sym.loop_stat", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d/a": Link("b"), "d/b": Link("a")})
			_, err := fsys.Stat("/d/a")
			wantPathErr(t, "Stat loop", err, vfs.ErrLoop, "/d/a")
			_, err = fsys.Stat("/d/a/x")
			wantPathErr(t, "Stat below a loop", err, vfs.ErrLoop, "/d/a/x")
			wantType(t, fsys, "/d/a", fs.ModeSymlink)
		}},
		{name: "sym.loop_open", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d/a": Link("b"), "d/b": Link("a")})
			_, err := fsys.Open("/d/a")
			wantPathErr(t, "Open loop", err, vfs.ErrLoop, "/d/a")
			_, err = fsys.ReadFile("/d/a")
			wantPathErr(t, "ReadFile loop", err, vfs.ErrLoop, "/d/a")
			err = fsys.WriteFile("/d/a", []byte("x"), 0o644)
			wantPathErr(t, "WriteFile loop", err, vfs.ErrLoop, "/d/a")
		}},
		{name: "sym.loop_self", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d/self": Link("self")})
			_, err := fsys.Stat("/d/self")
			wantPathErr(t, "Stat self loop", err, vfs.ErrLoop, "/d/self")
			wantTarget(t, fsys, "/d/self", "self")
		}},
		{name: "sym.hop_limit", why: "Linux follows 40 links for one path and fails on the 41st", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			tree := Tree{"d/f": File("F"), "d/l1": Link("f")}
			for i := 2; i <= vfs.MaxSymlinkHops+1; i++ {
				tree[fmt.Sprintf("d/l%d", i)] = Link(fmt.Sprintf("l%d", i-1))
			}
			build(t, fsys, tree)
			WantText(t, fsys, fmt.Sprintf("/d/l%d", vfs.MaxSymlinkHops), "F")
			last := fmt.Sprintf("/d/l%d", vfs.MaxSymlinkHops+1)
			_, err := fsys.ReadFile(last)
			wantPathErr(t, "ReadFile one hop over the limit", err, vfs.ErrLoop, last)
		}},
		{name: "sym.dangling", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink dangling", fsys.Symlink("nowhere", "/d/dang"))
			wantType(t, fsys, "/d/dang", fs.ModeSymlink)
			wantTarget(t, fsys, "/d/dang", "nowhere")
			_, err := fsys.Stat("/d/dang")
			wantPathErr(t, "Stat dangling", err, fs.ErrNotExist, "/d/dang")
			_, err = fsys.ReadFile("/d/dang")
			wantPathErr(t, "ReadFile dangling", err, fs.ErrNotExist, "/d/dang")
		}},
		{name: "sym.write_through", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			Must(t, "WriteFile through link", fsys.WriteFile("/d/rel", []byte("W"), 0o644))
			WantText(t, fsys, "/d/target.txt", "W")
			wantType(t, fsys, "/d/rel", fs.ModeSymlink)
			f, err := fsys.OpenFile("/d/rel", os.O_WRONLY|os.O_APPEND, 0)
			Must(t, "OpenFile append through link", err)
			_, err = f.Write([]byte("2"))
			Must(t, "Write", err)
			Must(t, "Close", f.Close())
			WantText(t, fsys, "/d/target.txt", "W2")
		}},
		{name: "sym.create_through_dangling", why: "writing to a dangling link creates its target", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("new.txt", "/d/dang"))
			Must(t, "WriteFile through dangling link", fsys.WriteFile("/d/dang", []byte("N"), 0o644))
			WantText(t, fsys, "/d/new.txt", "N")
			wantType(t, fsys, "/d/dang", fs.ModeSymlink)
		}},
		{name: "sym.create_through_dangling_missing_parent_errs", why: "the target's parent is never synthesized", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("missing/new.txt", "/d/dang"))
			err := fsys.WriteFile("/d/dang", []byte("N"), 0o644)
			wantPathErr(t, "WriteFile", err, fs.ErrNotExist, "/d/dang")
			wantMissing(t, fsys, "/d/missing")
		}},
		{name: "sym.create_excl_on_dangling_errs", why: "O_CREATE|O_EXCL never follows a final link (EEXIST)", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("new.txt", "/d/dang"))
			_, err := fsys.OpenFile("/d/dang", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			wantPathErr(t, "OpenFile O_EXCL", err, fs.ErrExist, "/d/dang")
			wantMissing(t, fsys, "/d/new.txt")
		}},
		{name: "sym.remove_link", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			Must(t, "Symlink", fsys.Symlink("../d", "/e/dl"))
			Must(t, "Remove file link", fsys.Remove("/d/rel"))
			Must(t, "Remove dir link", fsys.Remove("/e/dl"))
			wantMissing(t, fsys, "/d/rel")
			wantMissing(t, fsys, "/e/dl")
			WantText(t, fsys, "/d/target.txt", "T")
			WantText(t, fsys, "/d/sub/inner.txt", "I")
		}},
		{name: "sym.rename_link", why: "the moved link keeps its verbatim target, which now resolves from the new place", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			Must(t, "Rename", fsys.Rename("/d/rel", "/e/moved"))
			wantTarget(t, fsys, "/e/moved", "target.txt")
			_, err := fsys.Stat("/e/moved")
			wantPathErr(t, "Stat moved link", err, fs.ErrNotExist, "/e/moved")
			wantMissing(t, fsys, "/d/rel")
			WantText(t, fsys, "/d/target.txt", "T")
		}},
		{name: "sym.onto_existing_errs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			for _, name := range []string{"/d/target.txt", "/e", "/d/rel"} {
				err := fsys.Symlink("x", name)
				wantLinkErr(t, "Symlink onto "+name, err, "x", name, fs.ErrExist)
			}
			WantText(t, fsys, "/d/target.txt", "T")
			wantTarget(t, fsys, "/d/rel", "target.txt")
			wantType(t, fsys, "/e", fs.ModeDir)
		}},
		{name: "sym.walk_no_follow", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("../d", "/e/dl"))
			var got []string
			err := fs.WalkDir(vfs.Sub(fsys, "/"), "e", func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				got = append(got, p+":"+d.Type().String())
				return nil
			})
			Must(t, "WalkDir", err)
			if want := "[e:d--------- e/dl:L---------]"; fmt.Sprint(got) != want {
				t.Errorf("WalkDir(e) = %v, want %s", got, want)
			}
		}},
		{name: "sym.removeall_no_follow", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("../d", "/e/dl"))
			Must(t, "Symlink", fsys.Symlink("/d/sub", "/e/abs"))
			Must(t, "RemoveAll", fsys.RemoveAll("/e"))
			wantMissing(t, fsys, "/e")
			WantText(t, fsys, "/d/target.txt", "T")
			WantText(t, fsys, "/d/sub/inner.txt", "I")
			Must(t, "Symlink", fsys.Symlink("d", "/dl"))
			Must(t, "RemoveAll of a link", fsys.RemoveAll("/dl"))
			wantMissing(t, fsys, "/dl")
			WantText(t, fsys, "/d/sub/inner.txt", "I")
			// os.RemoveAll removes the base name from its parent: a trailing
			// slash does not make it follow the link either.
			Must(t, "Symlink", fsys.Symlink("d", "/dl"))
			Must(t, "RemoveAll of a link with a trailing slash", fsys.RemoveAll("/dl/"))
			wantMissing(t, fsys, "/dl")
			WantText(t, fsys, "/d/sub/inner.txt", "I")
		}},
		{name: "sym.target_trailing_slash", why: "a link whose target ends in / names a directory: through it a file is ENOTDIR, and creating a file is EISDIR before any lookup (Linux open_last_lookups)", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("d/target.txt/", "/tf"))
			Must(t, "Symlink", fsys.Symlink("d/sub/", "/td"))
			Must(t, "Symlink", fsys.Symlink("d/new/", "/tn"))
			Must(t, "Symlink", fsys.Symlink("tl/", "/tl"))
			_, err := fsys.Stat("/tf")
			wantPathErr(t, "Stat through a slash target naming a file", err, vfs.ErrNotDir, "/tf")
			if fi, err := fsys.Stat("/td"); err != nil || !fi.IsDir() {
				t.Errorf("Stat through a slash target naming a directory: %v, %v", fi, err)
			}
			err = fsys.WriteFile("/tn", []byte("x"), 0o644)
			wantPathErr(t, "WriteFile through a dangling slash target", err, vfs.ErrIsDir, "/tn")
			err = fsys.WriteFile("/tl", []byte("x"), 0o644)
			wantPathErr(t, "WriteFile through a slash target naming itself", err, vfs.ErrIsDir, "/tl")
			wantMissing(t, fsys, "/d/new")
		}},
		{name: "sym.escape_root", why: "nothing resolves above /: either clamped at / (like Linux at its root) or refused", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"x": File("inside"), "d/e/f": Dir()})
			Must(t, "Symlink", fsys.Symlink("../../../../../../../../x", "/d/e/f/esc"))
			wantTarget(t, fsys, "/d/e/f/esc", "../../../../../../../../x")
			for _, name := range []string{"/d/e/f/esc", "/../../x"} {
				got, err := fsys.ReadFile(name)
				if err == nil && string(got) != "inside" {
					t.Errorf("ReadFile(%q) = %q, want an error or the namespace's /x", name, got)
				}
			}
		}},
		{name: "sym.iofs_readlinkfs", why: "vfs.Sub views are fs.ReadLinkFS", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("target.txt", "/d/rel"))
			sub := vfs.Sub(fsys, "/d")
			rl, ok := sub.(fs.ReadLinkFS)
			if !ok {
				t.Fatalf("vfs.Sub view %T is not an fs.ReadLinkFS", sub)
			}
			got, err := rl.ReadLink("rel")
			if err != nil || got != "target.txt" {
				t.Errorf("ReadLink(rel) = %q, %v; want target.txt", got, err)
			}
			fi, err := rl.Lstat("rel")
			if err != nil || fi.Mode().Type() != fs.ModeSymlink {
				t.Errorf("Lstat(rel) = %v, %v; want a symlink", fi, err)
			}
			b, err := fs.ReadFile(sub, "rel")
			if err != nil || string(b) != "T" {
				t.Errorf("fs.ReadFile(rel) = %q, %v; want T", b, err)
			}
		}},
	}
}

// entryNames returns the names of list, in order.
func entryNames(list []fs.DirEntry) []string {
	names := make([]string, len(list))
	for i, e := range list {
		names[i] = e.Name()
	}
	return names
}

// isAny reports whether err wraps one of errs.
func isAny(err error, errs ...error) bool {
	for _, e := range errs {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
