package launch

import (
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/sim"
)

// BenchmarkWatch starts and stops the watch of a session with one input,
// as every launch does: what a run pays for watching even when the agent
// exits at once. Nearly all of it is the kernel retiring the inotify
// watch when the descriptor closes (or the process exits with it open), a
// wait rather than work, which grows when other processes on the machine
// use inotify.
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
