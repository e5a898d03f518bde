package vfstest_test

import (
	"fmt"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// Run one case of workload H on a MemFS: build the fixture, then read it,
// write through links into it and snapshot it.
func ExampleBenchFixture() {
	var b printTB // in a benchmark, pass the benchmark's *testing.B
	fx := vfstest.NewBenchFixture()
	fsys := vfstest.BenchVFS(vfs.NewMemFS(vfs.MemOptions{}))
	fx.Build(b, fsys)
	fx.Case(b, fsys)
	sums := fx.Snapshot(b, fsys)
	fmt.Println(len(fx.Dirs), "directories,", len(sums), "files")
	fmt.Println(fx.Links[1], "->", len(fx.Data[fx.Files[4]]), "bytes")
	// Output:
	// 12 directories, 40 files
	// ../fx/d0/e1/file04.txt -> 300 bytes
}
