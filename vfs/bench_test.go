package vfs_test

// Benchmarks of the workloads of the vfs spec (§5) on the MemFS, a plain-map
// floor (§6), afero's MemMapFs (no links: D, G and H are skipped), go-billy
// v5's memfs, the rooted OS backend and raw os calls, both on b.TempDir().
//
// The fixture (vfstest.BenchFixture) is 40 files of 300 bytes in 12
// directories (depth ≤ 4) under /fx. Workloads: A build it in a fresh
// backend; B read the 40 files; C walk /fx (51 entries below it); D mkdir /gen, 10 relative links into /fx, a 300-byte
// write through each, RemoveAll /gen; E snapshot (walk, read and sha256
// every file); F copy the fixture from disk into a fresh backend and tear it
// down; G F's load + B + D + E + teardown; H as G with the fixture bytes
// already in memory (the per-case cost of a property test). Disk teardown
// is outside the timer in A only.
//
//	go test -run '^$' -bench . -benchmem -count 6 ./vfs/

import (
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
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// errNoLinks marks a backend without symbolic links.
var errNoLinks = errors.New("backend has no symbolic links")

// benchFS is a backend the workloads drive, which can be released.
type benchFS interface {
	vfstest.BenchFS
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
			return vfsBench{BenchFS: vfstest.BenchVFS(vfs.NewMemFS(vfs.MemOptions{}))}
		}},
		{name: "memfs-darwin", new: func(*testing.B) benchFS {
			return vfsBench{BenchFS: vfstest.BenchVFS(vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin}))}
		}},
		{name: "afero-mem", new: func(*testing.B) benchFS { return aferoBench{afero.NewMemMapFs()} }},
		{name: "billy5-mem", new: func(*testing.B) benchFS { return billyBench{billymem.New()} }},
		{name: "osfs-rooted", disk: true, new: func(b *testing.B) benchFS {
			dir := benchTempDir(b)
			return vfsBench{BenchFS: vfstest.BenchVFS(osfs.NewRooted(dir)), dir: dir}
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

// load copies the fixture from its copy on disk below host (workload F).
func load(b *testing.B, fsys benchFS, host string) {
	err := filepath.WalkDir(host, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := "/fx" + filepath.ToSlash(strings.TrimPrefix(p, host))
		if d.IsDir() {
			return fsys.Mkdir(name)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return fsys.WriteFile(name, data)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// onDisk writes the fixture below b.TempDir() and returns its /fx.
func onDisk(b *testing.B, fx *vfstest.BenchFixture) string {
	host := filepath.Join(b.TempDir(), "fx")
	for _, d := range fx.Dirs {
		if err := os.MkdirAll(host+strings.TrimPrefix(d, "/fx"), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range fx.Files {
		if err := os.WriteFile(host+strings.TrimPrefix(f, "/fx"), fx.Data[f], 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return host
}

func teardown(b *testing.B, fsys benchFS) {
	if err := fsys.teardown(); err != nil {
		b.Fatal(err)
	}
}

// needsLinks skips a workload with links on a backend that has none.
func needsLinks(b *testing.B, fsys benchFS) {
	err := fsys.Symlink("x", "/probe-link")
	if errors.Is(err, errNoLinks) {
		b.Skip("no symbolic links")
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := fsys.RemoveAll("/probe-link"); err != nil {
		b.Fatal(err)
	}
}

// steady returns a workload that times op on one backend holding the
// fixture; links says that op needs symbolic links.
func steady(fx *vfstest.BenchFixture, links bool, op func(vfstest.TB, vfstest.BenchFS)) func(*testing.B, benchBackend) {
	return func(b *testing.B, be benchBackend) {
		fsys := be.new(b)
		if links {
			needsLinks(b, fsys)
		}
		fx.Build(b, fsys)
		for b.Loop() {
			op(b, fsys)
		}
	}
}

func BenchmarkFS(b *testing.B) {
	fx := vfstest.NewBenchFixture()
	workloads := []struct {
		name string
		run  func(b *testing.B, be benchBackend)
	}{
		{"A_build", func(b *testing.B, be benchBackend) {
			for b.Loop() {
				fsys := be.new(b)
				fx.Build(b, fsys)
				if be.disk {
					b.StopTimer()
					teardown(b, fsys)
					b.StartTimer()
				}
			}
		}},
		{"B_read", steady(fx, false, fx.ReadAll)},
		{"C_walk", steady(fx, false, fx.Walk)},
		{"D_links", steady(fx, true, fx.LinksAndWrites)},
		{"E_snapshot", steady(fx, false, func(tb vfstest.TB, fsys vfstest.BenchFS) { fx.Snapshot(tb, fsys) })},
		{"F_load", func(b *testing.B, be benchBackend) {
			host := onDisk(b, fx)
			for b.Loop() {
				fsys := be.new(b)
				load(b, fsys, host)
				teardown(b, fsys)
			}
		}},
		{"G_e2e", func(b *testing.B, be benchBackend) {
			needsLinks(b, be.new(b))
			host := onDisk(b, fx)
			for b.Loop() {
				fsys := be.new(b)
				load(b, fsys, host)
				fx.Case(b, fsys)
				teardown(b, fsys)
			}
		}},
		{"H_e2e_preloaded", func(b *testing.B, be benchBackend) {
			needsLinks(b, be.new(b))
			for b.Loop() {
				fsys := be.new(b)
				fx.Build(b, fsys)
				fx.Case(b, fsys)
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

// vfsBench drives a vfs.ReadWriteFS (the MemFS or the rooted OS backend).
type vfsBench struct {
	vfstest.BenchFS
	dir string // the host directory of a disk backend
}

func (v vfsBench) teardown() error {
	if v.dir != "" {
		return os.RemoveAll(v.dir)
	}
	return nil
}

// osBench drives raw os calls below a host directory.
type osBench struct{ dir string }

func (o osBench) Mkdir(name string) error { return os.Mkdir(o.dir+name, 0o755) }
func (o osBench) WriteFile(name string, data []byte) error {
	return os.WriteFile(o.dir+name, data, 0o644)
}
func (o osBench) ReadFile(name string) ([]byte, error) { return os.ReadFile(o.dir + name) }
func (o osBench) Symlink(target, name string) error    { return os.Symlink(target, o.dir+name) }
func (o osBench) RemoveAll(name string) error          { return os.RemoveAll(o.dir + name) }
func (o osBench) Walk(root string, fn func(string, bool) error) error {
	return vfstest.BenchWalk(root, func(name string) ([]os.DirEntry, error) { return os.ReadDir(o.dir + name) }, fn)
}
func (o osBench) teardown() error { return os.RemoveAll(o.dir) }

// aferoBench drives an afero file system (no links).
type aferoBench struct{ fsys afero.Fs }

func (a aferoBench) Mkdir(name string) error { return a.fsys.Mkdir(name, 0o755) }
func (a aferoBench) WriteFile(name string, data []byte) error {
	return afero.WriteFile(a.fsys, name, data, 0o644)
}
func (a aferoBench) ReadFile(name string) ([]byte, error) { return afero.ReadFile(a.fsys, name) }
func (a aferoBench) Symlink(string, string) error         { return errNoLinks }
func (a aferoBench) RemoveAll(name string) error          { return a.fsys.RemoveAll(name) }
func (a aferoBench) Walk(root string, fn func(string, bool) error) error {
	return vfstest.BenchWalk(root, func(name string) ([]os.FileInfo, error) { return afero.ReadDir(a.fsys, name) }, fn)
}
func (a aferoBench) teardown() error { return nil }

// billyBench drives a go-billy file system.
type billyBench struct{ fsys billy.Filesystem }

func (g billyBench) Mkdir(name string) error { return g.fsys.MkdirAll(name, 0o755) }
func (g billyBench) WriteFile(name string, data []byte) error {
	return billyutil.WriteFile(g.fsys, name, data, 0o644)
}
func (g billyBench) ReadFile(name string) ([]byte, error) { return billyutil.ReadFile(g.fsys, name) }
func (g billyBench) Symlink(target, name string) error    { return g.fsys.Symlink(target, name) }
func (g billyBench) RemoveAll(name string) error          { return billyutil.RemoveAll(g.fsys, name) }
func (g billyBench) Walk(root string, fn func(string, bool) error) error {
	return vfstest.BenchWalk(root, g.fsys.ReadDir, fn)
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

func (f *floorFS) Mkdir(name string) error {
	if f.exists(name) {
		return &fs.PathError{Op: "mkdir", Path: name, Err: fs.ErrExist}
	}
	if !f.dirs[path.Dir(name)] {
		return &fs.PathError{Op: "mkdir", Path: name, Err: fs.ErrNotExist}
	}
	f.dirs[name] = true
	return nil
}

func (f *floorFS) WriteFile(name string, data []byte) error {
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

func (f *floorFS) ReadFile(name string) ([]byte, error) {
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

func (f *floorFS) Symlink(target, name string) error {
	if f.exists(name) {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: fs.ErrExist}
	}
	f.links[name] = target
	return nil
}

func (f *floorFS) RemoveAll(name string) error {
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

func (f *floorFS) Walk(root string, fn func(string, bool) error) error {
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
