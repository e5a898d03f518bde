package sim_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/sim"
)

// TestUpstreamConformance replays the upstream reference suite: each
// scenario of fixtures/upstream against its reference fixture, checking
// the scenario's expectations and, when the captures of the upstream runs
// are beside the repository, comparing every run with its capture
// (proptest.CompareRun, the comparison of the oracle campaign).
func TestUpstreamConformance(t *testing.T) {
	fixDir := golden.Upstream(t, golden.UpstreamFixtures)
	if fixDir == "" {
		t.Skip(golden.UpstreamSkipReason(golden.UpstreamFixtures))
	}
	capDir := golden.Upstream(t, golden.UpstreamCaptures)
	if capDir == "" {
		t.Log(golden.UpstreamSkipReason(golden.UpstreamCaptures) + "; comparing with expected files only")
	}
	scenarios := upstreamScenarios(t)
	if len(scenarios) != 10 {
		t.Fatalf("want the 10 upstream scenario files in fixtures/upstream, found %d", len(scenarios))
	}
	runs := 0
	for _, sc := range scenarios {
		runs += len(sc.Runs)
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			fx, err := fixtures.LoadDir(filepath.Join(fixDir, sc.Fixture))
			if err != nil {
				t.Fatal(err)
			}
			// Upstream's suite ran with the package directory as its
			// working directory, outside the fixture: a relative claude
			// session_directory was created there (spec Q3).
			opts := sim.ScenarioOptions{Options: sim.Options{Cwd: "/upstream-cwd"}}
			if capDir == "" {
				out := runScenario(t, fx, sc, opts)
				for _, m := range out.Mismatches {
					t.Error(m.String())
				}
				return
			}
			raw, err := os.ReadFile(filepath.Join(capDir, sc.Name+".json"))
			if err != nil {
				t.Fatalf("capture for %s: %v", sc.Name, err)
			}
			c, err := proptest.ParseCapture(raw)
			if err != nil {
				t.Fatal(err)
			}
			divs, out, err := proptest.CompareRun(context.Background(), fx, sc, c, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range out.Mismatches {
				t.Error(m.String())
			}
			for _, d := range divs {
				t.Errorf("differs from the capture: %s", d)
			}
		})
	}
	if runs != 11 {
		t.Errorf("upstream scenarios hold %d runs, want 11", runs)
	}
}
