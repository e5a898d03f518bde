package writeback_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// BenchmarkPersistDurable persists a directory state path of 1 and of 100
// files of 1 KiB over an existing source holding the same names, on the
// OS backend (rooted in a temporary directory: every file replaced is
// synced, and its directory) and on a MemFS (where the syncs are counted
// and cost nothing). It measures what durability costs: compare with the
// code before ReplaceFile synced (docs/performance.md, "Durability cost").
func BenchmarkPersistDurable(b *testing.B) {
	for _, backend := range []string{"os", "mem"} {
		for _, n := range []int{1, 100} {
			b.Run(fmt.Sprintf("%s/files=%d", backend, n), func(b *testing.B) {
				var fsys writeback.PersistFS
				if backend == "os" {
					fsys = osfs.NewRooted(b.TempDir())
				} else {
					fsys = vfs.NewMemFS(vfs.MemOptions{})
				}
				data := []byte(strings.Repeat("x", 1023) + "\n")
				for _, dir := range []string{root + "/plugins", piAgent + "/plugins"} {
					if err := vfs.MkdirAll(fsys, dir, 0o755); err != nil {
						b.Fatal(err)
					}
					for i := range n {
						if err := vfs.WriteFile(fsys, fmt.Sprintf("%s/f%03d.json", dir, i), data, 0o644); err != nil {
							b.Fatal(err)
						}
					}
				}
				sp := pluginsPrompt(piAgent)
				b.ReportAllocs()
				for b.Loop() {
					if err := writeback.Persist(fsys, root, sp); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
