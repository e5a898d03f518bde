package vfs_test

// Benchmarks of the workloads of the vfs spec (§5) on the MemFS, a plain-map
// floor (§6), afero's MemMapFs (no links: D, G and H are skipped), go-billy
// v5's memfs, the rooted OS backend and raw os calls, both on b.TempDir().
//
// The fixture is 40 files of 300 bytes in 12 directories (depth ≤ 4) under
// /fx. Workloads: A build it in a fresh backend; B read the 40 files; C walk
// /fx (52 entries); D mkdir /gen, 10 relative links into /fx, a 300-byte
// write through each, RemoveAll /gen; E snapshot (walk, read and sha256
// every file); F copy the fixture from disk into a fresh backend and tear it
// down; G F's load + B + D + E + teardown; H as G with the fixture bytes
// already in memory (the per-case cost of a property test). Disk teardown
// is outside the timer in A only.
//
//	go test -run '^$' -bench . -benchmem -count 6 ./vfs/

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	billy "github.com/go-git/go-billy/v5"
	billymem "github.com/go-git/go-billy/v5/memfs"
	billyutil "github.com/go-git/go-billy/v5/util"
	"github.com/spf13/afero"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// errNoLinks marks a backend without symbolic links.
var errNoLinks = errors.New("backend has no symbolic links")

// benchFS is the adapter every backend is driven through: one interface
// call per logical operation.
type benchFS interface {
	mkdir(name string) error
	writeFile(name string, data []byte) error
	readFile(name string) ([]byte, error)
	symlink(target, name string) error
	removeAll(name string) error
	// walk calls fn for every entry below root, depth first in lexical
	// order, without following links.
	walk(root string, fn func(name string, isDir bool) error) error
	// teardown releases the backend (disk backends remove their directory).
	teardown() error
}

// benchBackend makes fresh backends of one kind.
type benchBackend struct {
	name string
	disk bool
	new  func(b *testing.B) benchFS
}

func benchBackends() []benchBackend {
	return []benchBackend{
		{name: "floor", new: func(*testing.B) benchFS { return newFloor() }},
		{name: "memfs", new: func(*testing.B) benchFS {
			return vfsBench{fsys: vfs.NewMemFS(vfs.MemOptions{})}
		}},
		{name: "afero-mem", new: func(*testing.B) benchFS { return aferoBench{afero.NewMemMapFs()} }},
		{name: "billy5-mem", new: func(*testing.B) benchFS { return billyBench{billymem.New()} }},
		{name: "osfs-rooted", disk: true, new: func(b *testing.B) benchFS {
			dir := benchTempDir(b)
			return vfsBench{fsys: osfs.NewRooted(dir), dir: dir}
		}},
		{name: "os", disk: true, new: func(b *testing.B) benchFS { return osBench{benchTempDir(b)} }},
	}
}

// benchTempDir makes a fresh directory below b.TempDir().
func benchTempDir(b *testing.B) string {
	b.Helper()
	dir, err := os.MkdirTemp(b.TempDir(), "fs")
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// benchFixture is the fixture: its directories (parents first) and files.
type benchFixture struct {
	dirs  []string
	files []string
	data  map[string][]byte
	// links are the targets of workload D's links, relative to /gen.
	links []string
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

// build creates the fixture from the in-memory bytes.
func (fx *benchFixture) build(b *testing.B, fsys benchFS) {
	for _, d := range fx.dirs {
		if err := fsys.mkdir(d); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range fx.files {
		if err := fsys.writeFile(f, fx.data[f]); err != nil {
			b.Fatal(err)
		}
	}
}

// load copies the fixture from its copy on disk below host.
func (fx *benchFixture) load(b *testing.B, fsys benchFS, host string) {
	err := filepath.WalkDir(host, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := "/fx" + filepath.ToSlash(strings.TrimPrefix(p, host))
		if d.IsDir() {
			return fsys.mkdir(name)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return fsys.writeFile(name, data)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// onDisk writes the fixture below b.TempDir() and returns its /fx.
func (fx *benchFixture) onDisk(b *testing.B) string {
	host := filepath.Join(b.TempDir(), "fx")
	for _, d := range fx.dirs {
		if err := os.MkdirAll(host+strings.TrimPrefix(d, "/fx"), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range fx.files {
		if err := os.WriteFile(host+strings.TrimPrefix(f, "/fx"), fx.data[f], 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return host
}

func (fx *benchFixture) readAll(b *testing.B, fsys benchFS) {
	for _, f := range fx.files {
		if data, err := fsys.readFile(f); err != nil || len(data) != 300 {
			b.Fatalf("read %s: %d bytes, %v", f, len(data), err)
		}
	}
}

func (fx *benchFixture) walk(b *testing.B, fsys benchFS) {
	n := 0
	if err := fsys.walk("/fx", func(string, bool) error { n++; return nil }); err != nil || n != 51 {
		b.Fatalf("walk: %d entries below /fx, %v", n, err)
	}
}

// linksAndWrites is workload D.
func (fx *benchFixture) linksAndWrites(b *testing.B, fsys benchFS) {
	if err := fsys.mkdir("/gen"); err != nil {
		b.Fatal(err)
	}
	for i, target := range fx.links {
		name := fmt.Sprintf("/gen/l%d", i)
		if err := fsys.symlink(target, name); err != nil {
			b.Fatal(err)
		}
		if err := fsys.writeFile(name, fx.data[fx.files[i]]); err != nil {
			b.Fatal(err)
		}
	}
	if err := fsys.removeAll("/gen"); err != nil {
		b.Fatal(err)
	}
}

// snapshot is workload E.
func (fx *benchFixture) snapshot(b *testing.B, fsys benchFS) map[string][sha256.Size]byte {
	sums := map[string][sha256.Size]byte{}
	err := fsys.walk("/fx", func(name string, isDir bool) error {
		if isDir {
			return nil
		}
		data, err := fsys.readFile(name)
		if err != nil {
			return err
		}
		sums[name] = sha256.Sum256(data)
		return nil
	})
	if err != nil || len(sums) != 40 {
		b.Fatalf("snapshot: %d files, %v", len(sums), err)
	}
	return sums
}

func teardown(b *testing.B, fsys benchFS) {
	if err := fsys.teardown(); err != nil {
		b.Fatal(err)
	}
}

// needsLinks skips a workload with links on a backend that has none.
func needsLinks(b *testing.B, fsys benchFS) {
	err := fsys.symlink("x", "/probe-link")
	if errors.Is(err, errNoLinks) {
		b.Skip("no symbolic links")
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := fsys.removeAll("/probe-link"); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkFS(b *testing.B) {
	fx := newBenchFixture()
	workloads := []struct {
		name string
		run  func(b *testing.B, be benchBackend)
	}{
		{"A_build", func(b *testing.B, be benchBackend) {
			for b.Loop() {
				fsys := be.new(b)
				fx.build(b, fsys)
				if be.disk {
					b.StopTimer()
					teardown(b, fsys)
					b.StartTimer()
				}
			}
		}},
		{"B_read", func(b *testing.B, be benchBackend) {
			fsys := be.new(b)
			fx.build(b, fsys)
			for b.Loop() {
				fx.readAll(b, fsys)
			}
		}},
		{"C_walk", func(b *testing.B, be benchBackend) {
			fsys := be.new(b)
			fx.build(b, fsys)
			for b.Loop() {
				fx.walk(b, fsys)
			}
		}},
		{"D_links", func(b *testing.B, be benchBackend) {
			fsys := be.new(b)
			needsLinks(b, fsys)
			fx.build(b, fsys)
			for b.Loop() {
				fx.linksAndWrites(b, fsys)
			}
		}},
		{"E_snapshot", func(b *testing.B, be benchBackend) {
			fsys := be.new(b)
			fx.build(b, fsys)
			for b.Loop() {
				fx.snapshot(b, fsys)
			}
		}},
		{"F_load", func(b *testing.B, be benchBackend) {
			host := fx.onDisk(b)
			for b.Loop() {
				fsys := be.new(b)
				fx.load(b, fsys, host)
				teardown(b, fsys)
			}
		}},
		{"G_e2e", func(b *testing.B, be benchBackend) {
			needsLinks(b, be.new(b))
			host := fx.onDisk(b)
			for b.Loop() {
				fsys := be.new(b)
				fx.load(b, fsys, host)
				fx.readAll(b, fsys)
				fx.linksAndWrites(b, fsys)
				fx.snapshot(b, fsys)
				teardown(b, fsys)
			}
		}},
		{"H_e2e_preloaded", func(b *testing.B, be benchBackend) {
			needsLinks(b, be.new(b))
			for b.Loop() {
				fsys := be.new(b)
				fx.build(b, fsys)
				fx.readAll(b, fsys)
				fx.linksAndWrites(b, fsys)
				fx.snapshot(b, fsys)
				teardown(b, fsys)
			}
		}},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			for _, be := range benchBackends() {
				b.Run(be.name, func(b *testing.B) {
					b.ReportAllocs()
					w.run(b, be)
				})
			}
		})
	}
}

// BenchmarkClone measures MemFS.Clone, and Clone followed by one write
// (which copies the written path), on trees of 60 and 6,000 files.
func BenchmarkClone(b *testing.B) {
	for _, n := range []int{60, 6000} {
		m := vfs.NewMemFS(vfs.MemOptions{})
		data := []byte(strings.Repeat("x", 300))
		for i := range n {
			dir := fmt.Sprintf("/t/d%02d/e%02d", i%10, i/10%6)
			if err := m.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := m.WriteFile(fmt.Sprintf("%s/f%04d", dir, i), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = m.Clone()
			}
		})
		b.Run(fmt.Sprintf("files=%d/write", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := m.Clone()
				if err := c.WriteFile("/t/d00/e00/f0000", data[:10], 0o644); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// walkTree calls fn for every entry below root, depth first, in the order
// readDir lists them, descending into directories (never into links).
func walkTree[E interface {
	Name() string
	IsDir() bool
}](root string, readDir func(string) ([]E, error), fn func(string, bool) error) error {
	list, err := readDir(root)
	if err != nil {
		return err
	}
	for _, e := range list {
		name := root + "/" + e.Name()
		if err := fn(name, e.IsDir()); err != nil {
			return err
		}
		if e.IsDir() {
			if err := walkTree(name, readDir, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// vfsBench drives a vfs.ReadWriteFS (the MemFS or the rooted OS backend).
type vfsBench struct {
	fsys vfs.ReadWriteFS
	dir  string // the host directory of a disk backend
}

func (v vfsBench) mkdir(name string) error { return v.fsys.Mkdir(name, 0o755) }
func (v vfsBench) writeFile(name string, data []byte) error {
	return v.fsys.WriteFile(name, data, 0o644)
}
func (v vfsBench) readFile(name string) ([]byte, error) { return v.fsys.ReadFile(name) }
func (v vfsBench) symlink(target, name string) error    { return v.fsys.Symlink(target, name) }
func (v vfsBench) removeAll(name string) error          { return v.fsys.RemoveAll(name) }
func (v vfsBench) walk(root string, fn func(string, bool) error) error {
	return walkTree(root, v.fsys.ReadDir, fn)
}
func (v vfsBench) teardown() error {
	if v.dir != "" {
		return os.RemoveAll(v.dir)
	}
	return nil
}

// osBench drives raw os calls below a host directory.
type osBench struct{ dir string }

func (o osBench) mkdir(name string) error { return os.Mkdir(o.dir+name, 0o755) }
func (o osBench) writeFile(name string, data []byte) error {
	return os.WriteFile(o.dir+name, data, 0o644)
}
func (o osBench) readFile(name string) ([]byte, error) { return os.ReadFile(o.dir + name) }
func (o osBench) symlink(target, name string) error    { return os.Symlink(target, o.dir+name) }
func (o osBench) removeAll(name string) error          { return os.RemoveAll(o.dir + name) }
func (o osBench) walk(root string, fn func(string, bool) error) error {
	return walkTree(root, func(name string) ([]os.DirEntry, error) { return os.ReadDir(o.dir + name) }, fn)
}
func (o osBench) teardown() error { return os.RemoveAll(o.dir) }

// aferoBench drives an afero file system (no links).
type aferoBench struct{ fsys afero.Fs }

func (a aferoBench) mkdir(name string) error { return a.fsys.Mkdir(name, 0o755) }
func (a aferoBench) writeFile(name string, data []byte) error {
	return afero.WriteFile(a.fsys, name, data, 0o644)
}
func (a aferoBench) readFile(name string) ([]byte, error) { return afero.ReadFile(a.fsys, name) }
func (a aferoBench) symlink(string, string) error         { return errNoLinks }
func (a aferoBench) removeAll(name string) error          { return a.fsys.RemoveAll(name) }
func (a aferoBench) walk(root string, fn func(string, bool) error) error {
	return walkTree(root, func(name string) ([]os.FileInfo, error) { return afero.ReadDir(a.fsys, name) }, fn)
}
func (a aferoBench) teardown() error { return nil }

// billyBench drives a go-billy file system.
type billyBench struct{ fsys billy.Filesystem }

func (g billyBench) mkdir(name string) error { return g.fsys.MkdirAll(name, 0o755) }
func (g billyBench) writeFile(name string, data []byte) error {
	return billyutil.WriteFile(g.fsys, name, data, 0o644)
}
func (g billyBench) readFile(name string) ([]byte, error) { return billyutil.ReadFile(g.fsys, name) }
func (g billyBench) symlink(target, name string) error    { return g.fsys.Symlink(target, name) }
func (g billyBench) removeAll(name string) error          { return billyutil.RemoveAll(g.fsys, name) }
func (g billyBench) walk(root string, fn func(string, bool) error) error {
	return walkTree(root, g.fsys.ReadDir, fn)
}
func (g billyBench) teardown() error { return nil }

// floorFS is the plain-map floor of spec §6: files, directories and links
// in three maps; it copies data in and out, resolves final relative links
// up to vfs.MaxSymlinkHops, checks that parents exist, and walks by sorting
// the keys below a prefix.
type floorFS struct {
	files map[string][]byte
	dirs  map[string]bool
	links map[string]string
}

func newFloor() *floorFS {
	return &floorFS{files: map[string][]byte{}, dirs: map[string]bool{"/": true}, links: map[string]string{}}
}

func (f *floorFS) resolve(name string) (string, error) {
	for range vfs.MaxSymlinkHops {
		target, ok := f.links[name]
		if !ok {
			return name, nil
		}
		if !path.IsAbs(target) {
			target = path.Join(path.Dir(name), target)
		}
		name = target
	}
	return "", &fs.PathError{Op: "open", Path: name, Err: vfs.ErrLoop}
}

func (f *floorFS) exists(name string) bool {
	_, file := f.files[name]
	_, link := f.links[name]
	return file || link || f.dirs[name]
}

func (f *floorFS) mkdir(name string) error {
	if f.exists(name) {
		return &fs.PathError{Op: "mkdir", Path: name, Err: fs.ErrExist}
	}
	if !f.dirs[path.Dir(name)] {
		return &fs.PathError{Op: "mkdir", Path: name, Err: fs.ErrNotExist}
	}
	f.dirs[name] = true
	return nil
}

func (f *floorFS) writeFile(name string, data []byte) error {
	name, err := f.resolve(name)
	if err != nil {
		return err
	}
	if !f.dirs[path.Dir(name)] {
		return &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f.files[name] = slices.Clone(data)
	return nil
}

func (f *floorFS) readFile(name string) ([]byte, error) {
	name, err := f.resolve(name)
	if err != nil {
		return nil, err
	}
	data, ok := f.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return slices.Clone(data), nil
}

func (f *floorFS) symlink(target, name string) error {
	if f.exists(name) {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: fs.ErrExist}
	}
	f.links[name] = target
	return nil
}

func (f *floorFS) removeAll(name string) error {
	prefix := name + "/"
	for k := range f.files {
		if k == name || strings.HasPrefix(k, prefix) {
			delete(f.files, k)
		}
	}
	for k := range f.links {
		if k == name || strings.HasPrefix(k, prefix) {
			delete(f.links, k)
		}
	}
	for k := range f.dirs {
		if k == name || strings.HasPrefix(k, prefix) {
			delete(f.dirs, k)
		}
	}
	return nil
}

func (f *floorFS) walk(root string, fn func(string, bool) error) error {
	prefix := root + "/"
	var keys []string
	for k := range f.dirs {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	for k := range f.files {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	for k := range f.links {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys) // depth first and lexical, for names without '-' or '.' before '/'

	for _, k := range keys {
		if err := fn(k, f.dirs[k]); err != nil {
			return err
		}
	}
	return nil
}

func (f *floorFS) teardown() error { return nil }
