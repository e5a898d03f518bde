package simtest

import (
	"context"
	"flag"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
)

var update = flag.Bool("vfsim.update", false,
	"rewrite the expected files of vfsim fixtures that do not match (simtest.Run), as vfsim update does, creating missing ones")

// Update reports whether the test binary runs with -vfsim.update.
func Update() bool { return *update }

// An Option changes how [Run] runs the scenarios.
type Option func(*config)

type config struct {
	opts sim.ScenarioOptions
	// noUpdate keeps -vfsim.update from writing expected files (the
	// platforms of a matrix after the first).
	noUpdate bool
	report   func(t *testing.T, fx *fixtures.Fixture, sc *fixtures.Scenario, out *sim.Outcome)
}

// WithAgent replaces the scripted agent of every run: agent gets the run
// of the scenario file and returns the agent to launch.
func WithAgent(agent func(run fixtures.AgentRun) sim.Agent) Option {
	return func(c *config) { c.opts.Agent = agent }
}

// WithOps interprets the suite's own ops: op kinds starting with
// fixtures.CustomPrefix ("x_commit"), which scenario files may use in
// their runs' ops next to the standard ones.
func WithOps(interpret fixtures.OpFunc) Option {
	return func(c *config) { c.opts.Custom = interpret }
}

// WithEnv sets the process environment the runs inherit, as "NAME=value"
// strings (only DEEPWORK_ADDITIONAL_JOBS_FOLDERS is read by the engine).
func WithEnv(env ...string) Option {
	return func(c *config) { c.opts.Env = append([]string(nil), env...) }
}

// WithClock sets the clock of the runs (the stale-root sweep); the
// default is the fixtures' load time, so that runs are reproducible.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.opts.Clock = now }
}

// WithAssets adds files to Outfitter's own assets (the bundled skill, the
// pi extension): a file of extra is used where it exists, the embedded
// one elsewhere.
func WithAssets(extra fs.FS) Option {
	return func(c *config) { c.opts.Assets = overlayAssets{extra: extra, base: composite.DefaultAssets()} }
}

// WithPlatform runs the scenarios as platform p, whatever platform each
// scenario names: on the fixture as p's file system holds it, in memory,
// with the engine acting as upstream does on p (see sim.Options.Platform).
func WithPlatform(p vfs.Platform) Option {
	return func(c *config) { c.opts.Platform = p }
}

// RunMatrix runs the fixtures under dir once per platform, as upstream's
// CI runs its suite on each operating system: one subtest per platform
// (named after it: "linux", "darwin", "win32"), holding what [Run] runs
// with [WithPlatform]. No platforms means every one ([vfs.Platforms]).
// Each scenario must then hold on each platform; one whose expectations
// are a platform's own names it in its "platform" field and is run with
// [Run]. With -vfsim.update, the first platform writes the expected
// files and the others run against them.
func RunMatrix(t *testing.T, dir string, platforms []vfs.Platform, opts ...Option) {
	t.Helper()
	if len(platforms) == 0 {
		platforms = vfs.Platforms()
	}
	for i, p := range platforms {
		t.Run(string(p), func(t *testing.T) {
			// With -vfsim.update the first platform writes the expected
			// files, before the others run against them.
			if !*update {
				t.Parallel()
			}
			o := append(slices.Clone(opts), WithPlatform(p))
			if i > 0 {
				o = append(o, func(c *config) { c.noUpdate = true })
			}
			Run(t, dir, o...)
		})
	}
}

// WithReport calls inspect after every scenario, passed or failed, with
// its outcome (the run report, the engine's results, the file system as
// the last run left it); inspect may fail the test.
func WithReport(inspect func(t *testing.T, fx *fixtures.Fixture, sc *fixtures.Scenario, out *sim.Outcome)) Option {
	return func(c *config) { c.report = inspect }
}

// Run runs the fixtures under dir as subtests of t: dir is a fixture (a
// directory with README.md, home/ and project/, or a .txtar archive) or a
// folder of them. Each fixture is a subtest named after it, and each of
// its scenarios a subtest of that named after the scenario, so that
// go test -run 'TestX/fixture/scenario' runs one scenario. Scenarios run in
// parallel, each on its own copy of its fixture. A failed scenario reports
// what vfsim check prints: the run's error first, then the expectations
// that did not hold, with the expected file each comes from and a readable
// difference.
//
// With -vfsim.update, each fixture's expected files that do not match are
// written first (created when missing or empty), as vfsim update does;
// the scenarios then run against them, and those that still fail (on
// expectations written in the scenario files) fail the test.
func Run(t *testing.T, dir string, opts ...Option) {
	t.Helper()
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	if c.opts.Cache == nil {
		c.opts.Cache = resolve.NewCache()
	}
	paths, err := fixtures.Find(dir)
	if err != nil {
		t.Fatalf("simtest: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			t.Parallel()
			c.runFixture(t, p)
		})
	}
}

func (c *config) runFixture(t *testing.T, p string) {
	fx, err := fixtures.Load(p)
	if err != nil {
		t.Fatalf("simtest: %v", err)
	}
	if *update && !c.noUpdate {
		written, err := sim.UpdateExpected(context.Background(), fx, c.opts)
		if err != nil {
			t.Fatalf("simtest: update %s: %v", p, err)
		}
		for _, f := range written {
			t.Logf("wrote %s", fx.Where(f))
		}
		if len(written) > 0 {
			if fx, err = fixtures.Load(p); err != nil {
				t.Fatalf("simtest: %v", err)
			}
		}
	}
	if len(fx.Scenarios()) == 0 {
		t.Fatalf("simtest: fixture %s has no scenario (scenarios/*.json)", p)
	}
	for _, sc := range fx.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			out, err := sim.RunScenario(context.Background(), fx, sc, c.opts)
			if err != nil {
				t.Fatalf("simtest: %v", err)
			}
			if c.report != nil {
				c.report(t, fx, sc, out)
			}
			if !out.Passed() {
				t.Errorf("scenario %s of %s failed:\n%s(go test -vfsim.update rewrites the expected files from what the engine produces now)", sc.Name, p, out.Failure())
			}
		})
	}
}
