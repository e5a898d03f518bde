package sim_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/sim"
)

// updateArchive has a scenario whose summary file is missing and whose
// warnings file is empty, plus one whose expectation lives in the
// scenario file.
const updateArchive = `-- README.md --
A one-profile project with expected files to fill.
-- home/.outfitter/settings.yml --
default_profile: solo
profile_sources:
  - path: ./profiles
-- home/.outfitter/profiles/solo/profile.yml --
id: solo
controls:
  model: solo-model
  args: [--a, --b, --c]
-- project/.keep --
-- expected/pi/warnings.json --
-- scenarios/fill.json --
{"runs": [{"ops": [{"op": "write", "path": "scratch.txt", "data": "x\n"}],
  "expect": {"summary": {"file": "expected/pi/summary.json"}, "warnings": {"file": "expected/pi/warnings.json"}}}]}
`

func writeArchive(t *testing.T, text string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "fill.txtar")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func load(t *testing.T, file string) *fixtures.Fixture {
	t.Helper()
	fx, err := fixtures.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

func runOnly(t *testing.T, fx *fixtures.Fixture) *sim.Outcome {
	t.Helper()
	return runScenario(t, fx, fx.Scenarios()[0], sim.ScenarioOptions{})
}

func TestUpdateExpectedBootstraps(t *testing.T) {
	t.Parallel()
	file := writeArchive(t, updateArchive)
	fx := load(t, file)
	if out := runOnly(t, fx); out.Passed() {
		t.Fatal("precondition: the scenario passes before its expected files exist")
	}
	written, err := sim.UpdateExpected(context.Background(), fx, sim.ScenarioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"expected/pi/summary.json", "expected/pi/warnings.json"}, written); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	fx = load(t, file)
	if out := runOnly(t, fx); !out.Passed() {
		t.Fatalf("the scenario fails after the update:\n%s", out.Failure())
	}
	if again, err := sim.UpdateExpected(context.Background(), fx, sim.ScenarioOptions{}); err != nil || len(again) != 0 {
		t.Errorf("a second update wrote %v, %v; want nothing", again, err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "-- expected/pi/summary.json --\n{\n  \"profileId\": \"solo\",") ||
		!strings.Contains(string(data), "-- expected/pi/warnings.json --\n[\n  \"pi wrote undeclared composite profile state 'scratch.txt' and it was not persisted.\"\n]\n") {
		t.Errorf("archive after the update:\n%s", data)
	}
}

// TestFailureGolden pins the readable failure of a run whose profile lost
// an argument and changed its model, and of a run that failed before it
// launched: the error first, one line per missing array element, the
// summary it never produced as one line.
func TestFailureGolden(t *testing.T) {
	t.Parallel()
	file := writeArchive(t, updateArchive)
	if _, err := sim.UpdateExpected(context.Background(), load(t, file), sim.ScenarioOptions{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), "  model: solo-model\n  args: [--a, --b, --c]\n", "  model: other-model\n  args: [--a, --c]\n", 1)
	broken := strings.Replace(string(data), "default_profile: solo\n", "default_profile: gone\n", 1)
	var got strings.Builder
	for _, text := range []string{changed, broken} {
		got.WriteString(runOnly(t, load(t, writeArchive(t, text))).Failure())
		got.WriteString("--\n")
	}
	golden.Text(t, filepath.Join("testdata", "failure.txt"), got.String())
}

func TestUpdateExpectedConflict(t *testing.T) {
	t.Parallel()
	text := updateArchive + `-- scenarios/other.json --
{"runs": [{"profile": "solo", "args": ["--x"], "expect": {"summary": {"file": "expected/pi/summary.json"}}}]}
`
	_, err := sim.UpdateExpected(context.Background(), load(t, writeArchive(t, text)), sim.ScenarioOptions{})
	if err == nil || !strings.Contains(err.Error(), "expected/pi/summary.json: fill run 0 and other run 0 produce different content") {
		t.Errorf("two scenarios wanting different summaries in one file: %v", err)
	}
}
