//go:build linux

package osfs_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// views are the two forms of the FS over a fresh host directory, each
// with the vfs name of that directory.
func views(t *testing.T) map[string]func() (fsys *osfs.FS, dir, host string) {
	return map[string]func() (*osfs.FS, string, string){
		"rooted": func() (*osfs.FS, string, string) {
			host := t.TempDir()
			return osfs.NewRooted(host), "/", host
		},
		"host": func() (*osfs.FS, string, string) {
			host := t.TempDir()
			return osfs.New(), filepath.ToSlash(host), host
		},
	}
}

// TestFileReadDirInfo: the entries an open directory lists answer Info
// for the file of the FS they name; in the rooted view that is the file
// below the root, not the host path that the vfs name would be.
func TestFileReadDirInfo(t *testing.T) {
	t.Parallel()
	for view, open := range views(t) {
		fsys, dir, _ := open()
		sub := filepath.ToSlash(filepath.Join(dir, "sub"))
		build(t, fsys, []node{{path: sub, dir: true}, {path: sub + "/x", data: "xyz"}})
		f, err := fsys.Open(sub)
		if err != nil {
			t.Fatal(err)
		}
		list, err := f.(fs.ReadDirFile).ReadDir(-1)
		f.Close()
		if err != nil || len(list) != 1 {
			t.Fatalf("%s: ReadDir(-1) of %s = %v, %v; want one entry", view, sub, list, err)
		}
		fi, err := list[0].Info()
		if err != nil {
			t.Fatalf("%s: Info() of %s/x: %v", view, sub, err)
		}
		if fi.Name() != "x" || fi.Size() != 3 || !fi.Mode().IsRegular() {
			t.Errorf("%s: Info() of %s/x = %s, %d bytes, %v; want x, 3 bytes, a regular file", view, sub, fi.Name(), fi.Size(), fi.Mode())
		}
	}
}

// TestReadFileOfAFIFO: ReadFile reads until the end of what it reads, not
// up to the size Stat gave (0 for a named pipe), as os.ReadFile does.
func TestReadFileOfAFIFO(t *testing.T) {
	t.Parallel()
	want := bytes.Repeat([]byte("0123456789abcdef"), 300) // past the 512 bytes read first
	for view, open := range views(t) {
		fsys, dir, host := open()
		if err := unix.Mkfifo(filepath.Join(host, "pipe"), 0o600); err != nil {
			t.Fatal(err)
		}
		wrote := make(chan error, 1)
		go func() {
			// The open waits for the reader; the close ends what it reads.
			w, err := os.OpenFile(filepath.Join(host, "pipe"), os.O_WRONLY, 0)
			if err == nil {
				_, err = w.Write(want)
				if cerr := w.Close(); err == nil {
					err = cerr
				}
			}
			wrote <- err
		}()
		got, err := fsys.ReadFile(filepath.ToSlash(filepath.Join(dir, "pipe")))
		if werr := <-wrote; werr != nil {
			t.Fatalf("%s: writer: %v", view, werr)
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: ReadFile of a named pipe = %d bytes, %v; want the %d bytes written", view, len(got), err, len(want))
		}
	}
}

// TestOpenFileIgnoresPermWithoutCreate: like os.OpenFile, the permission
// bits matter only to a call that may create the file; openat2, which the
// rooted view opens with, refuses a mode without O_CREAT, so the view must
// not pass it on.
func TestOpenFileIgnoresPermWithoutCreate(t *testing.T) {
	t.Parallel()
	for view, open := range views(t) {
		fsys, dir, _ := open()
		name := filepath.ToSlash(filepath.Join(dir, "f"))
		build(t, fsys, []node{{path: name, data: "F"}})
		for _, flag := range []int{os.O_RDONLY, os.O_WRONLY | os.O_APPEND, os.O_RDWR} {
			f, err := fsys.OpenFile(name, flag, 0o644)
			if err != nil {
				t.Errorf("%s: OpenFile(%s, %#x, 0o644) = %v", view, name, flag, err)
				continue
			}
			f.Close()
		}
	}
}

// TestNewRootedRelativeDir: a relative directory is made absolute from the
// working directory when the FS is made.
func TestNewRootedRelativeDir(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, host)
	if err != nil || filepath.IsAbs(rel) {
		t.Fatalf("precondition: no relative path from %s to %s: %q, %v", wd, host, rel, err)
	}
	fsys := osfs.NewRooted(rel)
	if fsys.Root() != host {
		t.Errorf("NewRooted(%q).Root() = %q, want %q", rel, fsys.Root(), host)
	}
	if err := fsys.WriteFile("/f", []byte("F"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(host, "f")); err != nil || string(data) != "F" {
		t.Errorf("the file written as /f is not %s/f: %q, %v", host, data, err)
	}
}
