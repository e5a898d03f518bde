package sim_test

import (
	"context"
	"os"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestAgentHoldsItsSourcesInUse: while the agent runs, the durable files
// its state paths link to are in use. The agent opens mcp.json through
// its link with O_TRUNC (the file is blank now), another session starts
// and ensures the same source (its blank-source reset), then the agent
// writes and closes. The other session leaves the file as it is, with a
// warning, and the agent's content is what the durable file holds.
// Before, the reset renamed "{}\n" over the file the agent was writing,
// and the agent's write went to a file nobody reads
// (TestConcurrentSessions saw mcp.json end as "{}\n").
func TestAgentHoldsItsSourcesInUse(t *testing.T) {
	t.Parallel()
	const source = "/h/.pi/agent/mcp.json"
	const text = "{\"session\":1}\n"
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.WriteFiles(t, fsys, "/", map[string]string{
		"h/.outfitter/settings.yml":             "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		"h/.outfitter/profiles/eng/profile.yml": "id: eng\nstate_persistence:\n  mcp.json: symlink\n",
	})
	for _, d := range []string{"/tmp", "/p"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var warning string
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		f, err := s.FS.OpenFile(s.Root+"/mcp.json", os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return writeback.Exit{}, err
		}
		defer f.Close()
		sp := composite.StatePath{RelativePath: "mcp.json", Strategy: composite.StrategySymlink, SourcePath: source}
		if warning, err = composite.EnsureSource(s.FS, sp); err != nil {
			return writeback.Exit{}, err
		}
		if _, err := f.Write([]byte(text)); err != nil {
			return writeback.Exit{}, err
		}
		return writeback.Exit{Exited: true}, f.Close()
	})
	r := sim.Execute(context.Background(), fsys, sim.Spec{Home: "/h", Project: "/p", Agent: "pi"}, agent, sim.Options{TempDir: "/tmp"})
	if r.Err != nil {
		t.Fatalf("run: %v", r.Err)
	}
	if want := "State source '" + source + "' is blank but in use by another session; left as it is."; warning != want {
		t.Errorf("the other session's warning = %q, want %q", warning, want)
	}
	if got, err := fsys.ReadFile(source); err != nil || string(got) != text {
		t.Errorf("durable mcp.json = %q, %v; want the agent's %q", got, err, text)
	}
	// Released when the agent exited.
	u, err := vfs.TryLock(fsys, source)
	if err != nil {
		t.Fatalf("the in-use lock outlived the run: %v", err)
	}
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
}
