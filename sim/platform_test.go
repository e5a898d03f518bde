package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/simtest"
	"github.com/outfitter-go/vfsim/vfs"
)

// TestMacOSCases runs the table of Outfitter's answers that depend on
// name folding (testdata/platforms/macos_cases): each case under Linux and
// under macOS, with the outcome upstream's code gives on each.
func TestMacOSCases(t *testing.T) {
	t.Parallel()
	simtest.Run(t, "testdata/platforms/macos_cases")
}

// TestMacOSCasesDiffer checks that the table tells the platforms apart:
// each scenario run as the other platform fails, on every run.
func TestMacOSCasesDiffer(t *testing.T) {
	t.Parallel()
	fx, err := fixtures.Load("testdata/platforms/macos_cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range fx.Scenarios() {
		other := vfs.PlatformDarwin
		if sc.Platform == vfs.PlatformDarwin {
			other = vfs.PlatformLinux
		}
		out, err := sim.RunScenario(context.Background(), fx, sc, sim.ScenarioOptions{Options: sim.Options{Platform: other}})
		if err != nil {
			t.Fatal(err)
		}
		failed := map[int]bool{}
		for _, m := range out.Mismatches {
			failed[m.Run] = true
		}
		for i := range sc.Runs {
			if !failed[i] {
				t.Errorf("scenario %s run %d (profile %s) passes as %s too", sc.Name, i, sc.Runs[i].Profile, other)
			}
		}
	}
}

// TestPlatformMatrix runs a scenario under each platform, as upstream's
// CI matrix does.
func TestPlatformMatrix(t *testing.T) {
	t.Parallel()
	simtest.RunMatrix(t, "testdata/platforms/matrix", nil)
}

// TestWindowsSafeSymlink runs upstream's Windows fallback end to end: a
// junction for a directory state path, a copy for a file one, and the
// agent's write to the copy lost with upstream's warning.
func TestWindowsSafeSymlink(t *testing.T) {
	t.Parallel()
	simtest.Run(t, "testdata/platforms/windows", simtest.WithReport(func(t *testing.T, _ *fixtures.Fixture, _ *fixtures.Scenario, out *sim.Outcome) {
		want := "State path 'settings.json' could not be symlinked (symlinks are unavailable on this platform); copied '<home>/.pi/agent/settings.json' instead, so writes to it will not persist back."
		for _, m := range out.Report.Runs[0].Messages {
			if m == want {
				return
			}
		}
		t.Errorf("no message %q among %q", want, out.Report.Runs[0].Messages)
	}))
}

func TestScenarioPlatformField(t *testing.T) {
	t.Parallel()
	sc, err := fixtures.ParseScenario([]byte(`{"platform": "darwin", "runs": [{}]}`), "p.json")
	if err != nil || sc.Platform != vfs.PlatformDarwin {
		t.Fatalf("ParseScenario = %+v, %v", sc, err)
	}
	for _, bad := range []string{`"macos"`, `""`, `7`} {
		_, err := fixtures.ParseScenario([]byte(`{"platform": `+bad+`, "runs": [{}]}`), "p.json")
		if err == nil || !strings.Contains(err.Error(), "/platform") {
			t.Errorf("platform %s: %v, want an error at /platform", bad, err)
		}
	}
}
