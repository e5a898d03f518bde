package vfstest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/outfitter-go/vfsim/vfs"
)

func errorChecks() []check {
	return []check{
		{name: "err.not_exist", why: "every single-name operation returns *fs.PathError with the caller's name", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			const name = "/nope/x"
			ops := []struct {
				op string
				do func() error
			}{
				{"Open", func() error { _, err := fsys.Open(name); return err }},
				{"OpenFile", func() error { _, err := fsys.OpenFile(name, os.O_RDWR, 0); return err }},
				{"Stat", func() error { _, err := fsys.Stat(name); return err }},
				{"Lstat", func() error { _, err := fsys.Lstat(name); return err }},
				{"ReadFile", func() error { _, err := fsys.ReadFile(name); return err }},
				{"ReadDir", func() error { _, err := fsys.ReadDir(name); return err }},
				{"ReadLink", func() error { _, err := fsys.ReadLink(name); return err }},
				{"Remove", func() error { return fsys.Remove(name) }},
				{"Chmod", func() error { return fsys.Chmod(name, 0o600) }},
				{"Chtimes", func() error { return fsys.Chtimes(name, time2001, time2001) }},
				{"WriteFile", func() error { return fsys.WriteFile(name, nil, 0o644) }},
				{"Mkdir", func() error { return fsys.Mkdir(name, 0o755) }},
			}
			for _, o := range ops {
				wantPathErr(t, o.op, o.do(), fs.ErrNotExist, name)
			}
		}},
		{name: "err.exist", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			wantPathErr(t, "Mkdir existing dir", fsys.Mkdir("/e", 0o755), fs.ErrExist, "/e")
			wantPathErr(t, "Mkdir over a file", fsys.Mkdir("/d/target.txt", 0o755), fs.ErrExist, "/d/target.txt")
			Must(t, "Symlink", fsys.Symlink("nowhere", "/d/dang"))
			wantPathErr(t, "Mkdir over a dangling link", fsys.Mkdir("/d/dang", 0o755), fs.ErrExist, "/d/dang")
		}},
		{name: "err.path_is_callers_name", why: "errors name the path as given, not as resolved", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			Must(t, "Symlink", fsys.Symlink("../d", "/e/dl"))
			_, err := fsys.Stat("/e/dl/nope")
			wantPathErr(t, "Stat through a dir link", err, fs.ErrNotExist, "/e/dl/nope")
			_, err = fsys.ReadFile("/e/dl/sub/nope")
			wantPathErr(t, "ReadFile through a dir link", err, fs.ErrNotExist, "/e/dl/sub/nope")
			err = fsys.Remove("/e/dl/sub")
			wantPathErr(t, "Remove through a dir link", err, vfs.ErrNotEmpty, "/e/dl/sub")
		}},
		{name: "err.rename_linkerror", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			err := fsys.Rename("/a", "/b")
			wantLinkErr(t, "Rename missing", err, "/a", "/b", fs.ErrNotExist)
			err = fsys.Symlink("x", "/nope/l")
			wantLinkErr(t, "Symlink with a missing parent", err, "x", "/nope/l", fs.ErrNotExist)
		}},
		{name: "err.is_dir", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, symBase())
			_, err := fsys.ReadFile("/d")
			wantPathErr(t, "ReadFile of a dir", err, vfs.ErrIsDir, "/d")
			err = fsys.WriteFile("/d", nil, 0o644)
			wantPathErr(t, "WriteFile over a dir", err, vfs.ErrIsDir, "/d")
			_, err = fsys.OpenFile("/d", os.O_WRONLY, 0)
			wantPathErr(t, "OpenFile of a dir for writing", err, vfs.ErrIsDir, "/d")
		}},
		{name: "walk.lexical", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			// Created out of order; '-' and '.' sort before '/'.
			Must(t, "Mkdir", fsys.Mkdir("/w", 0o755))
			for _, name := range []string{"/w/ab", "/w/a.b", "/w/a-b"} {
				Must(t, "WriteFile", fsys.WriteFile(name, nil, 0o644))
			}
			Must(t, "Mkdir", fsys.Mkdir("/w/a", 0o755))
			Must(t, "WriteFile", fsys.WriteFile("/w/a/b", nil, 0o644))
			var got []string
			err := fs.WalkDir(vfs.Sub(fsys, "/"), "w", func(p string, _ fs.DirEntry, err error) error {
				got = append(got, p)
				return err
			})
			Must(t, "WalkDir", err)
			if want := "[w w/a w/a/b w/a-b w/a.b w/ab]"; fmt.Sprint(got) != want {
				t.Errorf("WalkDir(w) order = %v, want %s", got, want)
			}
		}},
	}
}

func iofsChecks() []check {
	return []check{
		{name: "iofs.fstest", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{
				"t/a.txt":       File("A"),
				"t/dir/b.txt":   File("B"),
				"t/dir/deep/c":  File(""),
				"t/empty":       Dir(),
				"t/private.txt": File("P").WithMode(0o600),
			})
			if err := fstest.TestFS(vfs.Sub(fsys, "/t"), "a.txt", "dir/b.txt", "dir/deep/c", "private.txt"); err != nil {
				t.Error(err)
			}
		}},
		{name: "iofs.fstest_symlinks", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{
				"t/a.txt":      File("A"),
				"t/dir/b.txt":  File("B"),
				"t/dir/up":     Link("../a.txt"),
				"t/dl":         Link("dir"),
				"t/chain":      Link("dl/up"),
				"t/dir/sibdir": Link("../dl"),
			})
			if err := fstest.TestFS(vfs.Sub(fsys, "/t"), "a.txt", "dir/b.txt", "dir/up", "dl", "chain"); err != nil {
				t.Error(err)
			}
		}},
		{name: "concurrency", why: "8 goroutines write, read and rename at once; meaningful under -race", run: concurrency},
	}
}

// concurrency runs writers, readers and renamers on disjoint and shared
// names and checks the final state.
func concurrency(t *testing.T, fsys vfs.ReadWriteFS) {
	const rounds = 40
	for _, d := range []string{"/c/w0", "/c/w1", "/c/w2", "/c/r0", "/c/r1"} {
		Must(t, "MkdirAll", fsys.MkdirAll(d, 0o755))
	}
	Must(t, "WriteFile", fsys.WriteFile("/c/r0/a", []byte("r0"), 0o644))
	Must(t, "WriteFile", fsys.WriteFile("/c/r1/a", []byte("r1"), 0o644))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 3 {
		wg.Go(func() {
			for i := range rounds {
				name := fmt.Sprintf("/c/w%d/f%d", w, i%5)
				data := fmt.Appendf(nil, "w%d-%d", w, i)
				if err := fsys.WriteFile(name, data, 0o644); err != nil {
					errs <- err
					return
				}
				if got, err := fsys.ReadFile(name); err != nil || string(got) != string(data) {
					errs <- fmt.Errorf("ReadFile(%s) = %q, %v; want %q", name, got, err, data)
					return
				}
			}
		})
	}
	for range 3 {
		wg.Go(func() {
			for range rounds {
				// Results race with the writers and renamers; only
				// their shape is checked.
				if _, err := vfs.Snapshot(fsys, "/c"); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs <- err
					return
				}
				if _, err := fsys.ReadDir("/c/r0"); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for r := range 2 {
		wg.Go(func() {
			dir := fmt.Sprintf("/c/r%d", r)
			for i := range rounds {
				from, to := path.Join(dir, "a"), path.Join(dir, "b")
				if i%2 == 1 {
					from, to = to, from
				}
				if err := fsys.Rename(from, to); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for w := range 3 {
		for i := range 5 {
			WantText(t, fsys, fmt.Sprintf("/c/w%d/f%d", w, i), fmt.Sprintf("w%d-%d", w, rounds-5+i))
		}
	}
	WantText(t, fsys, "/c/r0/a", "r0")
	WantText(t, fsys, "/c/r1/a", "r1")
	wantMissing(t, fsys, "/c/r0/b")
}
