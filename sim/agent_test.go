package sim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/simtest"
	"github.com/outfitter-go/vfsim/writeback"
)

// soloFixture is the one-profile fixture of the package's tests.
const soloFixture = simtest.SoloArchive

// TestScriptFailureThroughLink: an op that fails through a link the agent
// made names the link and its target, and the error names the composite
// root by its token, never by the in-memory /tmp/outfitter-… path.
func TestScriptFailureThroughLink(t *testing.T) {
	t.Parallel()
	fx := loadFixture(t, soloFixture, "solo.txtar")
	sc := parseScenario(t, `{"runs": [{"ops": [
		{"op": "symlink", "path": "evil", "target": "../../outside"},
		{"op": "write", "path": "evil/x", "data": "x"}
	]}]}`, "evil.json")
	out := runScenario(t, fx, sc, sim.ScenarioOptions{})
	got := out.Results[0].Err
	want := "/runs/0/ops/1: write evil/x: through link evil -> ../../outside: open <composite-profile>/evil/x: no such file or directory"
	if got == nil || got.Error() != want {
		t.Errorf("run error:\n got %v\nwant %s", got, want)
	}
	if got != nil && strings.Contains(got.Error(), "/tmp/") {
		t.Errorf("the error names an in-memory path: %v", got)
	}
}

// TestFailureNamesRootByToken: a run error that names a path in the
// composite root shows it as <composite-profile> in the failure, where
// the in-memory /tmp/outfitter-… name means nothing to the reader.
func TestFailureNamesRootByToken(t *testing.T) {
	t.Parallel()
	fx := loadFixture(t, soloFixture, "solo.txtar")
	sc := parseScenario(t, `{"runs": [{}]}`, "s.json")
	agent := func(fixtures.AgentRun) sim.Agent {
		return sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
			return writeback.Exit{}, fmt.Errorf("open %s/settings.json: permission denied", s.Root)
		})
	}
	out := runScenario(t, fx, sc, sim.ScenarioOptions{Agent: agent})
	f := out.Failure()
	if !strings.Contains(f, "failed unexpectedly: open <composite-profile>/settings.json: permission denied") || strings.Contains(f, "/tmp/") {
		t.Errorf("failure:\n%s", f)
	}
}
