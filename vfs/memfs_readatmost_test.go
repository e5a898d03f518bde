package vfs_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// TestMemReadFileAtMostAsStatAndReadFile holds ReadFileAtMost to Stat
// then ReadFile on every kind of name: the same data and error, the
// file's size, and no data for a regular file over the limit.
func TestMemReadFileAtMostAsStatAndReadFile(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	for _, err := range []error{
		m.MkdirAll("/a/b", 0o755),
		m.WriteFile("/a/empty", nil, 0o644),
		m.WriteFile("/a/small", []byte("abc"), 0o644),
		m.WriteFile("/a/b/big", []byte(strings.Repeat("x", 10)), 0o644),
		m.Symlink("b/big", "/a/lbig"),
		m.Symlink("small", "/a/lsmall"),
		m.Symlink("b", "/a/ldir"),
		m.Symlink("missing", "/a/dangling"),
		m.Symlink("loop2", "/a/loop1"),
		m.Symlink("loop1", "/a/loop2"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"/a/empty", "/a/small", "/a/b/big", "/a/lbig", "/a/lsmall", "/a/ldir", "/a/ldir/big", "/a/b", "/", "/a/dangling", "/a/loop1", "/a/missing", "/a/small/x", "a/small", "", "/a/../a/small"} {
		for _, limit := range []int64{0, 3, 9, 10, 11} {
			data, size, err := m.ReadFileAtMost(name, limit)
			fi, serr := m.Stat(name)
			want, werr := m.ReadFile(name)
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Errorf("ReadFileAtMost(%q, %d) error %v, ReadFile's %v", name, limit, err, werr)
				continue
			}
			if err != nil {
				if data != nil || size != 0 {
					t.Errorf("ReadFileAtMost(%q, %d) = %q, %d with error %v", name, limit, data, size, err)
				}
				continue
			}
			if serr != nil || size != fi.Size() {
				t.Errorf("ReadFileAtMost(%q, %d) size %d, Stat %v, %v", name, limit, size, fi, serr)
				continue
			}
			if over := fi.Mode().IsRegular() && fi.Size() > limit; over {
				if data != nil {
					t.Errorf("ReadFileAtMost(%q, %d) read %d bytes over the limit", name, limit, len(data))
				}
			} else if !bytes.Equal(data, want) {
				t.Errorf("ReadFileAtMost(%q, %d) = %q, ReadFile %q", name, limit, data, want)
			}
		}
	}
}
