package vfs_test

import (
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
)

// statFields is what a FileInfo says, as a comparable value.
type statFields struct {
	Name  string
	Size  int64
	Mode  fs.FileMode
	MTime time.Time
}

// t0 is the time of every change in these tests but Chtimes's, so that
// each case changes one field.
var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func fieldsOf(fi fs.FileInfo) statFields {
	return statFields{Name: fi.Name(), Size: fi.Size(), Mode: fi.Mode(), MTime: fi.ModTime()}
}

// TestMemStatAfterChange checks that the FileInfo a MemFS gives again for
// an entry it already stated (it keeps the last one made) follows every
// change of the entry, on the file system and on a clone, and that a
// FileInfo already returned never changes.
func TestMemStatAfterChange(t *testing.T) {
	t.Parallel()
	later := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		stat   string // the name stated before and after
		change func(m *vfs.MemFS) error
		want   statFields
	}{
		{"chmod", "/d/f", func(m *vfs.MemFS) error { return m.Chmod("/d/f", 0o600) }, statFields{"f", 3, 0o600, t0}},
		{"chtimes", "/d/f", func(m *vfs.MemFS) error { return m.Chtimes("/d/f", later, later) }, statFields{"f", 3, 0o644, later}},
		{"write", "/d/f", func(m *vfs.MemFS) error { return m.WriteFile("/d/f", []byte("four"), 0o644) }, statFields{"f", 4, 0o644, t0}},
		{"append through a handle", "/d/f", func(m *vfs.MemFS) error {
			f, err := m.OpenFile("/d/f", os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			if _, err := f.Write([]byte("de")); err != nil {
				return err
			}
			return f.Close()
		}, statFields{"f", 5, 0o644, t0}},
		{"same node, other name", "/d/l", func(m *vfs.MemFS) error { return nil }, statFields{"l", 3, 0o644, t0}},
		{"directory chmod and chtimes", "/d", func(m *vfs.MemFS) error {
			if err := m.Chtimes("/d", later, later); err != nil {
				return err
			}
			return m.Chmod("/d", 0o700)
		}, statFields{"d", 0, fs.ModeDir | 0o700, later}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := vfs.NewMemFS(vfs.MemOptions{Clock: func() time.Time { return t0 }})
			if err := m.Mkdir("/d", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := m.WriteFile("/d/f", []byte("abc"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := m.Symlink("f", "/d/l"); err != nil {
				t.Fatal(err)
			}
			before, err := m.Stat("/d/f")
			if err != nil {
				t.Fatal(err)
			}
			dir, err := m.Stat("/d")
			if err != nil {
				t.Fatal(err)
			}
			wantBefore, wantDir := fieldsOf(before), fieldsOf(dir)
			for _, fsys := range []*vfs.MemFS{m, m.Clone()} {
				if err := tt.change(fsys); err != nil {
					t.Fatal(err)
				}
				got, err := fsys.Stat(tt.stat)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tt.want, fieldsOf(got)); d != "" {
					t.Errorf("Stat(%q) after the change (-want +got):\n%s", tt.stat, d)
				}
			}
			if d := cmp.Diff(wantBefore, fieldsOf(before)); d != "" {
				t.Errorf("a FileInfo returned before the change changed (-want +got):\n%s", d)
			}
			if d := cmp.Diff(wantDir, fieldsOf(dir)); d != "" {
				t.Errorf("a FileInfo returned before the change changed (-want +got):\n%s", d)
			}
		})
	}
}

// TestMemStatAgainAllocatesNothing checks that stating an unchanged entry
// again, on the file system or on a clone sharing it, allocates nothing.
func TestMemStatAgainAllocatesNothing(t *testing.T) {
	m := vfs.NewMemFS(vfs.MemOptions{Clock: func() time.Time { return t0 }})
	if err := m.MkdirAll("/home/user/.config", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteFile("/home/user/.config/settings.yml", []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Stat("/home/user/.config/settings.yml"); err != nil {
		t.Fatal(err)
	}
	c := m.Clone()
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := c.Stat("/home/user/.config/settings.yml"); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Lstat("/home/user/.config"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Stat of an unchanged entry: %v allocations, want 0", allocs)
	}
}
