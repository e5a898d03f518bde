package sim

import (
	"context"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestLockSourcesAllocations: the in-use locks of a run's state sources
// are taken by the names its materialization made, into the execution's
// own buffer, so a run with five linked sources allocates no more than the
// MemFS's locks themselves (made eight at a time). Building each link's
// name again, a release closure and a growing list cost ten more.
func TestLockSourcesAllocations(t *testing.T) {
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.WriteFiles(t, fsys, "/", map[string]string{
		"h/.outfitter/settings.yml": "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		"h/.outfitter/profiles/eng/profile.yml": "id: eng\nstate_persistence:\n" +
			"  auth.json: symlink\n  mcp.json: symlink\n  models.json: symlink\n  trust.json: symlink\n  keybindings.json: symlink\n",
	})
	for _, d := range []string{"/tmp", "/p"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	x := &execution{ctx: context.Background(), fsys: fsys, spec: Spec{Home: "/h", Project: "/p", Agent: "pi"}, opts: Options{TempDir: "/tmp"}, r: &Result{}}
	if err := x.plan(); err != nil {
		t.Fatal(err)
	}
	if err := x.materialize(); err != nil {
		t.Fatal(err)
	}
	if err := x.lockSources(); err != nil {
		t.Fatal(err)
	}
	if len(x.inUse) < 5 {
		t.Fatalf("precondition: %d sources locked, want at least the five declared", len(x.inUse))
	}
	if _, err := vfs.TryLock(fsys, "/h/.pi/agent/mcp.json"); err == nil {
		t.Error("mcp.json is not held in use")
	}
	if err := x.releaseSources(); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if err := x.lockSources(); err != nil {
			t.Fatal(err)
		}
		if err := x.releaseSources(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("taking and releasing the in-use locks allocates %.1f times, want at most 1", allocs)
	}
}
