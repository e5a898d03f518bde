package sim_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// upstreamScenarios parses the scenario files of fixtures/upstream, in
// file name order.
func upstreamScenarios(tb testing.TB) []*fixtures.Scenario {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "upstream", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []*fixtures.Scenario
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, parseScenario(tb, string(data), f))
	}
	return out
}

// newMachine is a memory machine with a home, a project and /tmp, and the
// given files.
func newMachine(t *testing.T, files map[string]string) *vfs.MemFS {
	t.Helper()
	m := vfs.NewMemFS(vfs.MemOptions{})
	for _, d := range []string{"/h", "/p", "/tmp"} {
		if err := m.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vfstest.WriteFiles(t, m, "/", files)
	return m
}

// loadFixture loads the txtar archive as the fixture called name; an
// archive that does not load stops the test.
func loadFixture(tb testing.TB, archive, name string) *fixtures.Fixture {
	tb.Helper()
	fx, err := fixtures.LoadTxtar([]byte(archive), name)
	if err != nil {
		tb.Fatalf("LoadTxtar(%s): %v", name, err)
	}
	return fx
}

// parseScenario parses the scenario JSON text as the file called name; a
// scenario that does not parse stops the test.
func parseScenario(tb testing.TB, text, name string) *fixtures.Scenario {
	tb.Helper()
	sc, err := fixtures.ParseScenario([]byte(text), name)
	if err != nil {
		tb.Fatalf("ParseScenario(%s): %v", name, err)
	}
	return sc
}

// runScenario runs sc on fx with opts. An error of the engine stops the
// test; a run that fails its expectations does not (the outcome says so).
func runScenario(tb testing.TB, fx *fixtures.Fixture, sc *fixtures.Scenario, opts sim.ScenarioOptions) *sim.Outcome {
	tb.Helper()
	out, err := sim.RunScenario(context.Background(), fx, sc, opts)
	if err != nil {
		tb.Fatalf("RunScenario(%s): %v", sc.Name, err)
	}
	return out
}
