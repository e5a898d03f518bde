package sim_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// onDisk returns a Mount that copies the prepared fixture machine into a
// fresh rooted OS directory, and a function that removes the directories
// made so far (so that runs do not pile up in one temporary directory).
func onDisk(tb testing.TB) (mount func(mem *vfs.MemFS) (sim.FS, error), clean func()) {
	base := tb.TempDir()
	var made []string
	mount = func(mem *vfs.MemFS) (sim.FS, error) {
		dir, err := os.MkdirTemp(base, "run")
		if err != nil {
			return nil, err
		}
		made = append(made, dir)
		o := osfs.NewRooted(dir)
		for _, d := range []string{report.FixtureRoot, "/tmp"} {
			if err := vfs.CopyTree(o, d, mem, d); err != nil {
				return nil, err
			}
		}
		return o, nil
	}
	clean = func() {
		for _, dir := range made {
			if err := os.RemoveAll(dir); err != nil {
				tb.Fatal(err)
			}
		}
		made = made[:0]
	}
	return mount, clean
}

// benchScenario runs a scenario per iteration; clean, when not nil, runs
// after each with the timer stopped.
func benchScenario(b *testing.B, fx *fixtures.Fixture, sc *fixtures.Scenario, opts sim.ScenarioOptions, clean func()) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		out, err := sim.RunScenario(context.Background(), fx, sc, opts)
		if err != nil {
			b.Fatal(err)
		}
		if !out.Passed() {
			b.Fatal(out.Failure())
		}
		if clean != nil {
			b.StopTimer()
			clean()
			b.StartTimer()
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
	b.Run("catalog/memfs", func(b *testing.B) { benchScenario(b, fx, sc, sim.ScenarioOptions{}, nil) })
	b.Run("catalog/osfs", func(b *testing.B) {
		mount, clean := onDisk(b)
		benchScenario(b, fx, sc, sim.ScenarioOptions{Mount: mount}, clean)
	})

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
	b.Run("upstream/memfs", func(b *testing.B) { benchScenario(b, ufx, usc, opts, nil) })
	cached := opts
	cached.Cache = resolve.NewCache()
	b.Run("upstream/memfs-cached", func(b *testing.B) { benchScenario(b, ufx, usc, cached, nil) })
	b.Run("upstream/osfs", func(b *testing.B) {
		disk := opts
		var clean func()
		disk.Mount, clean = onDisk(b)
		benchScenario(b, ufx, usc, disk, clean)
	})
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
			out, err := sim.RunScenario(context.Background(), j.fx, j.sc, opts)
			if err != nil || !out.Passed() {
				b.Fatalf("%s: %v %s", j.sc.Name, err, out.Failure())
			}
		}
	}
}

// BenchmarkScenarioHomeSize runs the catalog scenario of
// BenchmarkScenario, cached, on copies of its fixture whose home also
// holds n unrelated files (in ten directories and the home itself): the
// home-size scaling benchmark, whose time must stay flat in n.
func BenchmarkScenarioHomeSize(b *testing.B) {
	const name = "explicit_repo_profile"
	for _, n := range []int{0, 1000, 10000} {
		tree := fstest.MapFS{}
		err := fs.WalkDir(fixtures.Catalog(), name, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if !d.Type().IsRegular() {
				return fmt.Errorf("%s: not a regular file", p)
			}
			data, err := fs.ReadFile(fixtures.Catalog(), p)
			tree[p] = &fstest.MapFile{Data: data, Mode: 0o644}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			dir := fmt.Sprintf("%s/home/junk/d%02d", name, i%10)
			if i%100 == 0 {
				dir = name + "/home"
			}
			tree[fmt.Sprintf("%s/unrelated-%05d.txt", dir, i)] = &fstest.MapFile{Data: []byte("noise\n"), Mode: 0o644}
		}
		fx, err := fixtures.LoadFS(tree, name)
		if err != nil {
			b.Fatal(err)
		}
		opts := sim.ScenarioOptions{Options: sim.Options{Cache: resolve.NewCache()}}
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) { benchScenario(b, fx, fx.Scenarios()[0], opts, nil) })
	}
}

// BenchmarkExecuteOS is the run `vfsim exec` makes, in process: sim.Execute
// on the OS backend (osfs.New, absolute host paths) of the catalog fixture
// explicit_repo_profile copied once to a temporary directory, profile
// code-audit for claude, with an agent that exits 0 at once. Each run
// resolves the profile from disk (no cache, as a new process does), writes
// the composite under the fixture's temporary directory, classifies and
// removes it, so the runs repeat the same work.
func BenchmarkExecuteOS(b *testing.B) {
	root := b.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "fixtures", "catalog", "explicit_repo_profile"))); err != nil {
		b.Fatal(err)
	}
	tmp := filepath.Join(root, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		b.Fatal(err)
	}
	spec := sim.Spec{Home: filepath.ToSlash(filepath.Join(root, "home")), Project: filepath.ToSlash(filepath.Join(root, "project")), Agent: "claude", Profile: "code-audit"}
	opts := sim.Options{TempDir: filepath.ToSlash(tmp), Cwd: spec.Project, Env: []string{"HOME=" + spec.Home, "PATH=/nonexistent"}}
	noop := sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) {
		return writeback.Exit{Exited: true}, nil
	})
	b.ReportAllocs()
	for b.Loop() {
		res := sim.Execute(context.Background(), osfs.New(), spec, noop, opts)
		if res.Err != nil || res.ExitCode != 0 {
			b.Fatalf("exit %d: %v", res.ExitCode, res.Err)
		}
	}
	b.StopTimer()
	if left, err := os.ReadDir(tmp); err != nil || len(left) != 0 {
		b.Fatalf("temporary directory after the runs: %v, %v; want it empty", left, err)
	}
}
