package vfstest

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
)

// BenchFS is what the workloads of the vfs spec's benchmarks (§5) drive a
// backend through: one call per logical operation, so that backends of any
// API (vfs, package os, other libraries) compare fairly. Directories are
// made with mode 0755 and files written with mode 0644.
type BenchFS interface {
	// Mkdir creates the directory name; its parent exists.
	Mkdir(name string) error
	// WriteFile creates or truncates name, following links, and writes
	// data to it.
	WriteFile(name string, data []byte) error
	// ReadFile returns the contents of name, following links.
	ReadFile(name string) ([]byte, error)
	// Symlink creates name as a symbolic link to target.
	Symlink(target, name string) error
	// RemoveAll removes name and everything below it.
	RemoveAll(name string) error
	// Walk calls fn for every entry below root, depth first in lexical
	// order, without following links.
	Walk(root string, fn func(name string, isDir bool) error) error
}

// BenchVFS returns the [BenchFS] that drives fsys.
func BenchVFS(fsys vfs.ReadWriteFS) BenchFS { return benchVFS{fsys} }

// benchVFS drives a vfs.ReadWriteFS.
type benchVFS struct{ fsys vfs.ReadWriteFS }

func (v benchVFS) Mkdir(name string) error { return v.fsys.Mkdir(name, 0o755) }
func (v benchVFS) WriteFile(name string, data []byte) error {
	return v.fsys.WriteFile(name, data, 0o644)
}
func (v benchVFS) ReadFile(name string) ([]byte, error) { return v.fsys.ReadFile(name) }
func (v benchVFS) Symlink(target, name string) error    { return v.fsys.Symlink(target, name) }
func (v benchVFS) RemoveAll(name string) error          { return v.fsys.RemoveAll(name) }
func (v benchVFS) Walk(root string, fn func(string, bool) error) error {
	return BenchWalk(root, v.fsys.ReadDir, fn)
}

// BenchWalk calls fn for every entry below root, depth first, in the order
// readDir lists them (lexical for every backend of the benchmarks),
// descending into directories but never into links: the Walk of a
// [BenchFS] over any API that can list a directory.
func BenchWalk[E interface {
	Name() string
	IsDir() bool
}](root string, readDir func(string) ([]E, error), fn func(name string, isDir bool) error) error {
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
			if err := BenchWalk(name, readDir, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// Sizes of the benchmark fixture.
const (
	BenchFiles    = 40  // files below /fx
	BenchFileSize = 300 // bytes per file
	BenchEntries  = 51  // entries below /fx: 11 directories and the files
	BenchLinks    = 10  // links workload D makes in /gen
)

// BenchFixture is the fixture of the vfs spec's benchmarks: 40 files of 300
// bytes in 12 directories (depth ≤ 4) under /fx, and the targets of the 10
// relative links of workload D. Its methods run one workload each on a
// [BenchFS] and stop the benchmark through tb when the backend fails or
// answers wrongly (they call tb.Helper on their failure paths only, so
// that the timed loops pay nothing for it). A fixture is read-only once
// made, so the workloads of a benchmark may share one.
type BenchFixture struct {
	// Dirs are the fixture's directories, parents first, "/fx" first.
	Dirs []string
	// Files are the fixture's files, in creation order.
	Files []string
	// Data maps each file to its contents.
	Data map[string][]byte
	// Links are the targets of workload D's links, relative to /gen.
	Links []string
}

// NewBenchFixture returns the fixture.
func NewBenchFixture() *BenchFixture {
	fx := &BenchFixture{
		Dirs: []string{"/fx", "/fx/d0", "/fx/d0/e0", "/fx/d0/e0/f0", "/fx/d0/e1", "/fx/d1", "/fx/d1/e0",
			"/fx/d1/e0/f0", "/fx/d2", "/fx/d2/e0", "/fx/d2/e1", "/fx/d3"},
		Data: map[string][]byte{},
	}
	for i := range BenchFiles {
		name := fmt.Sprintf("%s/file%02d.txt", fx.Dirs[i%len(fx.Dirs)], i)
		fx.Files = append(fx.Files, name)
		fx.Data[name] = []byte(strings.Repeat(fmt.Sprintf("%02d-", i), BenchFileSize/3))
	}
	for i := range BenchLinks {
		fx.Links = append(fx.Links, ".."+fx.Files[i*BenchFiles/BenchLinks])
	}
	return fx
}

// Build creates the fixture in fsys from its bytes in memory (workload A).
func (fx *BenchFixture) Build(tb TB, fsys BenchFS) {
	for _, d := range fx.Dirs {
		if err := fsys.Mkdir(d); err != nil {
			tb.Helper()
			tb.Fatalf("%v", err)
		}
	}
	for _, f := range fx.Files {
		if err := fsys.WriteFile(f, fx.Data[f]); err != nil {
			tb.Helper()
			tb.Fatalf("%v", err)
		}
	}
}

// ReadAll reads the fixture's files (workload B).
func (fx *BenchFixture) ReadAll(tb TB, fsys BenchFS) {
	for _, f := range fx.Files {
		if data, err := fsys.ReadFile(f); err != nil || len(data) != BenchFileSize {
			tb.Helper()
			tb.Fatalf("read %s: %d bytes, %v", f, len(data), err)
		}
	}
}

// Walk walks /fx (workload C).
func (fx *BenchFixture) Walk(tb TB, fsys BenchFS) {
	n := 0
	if err := fsys.Walk("/fx", func(string, bool) error { n++; return nil }); err != nil || n != BenchEntries {
		tb.Helper()
		tb.Fatalf("walk: %d entries below /fx, %v", n, err)
	}
}

// LinksAndWrites makes /gen, a relative link into /fx in it for each of
// [BenchFixture.Links] with a 300-byte write through each, then removes
// /gen (workload D).
func (fx *BenchFixture) LinksAndWrites(tb TB, fsys BenchFS) {
	if err := fsys.Mkdir("/gen"); err != nil {
		tb.Helper()
		tb.Fatalf("%v", err)
	}
	for i, target := range fx.Links {
		name := fmt.Sprintf("/gen/l%d", i)
		if err := fsys.Symlink(target, name); err != nil {
			tb.Helper()
			tb.Fatalf("%v", err)
		}
		if err := fsys.WriteFile(name, fx.Data[fx.Files[i]]); err != nil {
			tb.Helper()
			tb.Fatalf("%v", err)
		}
	}
	if err := fsys.RemoveAll("/gen"); err != nil {
		tb.Helper()
		tb.Fatalf("%v", err)
	}
}

// Snapshot walks /fx, reads every file and returns its SHA-256 by name
// (workload E).
func (fx *BenchFixture) Snapshot(tb TB, fsys BenchFS) map[string][sha256.Size]byte {
	sums := map[string][sha256.Size]byte{}
	err := fsys.Walk("/fx", func(name string, isDir bool) error {
		if isDir {
			return nil
		}
		data, err := fsys.ReadFile(name)
		if err != nil {
			return err
		}
		sums[name] = sha256.Sum256(data)
		return nil
	})
	if err != nil || len(sums) != BenchFiles {
		tb.Helper()
		tb.Fatalf("snapshot: %d files, %v", len(sums), err)
	}
	return sums
}

// Case runs the part of one case of workloads G and H that follows the
// fixture's loading: [BenchFixture.ReadAll], [BenchFixture.LinksAndWrites]
// and [BenchFixture.Snapshot].
func (fx *BenchFixture) Case(tb TB, fsys BenchFS) {
	fx.ReadAll(tb, fsys)
	fx.LinksAndWrites(tb, fsys)
	fx.Snapshot(tb, fsys)
}
