package vfs_test

// Benchmarks of the MemFS operations a simulated launch leans on: MkdirAll
// of a deep path, the stat/write/link mix of materializing a composite
// directory, a snapshot of a 60-entry tree, and DiffFS between clones.
//
//	go test -run '^$' -bench 'Mem' -benchmem -count 8 ./vfs/

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// memTree60 returns a MemFS holding 60 entries below /r: 6 directories
// (two levels), 42 files of 300 bytes and 12 symbolic links, half of them
// dangling.
func memTree60(b *testing.B) *vfs.MemFS {
	b.Helper()
	m := vfs.NewMemFS(vfs.MemOptions{})
	data := []byte(strings.Repeat("x", 300))
	for d := range 3 {
		dir := fmt.Sprintf("/r/d%d/e", d)
		if err := m.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 7 {
			for _, p := range []string{fmt.Sprintf("/r/d%d/f%d", d, f), fmt.Sprintf("%s/f%d", dir, f)} {
				if err := m.WriteFile(p, data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		for l := range 2 {
			if err := m.Symlink(fmt.Sprintf("f%d", l), fmt.Sprintf("/r/d%d/l%d", d, l)); err != nil {
				b.Fatal(err)
			}
			if err := m.Symlink(fmt.Sprintf("/nowhere/%d", l), fmt.Sprintf("%s/l%d", dir, l)); err != nil {
				b.Fatal(err)
			}
		}
	}
	return m
}

// BenchmarkMemMkdirAll creates a path eight levels deep below /home/user
// in a fresh MemFS, and repeats it on a path that already exists.
func BenchmarkMemMkdirAll(b *testing.B) {
	const deep = "/home/user/.config/agent/state/sessions/2030/01/02"
	b.Run("create", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m := vfs.NewMemFS(vfs.MemOptions{})
			if err := m.MkdirAll(deep, 0o755); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exists", func(b *testing.B) {
		b.ReportAllocs()
		m := vfs.NewMemFS(vfs.MemOptions{})
		if err := m.MkdirAll(deep, 0o755); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := m.MkdirAll(deep, 0o755); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("clone", func(b *testing.B) {
		b.ReportAllocs()
		base := memTree60(b)
		if err := base.MkdirAll("/home/user/.config", 0o755); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := base.Clone().MkdirAll(deep, 0o755); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMemMaterialize is the shape of a composite directory's
// materialization on a clone of a machine: for 20 entries, Lstat a missing
// name, then create it (a directory with MkdirAll, a file, or a link).
func BenchmarkMemMaterialize(b *testing.B) {
	base := memTree60(b)
	if err := base.MkdirAll("/tmp", 0o755); err != nil {
		b.Fatal(err)
	}
	data := []byte(strings.Repeat("y", 120))
	b.ReportAllocs()
	for b.Loop() {
		m := base.Clone()
		for i := range 20 {
			name := fmt.Sprintf("/tmp/outfitter-1/cfg/e%02d", i)
			if _, err := m.Lstat(name); err == nil {
				b.Fatal("exists")
			}
			var err error
			switch i % 3 {
			case 0:
				err = m.MkdirAll(name+"/sub", 0o755)
			case 1:
				err = m.WriteFile(name, data, 0o644)
			default:
				err = m.Symlink("/r/d0/f1", name)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkMemSnapshot snapshots a 60-entry tree, without and with a skip
// function.
func BenchmarkMemSnapshot(b *testing.B) {
	m := memTree60(b)
	for _, tc := range []struct {
		name string
		opts vfs.SnapshotOptions
	}{
		{"plain", vfs.SnapshotOptions{}},
		{"skip", vfs.SnapshotOptions{Skip: func(rel string, _ fs.FileInfo) bool { return rel == "d2/e" }}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := vfs.SnapshotWith(m, "/r", tc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMemDiffFS compares a 60-entry tree with a clone of it in which
// a directory was added (with 5 files), a file rewritten and a link
// removed.
func BenchmarkMemDiffFS(b *testing.B) {
	before := memTree60(b)
	after := before.Clone()
	mustAll(b,
		after.MkdirAll("/r/d1/new", 0o755),
		after.WriteFile("/r/d0/e/f3", []byte("changed"), 0o644),
		after.Remove("/r/d2/l0"),
	)
	for i := range 5 {
		if err := after.WriteFile(fmt.Sprintf("/r/d1/new/g%d", i), []byte("g"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	skip := vfs.SnapshotOptions{Skip: func(rel string, _ fs.FileInfo) bool { return rel == "d2/e" }}
	for _, tc := range []struct {
		name string
		opts vfs.SnapshotOptions
	}{
		{"plain", vfs.SnapshotOptions{}},
		{"skip", skip},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, err := vfs.DiffFS(before, after, "/r", tc.opts)
				if err != nil {
					b.Fatal(err)
				}
				if len(d.Added) != 6 {
					b.Fatalf("added %d entries, want 6", len(d.Added))
				}
			}
		})
	}
}
