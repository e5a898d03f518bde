package resolve_test

import (
	"errors"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// countingFS is a MemFS that counts the bytes its files give to readers.
type countingFS struct {
	*vfs.MemFS
	read atomic.Int64
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	data, err := c.MemFS.ReadFile(name)
	c.read.Add(int64(len(data)))
	return data, err
}

func (c *countingFS) Open(name string) (fs.File, error) {
	f, err := c.MemFS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, n: &c.read}, nil
}

type countingFile struct {
	fs.File
	n *atomic.Int64
}

func (f *countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.n.Add(int64(n))
	return n, err
}

// TestDocumentSizeCheckedBeforeReading is finding 7 of the hostile
// repositories: a profile or settings file over the 16 MiB limit was read
// whole before the limit was checked (a 128 MiB profile, 128 MiB read).
// The limit holds for the bytes read: at most one byte over it.
func TestDocumentSizeCheckedBeforeReading(t *testing.T) {
	t.Parallel()
	const limit = 16 << 20
	big := "id: big\nx: " + strings.Repeat("y", limit+1<<20) + "\n"
	for _, tt := range []struct{ name, file string }{
		{"profile", "/p/big.yml"},
		{"settings", home + "/.outfitter/settings.yml"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := &countingFS{MemFS: vfs.NewMemFS(vfs.MemOptions{})}
			if err := vfs.MkdirAll(fsys.MemFS, "/p", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := vfs.MkdirAll(fsys.MemFS, home+"/.outfitter", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := vfs.WriteFile(fsys.MemFS, tt.file, []byte(big), 0o644); err != nil {
				t.Fatal(err)
			}
			var issues []*resolve.Issue
			if tt.name == "profile" {
				_, issues = resolve.LoadSource(fsys, resolve.Source{Path: "/p"}, agents())
			} else {
				got, err := resolve.LoadSettings(fsys, home, "/project", agents())
				if err != nil {
					t.Fatal(err)
				}
				issues = got.Issues
			}
			var size *resolve.YAMLSizeError
			if len(issues) != 1 || !errors.As(issues[0].Err, &size) {
				t.Fatalf("issues %v, want the file refused as too large", issues)
			}
			if n := fsys.read.Load(); n > limit+1 {
				t.Errorf("%d bytes read, over the limit of %d", n, limit)
			}
		})
	}
}

// TestReadDocumentMemFSWalksOnce checks that ReadDocument on a MemFS
// walks the name once: a missing document costs the read's error alone,
// not a stat's error too.
func TestReadDocumentMemFSWalksOnce(t *testing.T) {
	m := vfs.NewMemFS(vfs.MemOptions{})
	if err := m.MkdirAll("/home", 0o755); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := resolve.ReadDocument(m, "/home/settings.yaml"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("ReadDocument of a missing file: %v", err)
		}
	})
	if allocs > 1 {
		t.Errorf("ReadDocument of a missing file on a MemFS: %v allocations, want 1 (the read's error)", allocs)
	}
}
