package vfs_test

import (
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
)

// TestMemSmallFilesStayApart checks that the contents of small files,
// which a MemFS keeps side by side in shared batches, stay apart: writing
// one in place, past its end, or through a clone, and changing the slice
// given to WriteFile, changes no other file nor any snapshot taken before.
func TestMemSmallFilesStayApart(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	want := map[string]string{}
	given := make([][]byte, 0, 8)
	for i := range 8 {
		name := fmt.Sprintf("/f%d", i)
		data := []byte(fmt.Sprintf("file %d", i))
		if err := m.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		given = append(given, data)
		want[name] = string(data)
	}
	before, err := vfs.Snapshot(m, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range given {
		copy(data, "XXXX") // the caller's slice is its own
	}
	c := m.Clone()
	write := func(fsys *vfs.MemFS, name string, off int64, s string) {
		t.Helper()
		f, err := fsys.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.(io.WriterAt).WriteAt([]byte(s), off); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(m, "/f2", 0, "FILE")           // in place
	write(m, "/f3", 6, " and more")      // past the end
	write(c, "/f4", 0, "CLONE")          // in the clone only
	write(m, "/f5", 1, "ILE 5 grows on") // in place and past the end
	want["/f2"] = "FILE 2"
	want["/f3"] = "file 3 and more"
	want["/f5"] = "fILE 5 grows on"
	got := map[string]string{}
	for name := range want {
		data, err := m.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = string(data)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("contents (-want +got):\n%s", d)
	}
	if data, err := c.ReadFile("/f4"); err != nil || string(data) != "CLONE4" {
		t.Errorf("clone's /f4 = %q, %v; want %q", data, err, "CLONE4")
	}
	for i := range 8 {
		name := fmt.Sprintf("f%d", i)
		if g, w := string(before[name].Data), fmt.Sprintf("file %d", i); g != w {
			t.Errorf("snapshot taken before: %s = %q, want %q", name, g, w)
		}
	}
}
