package overlayfs_test

// BenchmarkH is workload H of the vfs spec (§5): the per-case cost of a
// property test on the fixture of the vfs benchmarks
// (vfstest.BenchFixture: 40 files of 300 bytes, 12 nested directories under
// /fx): read the 40 files; mkdir /gen, 10 relative links into /fx with a
// 300-byte write through each, RemoveAll /gen; snapshot (walk, read and
// sha256 every file). On the MemFS the case starts by building the fixture
// in a fresh file system; on the overlay it starts with a fresh overlay
// (fresh upper layer) of a MemFS that holds the fixture, built once, so the
// writes through the links copy files up.
//
//	go test -run '^$' -bench H -benchmem -count 6 ./vfs/overlayfs/

import (
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func BenchmarkH(b *testing.B) {
	fx := vfstest.NewBenchFixture()
	b.Run("memfs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fsys := vfstest.BenchVFS(vfs.NewMemFS(vfs.MemOptions{}))
			fx.Build(b, fsys)
			fx.Case(b, fsys)
		}
	})
	b.Run("overlay", func(b *testing.B) {
		b.ReportAllocs()
		lower := vfs.NewMemFS(vfs.MemOptions{})
		fx.Build(b, vfstest.BenchVFS(lower))
		for b.Loop() {
			fx.Case(b, vfstest.BenchVFS(overlayfs.New(lower, overlayfs.Options{})))
		}
	})
	b.Run("overlay_empty_lower", func(b *testing.B) {
		b.ReportAllocs()
		lower := vfs.NewMemFS(vfs.MemOptions{})
		for b.Loop() {
			fsys := vfstest.BenchVFS(overlayfs.New(lower, overlayfs.Options{}))
			fx.Build(b, fsys)
			fx.Case(b, fsys)
		}
	})
}
