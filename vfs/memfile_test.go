package vfs_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func mustWrite(t *testing.T, f vfs.File, s string) {
	t.Helper()
	if _, err := io.WriteString(f, s); err != nil {
		t.Fatalf("write %q: %v", s, err)
	}
}

// mustOpen opens name in m, fails the test on error and closes the file
// when the test ends.
func mustOpen(t *testing.T, m *vfs.MemFS, name string, flag int, perm fs.FileMode) vfs.File {
	t.Helper()
	f, err := m.OpenFile(name, flag, perm)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func mustRead(t *testing.T, m *vfs.MemFS, name, want string) {
	t.Helper()
	got, err := m.ReadFile(name)
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", name, err)
	}
	if string(got) != want {
		t.Fatalf("ReadFile(%s) = %q, want %q", name, got, want)
	}
}

func TestOpenFileHandles(t *testing.T) {
	t.Parallel()
	t.Run("append and truncate", func(t *testing.T) {
		t.Parallel()
		m := vfs.NewMemFS(vfs.MemOptions{})
		if err := m.WriteFile("/f", []byte("ab"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := m.OpenFile("/f", os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, f, "cd")
		mustRead(t, m, "/f", "abcd")
		if _, err := f.(io.WriterAt).WriteAt([]byte("x"), 0); err == nil {
			t.Fatal("WriteAt on an O_APPEND file succeeded; os refuses it")
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); !errors.Is(err, fs.ErrClosed) {
			t.Fatalf("second Close = %v, want fs.ErrClosed", err)
		}
		mustOpen(t, m, "/f", os.O_RDWR|os.O_TRUNC, 0)
		mustRead(t, m, "/f", "")
	})
	t.Run("write to a read-only handle", func(t *testing.T) {
		t.Parallel()
		m := vfs.NewMemFS(vfs.MemOptions{})
		_ = m.WriteFile("/f", []byte("ab"), 0o644)
		f := mustOpen(t, m, "/f", os.O_RDONLY, 0)
		if _, err := f.Write([]byte("x")); err == nil {
			t.Fatal("write to O_RDONLY handle succeeded")
		}
	})
	t.Run("handle follows a rename", func(t *testing.T) {
		t.Parallel()
		m := vfs.NewMemFS(vfs.MemOptions{})
		_ = m.Mkdir("/d", 0o755)
		f := mustOpen(t, m, "/d/f", os.O_WRONLY|os.O_CREATE, 0o644)
		mustWrite(t, f, "one")
		if err := m.Rename("/d", "/e"); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, f, "two")
		mustRead(t, m, "/e/f", "onetwo")
	})
	t.Run("handle survives a clone without leaking into it", func(t *testing.T) {
		t.Parallel()
		m := vfs.NewMemFS(vfs.MemOptions{})
		f := mustOpen(t, m, "/f", os.O_WRONLY|os.O_CREATE, 0o644)
		mustWrite(t, f, "a")
		c := m.Clone()
		mustWrite(t, f, "b")
		mustRead(t, m, "/f", "ab")
		mustRead(t, c, "/f", "a")
	})
	t.Run("removed file keeps its content for the handle", func(t *testing.T) {
		t.Parallel()
		m := vfs.NewMemFS(vfs.MemOptions{})
		f := mustOpen(t, m, "/f", os.O_RDWR|os.O_CREATE, 0o644)
		mustWrite(t, f, "abc")
		if err := m.Remove("/f"); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, f, "d")
		if _, err := f.(io.Seeker).Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		if err != nil || string(got) != "abcd" {
			t.Fatalf("read back %q, %v; want \"abcd\"", got, err)
		}
		if _, err := m.Stat("/f"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Stat after remove = %v, want ErrNotExist", err)
		}
	})
	t.Run("exclusive create does not follow a dangling link", func(t *testing.T) {
		t.Parallel()
		m := vfs.NewMemFS(vfs.MemOptions{})
		_ = m.Symlink("/target", "/link")
		if _, err := m.OpenFile("/link", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("O_EXCL through a dangling link = %v, want ErrExist", err)
		}
		if _, err := m.Lstat("/target"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("target was created: %v", err)
		}
	})
	t.Run("directory handle lists in pages", func(t *testing.T) {
		t.Parallel()
		m := vfs.NewMemFS(vfs.MemOptions{})
		for _, n := range []string{"/c", "/a", "/b"} {
			_ = m.WriteFile(n, nil, 0o644)
		}
		d, err := m.Open("/")
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		rd := d.(fs.ReadDirFile)
		var names []string
		for {
			page, err := rd.ReadDir(2)
			for _, e := range page {
				names = append(names, e.Name())
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if got := fmt.Sprint(names); got != "[a b c]" {
			t.Fatalf("ReadDir pages = %s, want [a b c]", got)
		}
	})
}

// TestDirHandleFollowsRenamedDir checks that a directory opened by name,
// then renamed, lists the entries it holds when read, like an open
// descriptor on Linux, and that each entry appears once.
func TestDirHandleFollowsRenamedDir(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t,
		m.MkdirAll("/d", 0o755),
		m.WriteFile("/d/b", nil, 0o644),
		m.WriteFile("/d/c", nil, 0o644),
	)
	f := mustOpen(t, m, "/d", os.O_RDONLY, 0)
	if err := m.Rename("/d", "/e"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Stat(); err != nil { // the handle notices its name is gone
		t.Fatal(err)
	}
	if err := m.WriteFile("/e/a", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := f.(fs.ReadDirFile).ReadDir(-1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, vfstest.EntryNames(list)); diff != "" {
		t.Fatalf("ReadDir (-want +got):\n%s", diff)
	}
}

// TestDirEntryInfoIsTheListing checks that a listed entry's Info describes
// the entry as listed: it reads nothing of the file system later, so that
// it needs no lock and cannot race with a writer (an afero.ReadDir
// calling Info while another goroutine wrote the file raced under -race).
func TestDirEntryInfoIsTheListing(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	if err := m.WriteFile("/f", []byte("four"), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := m.ReadDir("/")
	if err != nil || len(list) != 1 {
		t.Fatalf("ReadDir = %v, %v", list, err)
	}
	if err := m.WriteFile("/f", []byte("longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Chmod("/f", 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := list[0].Info()
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != 4 || fi.Mode() != 0o644 {
		t.Fatalf("Info = size %d mode %v, want the listing's size 4 and mode 0644", fi.Size(), fi.Mode())
	}
}
