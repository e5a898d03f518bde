package sim_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/diff"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
)

type capture struct {
	Runs []struct {
		LaunchPlan struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"launchPlan"`
		CompositeAtLaunch map[string]report.Entry `json:"compositeAtLaunch"`
		Result            *struct {
			Warnings []string `json:"warnings"`
			ExitCode int      `json:"exitCode"`
		} `json:"result"`
		Error *string `json:"error"`
	} `json:"runs"`
	FixtureAtCleanup report.Delta `json:"fixtureAtCleanup"`
}

// compared tells which composite entries are compared with a capture: all
// but Outfitter's own assets, whose bytes are ours by design; profile.json
// and the plugin manifest are compared too.
func compared(p string) bool {
	switch p {
	case "outfitter/profile.json", "outfitter/plugin/.claude-plugin/plugin.json":
		return true
	}
	return p != "outfitter" && !strings.HasPrefix(p, "outfitter/")
}

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
			out, err := sim.RunScenario(context.Background(), fx, sc, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range out.Mismatches {
				t.Error(m.String())
			}
			if capDir == "" {
				return
			}
			raw, err := os.ReadFile(filepath.Join(capDir, sc.Name+".json"))
			if err != nil {
				t.Fatalf("capture for %s: %v", sc.Name, err)
			}
			var c capture
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatal(err)
			}
			if len(c.Runs) != len(out.Report.Runs) {
				t.Fatalf("capture has %d runs, scenario %d", len(c.Runs), len(out.Report.Runs))
			}
			for i, cr := range c.Runs {
				rr := out.Report.Runs[i]
				if rr.Launch == nil {
					t.Errorf("run %d did not launch: %v", i, rr.Error)
					continue
				}
				env := map[string]string{}
				for _, v := range rr.Launch.Env {
					env[v.Name] = v.Value
				}
				if d := cmp.Diff(cr.LaunchPlan.Args, rr.Launch.Args); d != "" || cr.LaunchPlan.Command != rr.Launch.Command {
					t.Errorf("run %d launch args (-capture +ours):\n%s", i, d)
				}
				if d := cmp.Diff(cr.LaunchPlan.Env, env); d != "" {
					t.Errorf("run %d launch env (-capture +ours):\n%s", i, d)
				}
				for p, want := range cr.CompositeAtLaunch {
					if !compared(p) {
						continue
					}
					got, ok := rr.CompositeAtLaunch[p]
					if !ok {
						t.Errorf("run %d: composite entry %s missing at launch", i, p)
						continue
					}
					for _, m := range diff.Entry("/compositeAtLaunch/"+p, want, got) {
						t.Errorf("run %d: %s", i, m)
					}
				}
				for p := range rr.CompositeAtLaunch {
					if _, ok := cr.CompositeAtLaunch[p]; !ok && compared(p) {
						t.Errorf("run %d: composite entry %s not in the capture", i, p)
					}
				}
				switch {
				case cr.Error != nil:
					if rr.Error == nil || *rr.Error != *cr.Error {
						t.Errorf("run %d error = %v, capture %q", i, rr.Error, *cr.Error)
					}
				case cr.Result != nil:
					if d := cmp.Diff(cr.Result.Warnings, rr.Warnings); d != "" {
						t.Errorf("run %d warnings (-capture +ours):\n%s", i, d)
					}
				}
			}
			// The capture's durable diff starts from the fixture as
			// checked in, before the scenario's before ops.
			before, err := report.SnapshotDurable(fx.Clone())
			if err != nil {
				t.Fatal(err)
			}
			after, err := report.SnapshotDurable(out.FS)
			if err != nil {
				t.Fatal(err)
			}
			ours := report.ProjectDelta(vfs.Diff(before, after), report.Tokens{})
			compareDelta(t, c.FixtureAtCleanup, ours)
		})
	}
	if runs != 11 {
		t.Errorf("upstream scenarios hold %d runs, want 11", runs)
	}
}

func compareDelta(t *testing.T, want, got report.Delta) {
	t.Helper()
	keys := func(m map[string]report.Entry) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	if d := cmp.Diff(keys(want.Added), keys(got.Added)); d != "" {
		t.Errorf("durable added paths (-capture +ours):\n%s", d)
	}
	for p, w := range want.Added {
		if g, ok := got.Added[p]; ok {
			for _, m := range diff.Entry("/durable/added/"+p, w, g) {
				t.Error(m)
			}
		}
	}
	var wc, gc []string
	for p := range want.Changed {
		wc = append(wc, p)
	}
	for p := range got.Changed {
		gc = append(gc, p)
	}
	sort.Strings(wc)
	sort.Strings(gc)
	if d := cmp.Diff(wc, gc); d != "" {
		t.Errorf("durable changed paths (-capture +ours):\n%s", d)
	}
	for p, w := range want.Changed {
		if g, ok := got.Changed[p]; ok {
			for _, m := range diff.Entry("/durable/changed/"+p+"/after", w.After, g.After) {
				t.Error(m)
			}
		}
	}
	if d := cmp.Diff(want.Removed, got.Removed); d != "" {
		t.Errorf("durable removed (-capture +ours):\n%s", d)
	}
}
