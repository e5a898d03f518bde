package sim_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/sim"
)

// A scenario whose run expectation and after check both fail reports each
// mismatch with the scenario, the run ("run 0") or "after", and the
// difference, and Failure groups them under the run (with its agent and
// profile) and "after the last run".
func TestScenarioFailureNamesRunAndAfter(t *testing.T) {
	t.Parallel()
	fx := loadFixture(t, soloFixture, "solo.txtar")
	sc := parseScenario(t, `{"name": "bad", "runs": [{"ops": [{"op": "write", "path": "settings.json", "data": "{}\n"}], "expect": {"result": {"exitCode": 3}}}],
		"after": [{"path": "<home>/.pi/agent/settings.json", "absent": true}]}`, "s.json")
	out := runScenario(t, fx, sc, sim.ScenarioOptions{})
	if out.Passed() {
		t.Fatal("Passed() = true; want false")
	}
	var got []string
	for _, m := range out.Mismatches {
		got = append(got, m.String())
	}
	want := []string{
		"bad: run 0: /result/exitCode: want 3, got 0",
		"bad: after: /after/0/absent: <home>/.pi/agent/settings.json: exists",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("mismatches (-want +got):\n%s", d)
	}
	wantFailure := "run 0 (agent pi, profile solo):\n" +
		"    /result/exitCode: want 3, got 0\n" +
		"after the last run:\n" +
		"    /after/0/absent: <home>/.pi/agent/settings.json: exists\n"
	if d := cmp.Diff(wantFailure, out.Failure()); d != "" {
		t.Errorf("Failure() (-want +got):\n%s", d)
	}
}
