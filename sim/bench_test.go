package sim_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// onDisk returns a Mount that copies the prepared fixture machine into a
// fresh rooted OS directory.
func onDisk(tb testing.TB) func(mem *vfs.MemFS) (sim.FS, error) {
	return func(mem *vfs.MemFS) (sim.FS, error) {
		o := osfs.NewRooted(tb.TempDir())
		for _, dir := range []string{fixtures.FixtureRoot, "/tmp"} {
			if err := vfs.CopyTree(o, dir, mem, dir); err != nil {
				return nil, err
			}
		}
		return o, nil
	}
}

func benchScenario(b *testing.B, fx *fixtures.Fixture, sc *fixtures.Scenario, opts sim.ScenarioOptions) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		out, err := sim.Run(context.Background(), fx, sc, opts)
		if err != nil {
			b.Fatal(err)
		}
		if !out.Passed() {
			b.Fatal(out.Failure())
		}
	}
}

// BenchmarkScenario runs one scenario end to end (clone, resolve, assemble,
// agent ops, classify, report) on the memory FS and on the OS backend
// (including the copy of the fixture to a temporary directory).
func BenchmarkScenario(b *testing.B) {
	fxs, err := fixtures.LoadCatalog()
	if err != nil {
		b.Fatal(err)
	}
	var fx *fixtures.Fixture
	for _, f := range fxs {
		if f.Name() == "explicit_repo_profile" {
			fx = f
		}
	}
	if fx == nil || len(fx.Scenarios()) == 0 {
		b.Fatal("catalog fixture explicit_repo_profile with a scenario is missing")
	}
	sc := fx.Scenarios()[0]
	b.Run("catalog/memfs", func(b *testing.B) { benchScenario(b, fx, sc, sim.ScenarioOptions{}) })
	b.Run("catalog/osfs", func(b *testing.B) { benchScenario(b, fx, sc, sim.ScenarioOptions{Mount: onDisk(b)}) })

	dir := golden.Upstream(b, golden.UpstreamFixtures)
	if dir == "" {
		b.Log(golden.UpstreamSkipReason(golden.UpstreamFixtures))
		return
	}
	ufx, err := fixtures.LoadDir(filepath.Join(dir, "trivial_repo_only_profile"))
	if err != nil {
		b.Fatal(err)
	}
	var usc *fixtures.Scenario
	for _, sc := range upstreamScenarios(b) {
		if sc.Name == "trivial_repo_only_profile.test01" {
			usc = sc
		}
	}
	if usc == nil {
		b.Fatal("upstream scenario trivial_repo_only_profile.test01 is missing")
	}
	opts := sim.ScenarioOptions{Options: sim.Options{Cwd: "/upstream-cwd"}}
	b.Run("upstream/memfs", func(b *testing.B) { benchScenario(b, ufx, usc, opts) })
	cached := opts
	cached.Cache = resolve.NewCache()
	b.Run("upstream/memfs-cached", func(b *testing.B) { benchScenario(b, ufx, usc, cached) })
	disk := opts
	disk.Mount = onDisk(b)
	b.Run("upstream/osfs", func(b *testing.B) { benchScenario(b, ufx, usc, disk) })
}

// BenchmarkUpstreamAll runs every reference scenario (10 tests, 11 runs)
// once per iteration, in one process, on the memory FS.
func BenchmarkUpstreamAll(b *testing.B) {
	dir := golden.Upstream(b, golden.UpstreamFixtures)
	if dir == "" {
		b.Skip(golden.UpstreamSkipReason(golden.UpstreamFixtures))
	}
	type job struct {
		fx *fixtures.Fixture
		sc *fixtures.Scenario
	}
	var jobs []job
	for _, sc := range upstreamScenarios(b) {
		fx, err := fixtures.LoadDir(filepath.Join(dir, sc.Fixture))
		if err != nil {
			b.Fatal(err)
		}
		jobs = append(jobs, job{fx, sc})
	}
	opts := sim.ScenarioOptions{Options: sim.Options{Cwd: "/upstream-cwd", Cache: resolve.NewCache()}}
	b.ReportAllocs()
	for b.Loop() {
		for _, j := range jobs {
			out, err := sim.Run(context.Background(), j.fx, j.sc, opts)
			if err != nil || !out.Passed() {
				b.Fatalf("%s: %v %s", j.sc.Name, err, out.Failure())
			}
		}
	}
}
