package simtest_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/simtest"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestCatalog runs the project's own fixture catalog, through the same
// code as vfsim check.
func TestCatalog(t *testing.T) {
	simtest.Run(t, filepath.Join("..", "..", "fixtures", "catalog"))
}

// TestOptions runs a fixture that needs every option: a suite op, an
// environment, a clock, an asset and a report hook that checks them.
func TestOptions(t *testing.T) {
	inspected := 0
	touch := func(m fixtures.Machine, op fixtures.Op) (*fixtures.End, error) {
		if op.Op != "x_touch" {
			return nil, fmt.Errorf("unknown suite op %q", op.Op)
		}
		name, err := m.Path(op.Path)
		if err != nil {
			return nil, err
		}
		return nil, vfs.WriteFile(m.FS, name, []byte(op.Data), 0o644)
	}
	far := func() time.Time { return time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC) }
	skill := fstest.MapFS{"skills/outfitter/SKILL.md": {Data: []byte("---\nname: outfitter\ndescription: a skill of the suite\n---\nSUITE SKILL\n")}}
	simtest.Run(t, filepath.Join("testdata", "options"),
		simtest.WithOps(touch),
		simtest.WithEnv("DEEPWORK_ADDITIONAL_JOBS_FOLDERS=/jobs/shared"),
		simtest.WithClock(far),
		simtest.WithAssets(skill),
		simtest.WithReport(func(t *testing.T, fx *fixtures.Fixture, sc *fixtures.Scenario, out *sim.Outcome) {
			inspected++
			first, second := out.Results[0], out.Results[1]
			if e, ok := out.Report.Runs[0].CompositeAtLaunch["outfitter/plugin/skills/outfitter/SKILL.md"]; !ok || e.Text == nil || !strings.Contains(*e.Text, "SUITE SKILL") {
				t.Errorf("the composite's skill is not the suite's asset: %+v", e)
			}
			// The first run kept its root (--debug); the second run's
			// sweep, a century later by the clock, removed it.
			if _, err := out.FS.Lstat(first.Root); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the first run's root %s survived a sweep a century later", first.Root)
			}
			if first.Root == second.Root {
				t.Errorf("both runs used the root %s", first.Root)
			}
		}))
	t.Cleanup(func() { // after the parallel subtests
		if inspected != 1 {
			t.Errorf("the report hook ran %d times, want 1", inspected)
		}
	})
}

// TestWithAgent replaces the scripted agent of every run.
func TestWithAgent(t *testing.T) {
	var seen []string
	agent := func(run fixtures.AgentRun) sim.Agent {
		return sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
			seen = append(seen, s.AgentID+" "+run.Agent)
			return writeback.Exit{Exited: true}, nil
		})
	}
	simtest.Run(t, filepath.Join("testdata", "options"), simtest.WithAgent(agent), simtest.WithOps(nil))
	t.Cleanup(func() { // after the parallel subtests
		if strings.Join(seen, ",") != "pi ,pi " {
			t.Errorf("the agent saw %q, want two pi runs", seen)
		}
	})
}
