package overlayfs_test

// BenchmarkH is workload H of the vfs spec (§5): the per-case cost of a
// property test on a 40-file fixture (300 bytes each, 12 nested
// directories under /fx): read the 40 files; mkdir /gen, 10 relative links
// into /fx with a 300-byte write through each, RemoveAll /gen; snapshot
// (walk, read and sha256 every file). On the MemFS the case starts by
// building the fixture in a fresh file system; on the overlay it starts
// with a fresh overlay (fresh upper layer) of a MemFS that holds the
// fixture, built once, so the writes through the links copy files up.
//
//	go test -run '^$' -bench H -benchmem -count 6 ./vfs/overlayfs/

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
)

// benchFixture is the fixture of workload H.
type benchFixture struct {
	dirs  []string
	files []string
	data  map[string][]byte
	links []string // targets of the links in /gen
}

func newBenchFixture() *benchFixture {
	fx := &benchFixture{
		dirs: []string{"/fx", "/fx/d0", "/fx/d0/e0", "/fx/d0/e0/f0", "/fx/d0/e1", "/fx/d1", "/fx/d1/e0",
			"/fx/d1/e0/f0", "/fx/d2", "/fx/d2/e0", "/fx/d2/e1", "/fx/d3"},
		data: map[string][]byte{},
	}
	for i := range 40 {
		name := fmt.Sprintf("%s/file%02d.txt", fx.dirs[i%len(fx.dirs)], i)
		fx.files = append(fx.files, name)
		fx.data[name] = []byte(strings.Repeat(fmt.Sprintf("%02d-", i), 100))
	}
	for i := range 10 {
		fx.links = append(fx.links, ".."+fx.files[i*4])
	}
	return fx
}

func (fx *benchFixture) build(b *testing.B, fsys vfs.ReadWriteFS) {
	for _, d := range fx.dirs {
		if err := fsys.Mkdir(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range fx.files {
		if err := fsys.WriteFile(f, fx.data[f], 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func (fx *benchFixture) readAll(b *testing.B, fsys vfs.ReadWriteFS) {
	for _, f := range fx.files {
		if data, err := fsys.ReadFile(f); err != nil || len(data) != 300 {
			b.Fatalf("read %s: %d bytes, %v", f, len(data), err)
		}
	}
}

func (fx *benchFixture) linksAndWrites(b *testing.B, fsys vfs.ReadWriteFS) {
	if err := fsys.Mkdir("/gen", 0o755); err != nil {
		b.Fatal(err)
	}
	for i, target := range fx.links {
		name := fmt.Sprintf("/gen/l%d", i)
		if err := fsys.Symlink(target, name); err != nil {
			b.Fatal(err)
		}
		if err := fsys.WriteFile(name, fx.data[fx.files[i]], 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := fsys.RemoveAll("/gen"); err != nil {
		b.Fatal(err)
	}
}

func (fx *benchFixture) snapshot(b *testing.B, fsys vfs.ReadWriteFS) {
	sums := map[string][sha256.Size]byte{}
	var walk func(dir string) error
	walk = func(dir string) error {
		list, err := fsys.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range list {
			name := dir + "/" + e.Name()
			if e.IsDir() {
				if err := walk(name); err != nil {
					return err
				}
				continue
			}
			data, err := fsys.ReadFile(name)
			if err != nil {
				return err
			}
			sums[name] = sha256.Sum256(data)
		}
		return nil
	}
	if err := walk("/fx"); err != nil || len(sums) != 40 {
		b.Fatalf("snapshot: %d files, %v", len(sums), err)
	}
}

// rest runs the part of the case after the fixture is in place.
func (fx *benchFixture) rest(b *testing.B, fsys vfs.ReadWriteFS) {
	fx.readAll(b, fsys)
	fx.linksAndWrites(b, fsys)
	fx.snapshot(b, fsys)
}

func BenchmarkH(b *testing.B) {
	fx := newBenchFixture()
	b.Run("memfs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fsys := vfs.NewMemFS(vfs.MemOptions{})
			fx.build(b, fsys)
			fx.rest(b, fsys)
		}
	})
	b.Run("overlay", func(b *testing.B) {
		b.ReportAllocs()
		lower := vfs.NewMemFS(vfs.MemOptions{})
		fx.build(b, lower)
		for b.Loop() {
			fx.rest(b, overlayfs.New(lower, overlayfs.Options{}))
		}
	})
	b.Run("overlay_empty_lower", func(b *testing.B) {
		b.ReportAllocs()
		lower := vfs.NewMemFS(vfs.MemOptions{})
		for b.Loop() {
			fsys := overlayfs.New(lower, overlayfs.Options{})
			fx.build(b, fsys)
			fx.rest(b, fsys)
		}
	})
}
