package launch

import (
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/sim"
)

// BenchmarkWatch starts and stops the watch of a session with one input,
// as every launch does: what a run waits for to watch even when the agent
// exits at once. Closing an inotify descriptor that holds a watch waits
// for the kernel to retire it (11–14 ms a start and stop on the shared
// machine when the close came before stop returned), so stop removes the
// watch and returns, and the descriptor closes after, while the run goes
// on (0.13 ms).
func BenchmarkWatch(b *testing.B) {
	dir := b.TempDir()
	a := New(Options{})
	s := &sim.Session{WatchPaths: []string{filepath.Join(dir, "profile.yml")}}
	b.ReportAllocs()
	for b.Loop() {
		stop := a.watch(s)
		stop()
	}
}
