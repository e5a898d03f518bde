package proptest_test

import (
	"context"
	"fmt"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// TB is what the harness needs from *testing.T and *rapid.T.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// runObs is what the observing agent saw of one run.
type runObs struct {
	ran bool
	// ops are the world's ops that took effect, in order (a failed op
	// changes nothing and is dropped, so the replayed script never fails).
	ops []proptest.Op
	// end is the composite when the agent exited.
	end vfs.Tree
	// refreshChanges lists durable paths a refresh changed.
	refreshChanges []string
}

// execution is one world run through the engine.
type execution struct {
	world         proptest.World
	out           *sim.Outcome
	runs          []*runObs
	before, after vfs.Tree // the fixture tree before the first and after the last run
}

// harness runs worlds through the engine, possibly a mutant of it.
type harness struct {
	// mount, when set, moves the runs to another FS (sim.ScenarioOptions.Mount).
	mount func(*vfs.MemFS) (sim.FS, error)
	// agent, when set, wraps the observing agent (a mutant).
	agent func(sim.Agent) sim.Agent
	// result, when set, alters the outcome (a mutant).
	result func(*sim.Outcome)
	// strict forces --strict on every run.
	strict bool
	// cache memoizes parsed files across the worlds of one property.
	cache *resolve.Cache
	// platform draws the worlds with proptest.PlatformWorldGen ("" is
	// proptest.WorldGen).
	platform vfs.Platform
}

// execute renders w, runs it with the observing agent and snapshots the
// fixture before and after.
func (h harness) execute(t TB, w proptest.World) *execution {
	t.Helper()
	if h.strict {
		w = withStrict(w)
	}
	fx, sc, err := w.Load()
	if err != nil {
		t.Fatalf("%v", err)
	}
	ex := &execution{world: w, runs: make([]*runObs, len(w.Runs))}
	next := 0
	opts := sim.ScenarioOptions{Mount: h.mount, Options: sim.Options{Cache: h.cache}}
	opts.Agent = func(fixtures.AgentRun) sim.Agent {
		obs := &runObs{}
		ex.runs[next] = obs
		var a sim.Agent = observer(w.Runs[next].Ops, obs)
		next++
		if h.agent != nil {
			a = h.agent(a)
		}
		return a
	}
	if ex.before, err = vfs.Snapshot(fx.Clone(), report.FixtureRoot); err != nil {
		t.Fatalf("snapshot fixture: %v", err)
	}
	out, err := sim.RunScenario(context.Background(), fx, sc, opts)
	if err != nil {
		t.Fatalf("run world: %v", err)
	}
	if h.result != nil {
		h.result(out)
	}
	ex.out = out
	if ex.after, err = vfs.Snapshot(out.FS, report.FixtureRoot); err != nil {
		t.Fatalf("snapshot fixture: %v", err)
	}
	return ex
}

func withStrict(w proptest.World) proptest.World {
	runs := make([]proptest.Run, len(w.Runs))
	for i, r := range w.Runs {
		r.Strict = true
		runs[i] = r
	}
	w.Runs = runs
	return w
}

// observer plays ops one at a time, as a process whose failing calls do not
// end it: it records the ops that took effect, checks that a refresh
// changes no durable file and snapshots the composite at exit.
func observer(ops []proptest.Op, obs *runObs) sim.Agent {
	return sim.AgentFunc(func(ctx context.Context, s *sim.Session) (writeback.Exit, error) {
		obs.ran = true
		exit := writeback.Exit{Exited: true}
		for _, op := range ops {
			var before vfs.Tree
			if op.Op.Op == fixtures.OpRefresh {
				before, _ = vfs.Snapshot(s.FS, report.FixtureRoot)
			}
			e, err := sim.Script{Ops: []fixtures.Op{op.Op}}.Run(ctx, s)
			if op.Op.Op == fixtures.OpRefresh {
				after, _ := vfs.Snapshot(s.FS, report.FixtureRoot)
				obs.refreshChanges = append(obs.refreshChanges, deltaPaths(vfs.Diff(before, after))...)
			}
			if err != nil {
				continue
			}
			obs.ops = append(obs.ops, op)
			if op.Op.Op == fixtures.OpExit {
				exit = e
				break
			}
		}
		var err error
		if obs.end, err = vfs.Snapshot(s.FS, s.Root); err != nil {
			return writeback.Exit{}, fmt.Errorf("observer: snapshot composite: %w", err)
		}
		return exit, nil
	})
}

// deltaPaths lists every path of a delta, sorted.
func deltaPaths(d vfs.Delta) []string {
	var out []string
	for p := range d.Added {
		out = append(out, p)
	}
	for p := range d.Changed {
		out = append(out, p)
	}
	out = append(out, d.Removed...)
	return sortedUnique(out)
}

// effective returns the world as it was actually played: each run's ops
// reduced to those that took effect, so the counterexample's scripted
// agent replays it without a failing op.
func (ex *execution) effective() proptest.World {
	w := ex.world
	runs := make([]proptest.Run, len(w.Runs))
	for i, r := range w.Runs {
		if ex.runs[i] != nil && ex.runs[i].ran {
			r.Ops = ex.runs[i].ops
		}
		runs[i] = r
	}
	w.Runs = runs
	return w
}
