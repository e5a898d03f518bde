package sim_test

import (
	"bytes"
	"errors"
	"io/fs"
	"strconv"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
)

// TestOverlayMountReadsOnlyWhatRunsTouch: on a mount that is a
// copy-on-write overlay, the durable difference comes from the overlay's
// changes, so a file of the fixture that no run touches is never read
// (reading it is what made vfsim run --overlay heavier than a plain run
// on a fixture holding a large file).
func TestOverlayMountReadsOnlyWhatRunsTouch(t *testing.T) {
	t.Parallel()
	fx := loadFixture(t, soloFixture+"-- project/large.bin --\nuntouched\n", "solo.txtar")
	sc := parseScenario(t, `{"runs": [{"ops": [{"op": "write", "path": "settings.json", "data": "{}\n"}]}]}`, "s.json")
	var lower *faultfs.FS
	mount := func(mem *vfs.MemFS) (sim.FS, error) {
		lower = faultfs.New(mem)
		return overlayfs.New(lower, overlayfs.Options{}), nil
	}
	out := runScenario(t, fx, sc, sim.ScenarioOptions{Mount: mount})
	if !out.Passed() {
		t.Fatalf("scenario failed:\n%s", out.Failure())
	}
	if _, ok := out.Report.Durable.Added["home/.pi/agent/settings.json"]; !ok {
		t.Errorf("durable difference %+v lacks the write through the link", out.Report.Durable)
	}
	for _, op := range lower.Ops() {
		if op.Path == "/fixture/project/large.bin" {
			t.Errorf("the untouched fixture file was read: %+v", op)
		}
	}
}

// TestRunScenarioSeedAndClock checks what a scenario run takes from its
// options: the composite root's random name from the caller's random
// source, else from the seed, else from the scenario's name, the same on
// every run; and the time of the stale-root sweep from the caller's
// clock, else the fixtures' load time.
func TestRunScenarioSeedAndClock(t *testing.T) {
	t.Parallel()
	fx := loadFixture(t, soloFixture, "solo.txtar")
	sc := parseScenario(t, `{"name": "s", "runs": [{}]}`, "s.json")
	run := func(opts sim.ScenarioOptions) *sim.Outcome {
		t.Helper()
		out := runScenario(t, fx, sc, opts)
		if !out.Passed() {
			t.Fatalf("scenario failed:\n%s", out.Failure())
		}
		return out
	}
	root := func(opts sim.ScenarioOptions) string { return run(opts).Results[0].Root }
	byName := root(sim.ScenarioOptions{})
	roots := map[string]string{
		"by name again": root(sim.ScenarioOptions{}),
		"seed 1":        root(sim.ScenarioOptions{Seed: 1}),
		"seed 2":        root(sim.ScenarioOptions{Seed: 2}),
		"random source": root(sim.ScenarioOptions{Options: sim.Options{Rand: bytes.NewReader(make([]byte, 64))}}),
	}
	if roots["by name again"] != byName {
		t.Errorf("two runs without a seed made roots %s and %s, want one name", byName, roots["by name again"])
	}
	for _, name := range []string{"seed 1", "seed 2", "random source"} {
		if roots[name] == byName {
			t.Errorf("%s: root %s, the one drawn from the scenario's name", name, roots[name])
		}
	}
	if roots["seed 1"] == roots["seed 2"] {
		t.Errorf("seeds 1 and 2 made the same root %s", roots["seed 1"])
	}

	// A root left in the temporary directory at the fixtures' load time
	// is stale for a clock eight days later (upstream sweeps after seven),
	// fresh for the load time.
	const old = "/tmp/outfitter-left-pi-x"
	swept := func(clock func() time.Time) bool {
		t.Helper()
		mount := func(mem *vfs.MemFS) (sim.FS, error) {
			if err := mem.Mkdir(old, 0o700); err != nil {
				return nil, err
			}
			return mem, mem.Chtimes(old, fixtures.LoadTime(), fixtures.LoadTime())
		}
		_, err := vfs.Lstat(run(sim.ScenarioOptions{Mount: mount, Options: sim.Options{Clock: clock}}).FS, old)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		return err != nil
	}
	if swept(nil) {
		t.Errorf("without a clock, a root made at the fixtures' load time was swept")
	}
	if !swept(func() time.Time { return fixtures.LoadTime().Add(8 * 24 * time.Hour) }) {
		t.Errorf("a root eight days older than the caller's clock was not swept")
	}
}

// TestInteractiveRunWithoutAnswers checks that an interactive run whose
// scenario scripts no answers has no one to ask: a write under a prompt
// strategy is reported and skipped as in a non-interactive session, not
// failed for want of an answer.
func TestInteractiveRunWithoutAnswers(t *testing.T) {
	t.Parallel()
	fx, err := fixtures.LoadCatalogFixture("prompt_choices")
	if err != nil {
		t.Fatal(err)
	}
	sc := parseScenario(t, `{"name": "no-answers", "runs": [{
		"interactive": true,
		"ops": [{"op": "write", "path": "mcp.json", "data": "{}\n"}],
		"expect": {"warnings": {"equals": [
			"pi wrote 'mcp.json' with state_persistence 'prompt' and it was not persisted.",
			"state_persistence prompt for 'mcp.json' skipped: non-interactive session."
		]}}
	}]}`, "no-answers.json")
	out := runScenario(t, fx, sc, sim.ScenarioOptions{})
	if !out.Passed() {
		t.Errorf("scenario failed:\n%s", out.Failure())
	}
}

// TestMessagesExpectation checks that a run's messages reach its
// expectations: the catalog's skipped-export notice passes an
// expectation that lists it and fails one that lists another.
func TestMessagesExpectation(t *testing.T) {
	t.Parallel()
	fx, err := fixtures.LoadCatalogFixture("system_prompt_export")
	if err != nil {
		t.Fatal(err)
	}
	const notice = "System prompt export skipped for profile 'desk' because its source is cache-backed. Copy or symlink the profile into a local profile source to export generated prompts."
	for _, tc := range []struct {
		message string
		pass    bool
	}{{notice, true}, {"another message", false}} {
		sc := parseScenario(t, `{"name": "m", "runs": [{"profile": "desk",
			"expect": {"messages": {"equals": [`+strconv.Quote(tc.message)+`]}}}]}`, "m.json")
		out := runScenario(t, fx, sc, sim.ScenarioOptions{})
		if out.Passed() != tc.pass {
			t.Errorf("expecting message %q: passed %v, want %v\n%s", tc.message, out.Passed(), tc.pass, out.Failure())
		}
	}
}
