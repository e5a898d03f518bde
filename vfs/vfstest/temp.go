package vfstest

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// tempChecks are the checks of what vfs.CreateTemp and vfs.ReplaceFile
// need from a backend: O_CREATE|O_EXCL never follows a final link, and
// Rename replaces a link rather than writing through it.
func tempChecks() []check {
	return []check{
		{name: "temp.create_excl_on_link_errs", why: "O_CREATE|O_EXCL never follows a final link, live or dangling, to a file or a directory (EEXIST)", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d/target.txt": File("T"), "d/sub": Dir(), "d/lf": Link("target.txt"), "d/ld": Link("sub"), "d/dang": Link("new.txt")})
			for _, name := range []string{"/d/lf", "/d/ld", "/d/dang"} {
				_, err := fsys.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|os.O_TRUNC, 0o600)
				wantPathErr(t, "OpenFile O_CREATE|O_EXCL on "+name, err, fs.ErrExist, name)
				wantType(t, fsys, name, fs.ModeSymlink)
			}
			WantText(t, fsys, "/d/target.txt", "T")
			wantMissing(t, fsys, "/d/new.txt")
			wantEntries(t, fsys, "/d/sub", "")
		}},
		{name: "temp.create_temp", why: "a new 0600 file named by the pattern, in the directory its name resolves to", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d": Dir(), "e/dl": Link("../d")})
			f, name, err := vfs.CreateTemp(fsys, "/e/dl", ".x.*.tmp")
			Must(t, "CreateTemp", err)
			_, err = f.Write([]byte("data"))
			Must(t, "Write", err)
			Must(t, "Close", f.Close())
			base := path.Base(name)
			if path.Dir(name) != "/e/dl" || !strings.HasPrefix(base, ".x.") || !strings.HasSuffix(base, ".tmp") || len(base) <= len(".x..tmp") {
				t.Fatalf("CreateTemp name %q does not follow the pattern in /e/dl", name)
			}
			WantText(t, fsys, "/d/"+base, "data")
			fi, err := fsys.Lstat("/d/" + base)
			Must(t, "Lstat", err)
			if fi.Mode() != 0o600 {
				t.Errorf("temporary file mode = %v, want -rw-------", fi.Mode())
			}
		}},
		{name: "temp.create_temp_planted_link", why: "a link planted at the name CreateTemp draws is never followed; another name is drawn", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d": Dir(), "outside/keep": File("K")})
			for _, target := range []string{"/outside/victim", "/outside/keep", "../outside"} {
				p := &plantingFS{ReadWriteFS: fsys, target: target}
				f, name, err := vfs.CreateTemp(p, "/d", "*")
				Must(t, "CreateTemp beside a link planted to "+target, err)
				_, err = f.Write([]byte("secret"))
				Must(t, "Write", err)
				Must(t, "Close", f.Close())
				if p.planted == "" || name == p.planted {
					t.Fatalf("CreateTemp name %q, planted link %q: the planted name must be refused and another drawn", name, p.planted)
				}
				wantTarget(t, fsys, p.planted, target)
				WantText(t, fsys, name, "secret")
			}
			wantMissing(t, fsys, "/outside/victim")
			WantText(t, fsys, "/outside/keep", "K")
			wantEntries(t, fsys, "/outside", "keep")
		}},
		{name: "temp.replace_file", why: "ReplaceFile leaves the data with exactly the mode given (no umask) and no temporary file", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d/f": File("old").WithMode(0o600)})
			Must(t, "ReplaceFile over a file", vfs.ReplaceFile(fsys, "/d/f", []byte("new"), 0o640))
			Must(t, "ReplaceFile of a new name", vfs.ReplaceFile(fsys, "/d/g", []byte("G"), 0o755))
			WantText(t, fsys, "/d/f", "new")
			WantText(t, fsys, "/d/g", "G")
			wantMode(t, fsys, "/d/f", 0o640)
			wantMode(t, fsys, "/d/g", 0o755)
			wantEntries(t, fsys, "/d", "f g")
		}},
		{name: "temp.replace_link", why: "ReplaceFile replaces a link at the name, live or dangling, and never writes through it", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{
				"d/lf":           Link("/outside/keep"),
				"d/dang":         Link("/outside/victim"),
				"d/ldir":         Link("/outside/dir"),
				"outside/keep":   File("K"),
				"outside/dir/in": File("I"),
			})
			for _, name := range []string{"/d/lf", "/d/dang", "/d/ldir"} {
				Must(t, "ReplaceFile of "+name, vfs.ReplaceFile(fsys, name, []byte("new "+name), 0o644))
				wantType(t, fsys, name, 0)
				WantText(t, fsys, name, "new "+name)
				wantMode(t, fsys, name, 0o644)
			}
			WantText(t, fsys, "/outside/keep", "K")
			WantText(t, fsys, "/outside/dir/in", "I")
			wantMissing(t, fsys, "/outside/victim")
			wantEntries(t, fsys, "/d", "dang ldir lf")
		}},
		{name: "temp.replace_strays", why: "ReplaceFile removes the temporary files a killed ReplaceFile of the same name left (.NAME.digits.tmp, files and links), and nothing else", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{
				"d/f": File("old"), "d/.f.123.tmp": File("half"), "d/.f.9.tmp": Link("f"),
				"d/.g.1.tmp": File("G"), "d/.f.tmp": File("1"), "d/.f.x1.tmp": File("2"), "d/f.1.tmp": File("3"), "d/.f.7.tmp.d": Dir(),
			})
			Must(t, "ReplaceFile", vfs.ReplaceFile(fsys, "/d/f", []byte("new"), 0o644))
			WantText(t, fsys, "/d/f", "new")
			wantEntries(t, fsys, "/d", ".f.7.tmp.d .f.tmp .f.x1.tmp .g.1.tmp f f.1.tmp")
		}},
		{name: "sync.dir", why: "a directory syncs, through a link too; a file fails with ENOTDIR, a missing name with ENOENT; an open file syncs", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d/f": File("F"), "l": Link("d")})
			for _, name := range []string{"/d", "/l", "/"} {
				Must(t, "SyncDir "+name, vfs.SyncDir(fsys, name))
			}
			if err := vfs.SyncDir(fsys, "/d/f"); !errors.Is(err, vfs.ErrNotDir) {
				t.Errorf("SyncDir of a file: %v, want ENOTDIR", err)
			}
			if err := vfs.SyncDir(fsys, "/missing"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("SyncDir of a missing name: %v, want ENOENT", err)
			}
			f, err := fsys.OpenFile("/d/f", os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			Must(t, "Sync", vfs.Sync(f))
			Must(t, "Close", f.Close())
		}},
		{name: "temp.replace_dir_errs", why: "a directory at the name is kept, and so is nothing else", run: func(t *testing.T, fsys vfs.ReadWriteFS) {
			build(t, fsys, Tree{"d/sub/in": File("I")})
			err := vfs.ReplaceFile(fsys, "/d/sub", []byte("x"), 0o644)
			var le *os.LinkError
			if !errors.Is(err, vfs.ErrIsDir) || !errors.As(err, &le) {
				t.Errorf("ReplaceFile over a directory: %v, want the rename's *os.LinkError wrapping EISDIR", err)
			}
			WantText(t, fsys, "/d/sub/in", "I")
			wantEntries(t, fsys, "/d", "sub")
		}},
	}
}

// plantingFS plants a symbolic link to target at the first name opened
// with O_EXCL, as an attacker who guessed the name would, and records the
// name.
type plantingFS struct {
	vfs.ReadWriteFS
	target  string
	planted string
}

func (p *plantingFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if p.planted == "" && flag&os.O_EXCL != 0 {
		p.planted = name
		if err := p.ReadWriteFS.Symlink(p.target, name); err != nil {
			return nil, err
		}
	}
	return p.ReadWriteFS.OpenFile(name, flag, perm)
}

// wantEntries asserts the names listed in the directory dir, joined with
// spaces.
func wantEntries(t *testing.T, fsys vfs.FS, dir, want string) {
	t.Helper()
	list, err := vfs.ReadDir(fsys, dir)
	if err != nil {
		t.Errorf("ReadDir(%q): %v", dir, err)
		return
	}
	if got := strings.Join(entryNames(list), " "); got != want {
		t.Errorf("ReadDir(%q) = %q, want %q", dir, got, want)
	}
}
