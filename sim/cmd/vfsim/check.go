package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/cmd/vfsim/internal/startup"
	"github.com/outfitter-go/vfsim/vfs"
)

func checkCommand() *command {
	return &command{
		name:     "check",
		synopsis: "[--scenarios DIR] [--platform linux|darwin|win32] [FIXTURE|DIR ...]",
		summary:  "run every scenario and compare it with its expectations",
		about: `
Check runs every scenario of the fixtures named (a fixture directory, a
.txtar archive, or a folder of them; without any, the fixture catalog
built into vfsim) and prints one line per scenario, PASS or FAIL with its
time, then, for a failed one, the run's error and the expectations that did
not hold, with a readable difference. It exits with 1 when a scenario
failed.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			scenarios := f.String("scenarios", "", "run the scenario files of `DIR` (each names its fixture in its \"fixture\" field) instead of the fixtures' own scenarios/")
			platform := platformFlag(f)
			return func(c *cli, args []string) (int, error) {
				p, err := vfs.ParsePlatform(*platform)
				if err != nil {
					return 0, usageError{err}
				}
				return check(c, *scenarios, p, args)
			}
		},
	}
}

func listCommand() *command {
	return &command{
		name:     "list",
		synopsis: "[FIXTURE|DIR ...]",
		summary:  "list fixtures and their scenarios",
		about: `
List prints each fixture named (default: the built-in catalog) and, below
it, the name and purpose ("why") of each of its scenarios.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			return func(c *cli, args []string) (int, error) {
				fxs, err := loadFixtures(args)
				if err != nil {
					return 0, err
				}
				for _, fx := range fxs {
					fmt.Fprintf(c.stdout, "%s\n", fx.Name())
					for _, sc := range fx.Scenarios() {
						fmt.Fprintf(c.stdout, "  %s: %s\n", sc.Name, sc.Why)
					}
				}
				return 0, nil
			}
		},
	}
}

// job is one scenario to run on one fixture.
type job struct {
	fx *fixtures.Fixture
	sc *fixtures.Scenario
}

// loadFixtures loads the fixtures named by paths (a fixture, an archive or
// a folder of them), or the embedded catalog when there are none.
func loadFixtures(paths []string) ([]*fixtures.Fixture, error) {
	if len(paths) == 0 {
		return fixtures.LoadCatalog()
	}
	var out []*fixtures.Fixture
	for _, p := range paths {
		found, err := fixtures.Find(p)
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			fx, err := fixtures.Load(f)
			if err != nil {
				return nil, err
			}
			out = append(out, fx)
		}
	}
	return out, nil
}

// jobsOf pairs fixtures with their scenarios, or with the scenario files
// of scenarioDir when it is set.
func jobsOf(fxs []*fixtures.Fixture, scenarioDir string) ([]job, error) {
	var jobs []job
	if scenarioDir == "" {
		for _, fx := range fxs {
			for _, sc := range fx.Scenarios() {
				jobs = append(jobs, job{fx, sc})
			}
		}
		return jobs, nil
	}
	byName := map[string]*fixtures.Fixture{}
	for _, fx := range fxs {
		byName[fx.Name()] = fx
	}
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		sc, err := readScenario(f)
		if err != nil {
			return nil, err
		}
		fx, ok := byName[sc.Fixture]
		if !ok {
			return nil, fmt.Errorf("%s: fixture %q not among the fixtures given", f, sc.Fixture)
		}
		jobs = append(jobs, job{fx, sc})
	}
	return jobs, nil
}

func readScenario(file string) (*fixtures.Scenario, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return fixtures.ParseScenario(data, file)
}

func check(c *cli, scenarioDir string, platform vfs.Platform, args []string) (int, error) {
	// The registry's schemas compile while the fixtures load, rather than
	// holding up the first scenario.
	go composite.DefaultRegistry()
	start := time.Now()
	var results []*jobResult
	opts := sim.ScenarioOptions{Options: sim.Options{Cache: resolve.NewCache(), Platform: platform}}
	if scenarioDir == "" {
		sources, err := sourcesOf(args)
		if err != nil {
			return 0, err
		}
		if results, err = streamJobs(sources, opts); err != nil {
			return 0, err
		}
	} else {
		fxs, err := loadFixtures(args)
		if err != nil {
			return 0, err
		}
		jobs, err := jobsOf(fxs, scenarioDir)
		if err != nil {
			return 0, err
		}
		results = runJobs(jobs, opts)
	}
	if len(results) == 0 {
		return 0, errors.New("no scenario to run")
	}
	failed := 0
	for _, r := range results {
		<-r.done
		switch {
		case r.err != nil:
			failed++
			fmt.Fprintf(c.stdout, "FAIL %s/%s (%s)\n    %v\n", r.fx.Name(), r.sc.Name, r.took, r.err)
		case !r.out.Passed():
			failed++
			fmt.Fprintf(c.stdout, "FAIL %s/%s (%s)\n%s", r.fx.Name(), r.sc.Name, r.took, indent(r.out.Failure(), "    "))
		default:
			fmt.Fprintf(c.stdout, "PASS %s/%s (%s)\n", r.fx.Name(), r.sc.Name, r.took)
		}
		r.out = nil // printed: its trees and report are garbage now
	}
	fmt.Fprintf(c.stdout, "%d passed, %d failed (%s)\n", len(results)-failed, failed, round(time.Since(start)))
	if failed > 0 {
		return 1, nil
	}
	return 0, nil
}

// source is one fixture to load, or the error that ends the list of
// fixtures (a path that names none).
type source struct {
	load func() (*fixtures.Fixture, error)
	err  error
}

// sourcesOf lists the fixtures that paths name, as loadFixtures would load
// them and in its order, or the fixtures of the embedded catalog when
// there are no paths. A path that names no fixture ends the list with its
// error, where loadFixtures would stop.
func sourcesOf(paths []string) ([]source, error) {
	var out []source
	if len(paths) == 0 {
		list, err := startup.Catalog() // loading since package initialization for "vfsim check"
		if err != nil {
			return nil, err
		}
		for _, f := range list {
			out = append(out, source{load: f.Load})
		}
		return out, nil
	}
	for _, p := range paths {
		found, err := fixtures.Find(p)
		if err != nil {
			return append(out, source{err: err}), nil
		}
		for _, f := range found {
			out = append(out, source{load: func() (*fixtures.Fixture, error) { return fixtures.Load(f) }})
		}
	}
	return out, nil
}

// streamJobs loads the sources and runs their scenarios on GOMAXPROCS
// goroutines sharing opts (and its cache), a scenario as soon as its
// fixture is loaded, so that loading and running overlap and each
// fixture's memory is reused once its scenarios are done. It returns the
// results in the sources' and then the scenarios' order, each ready when
// its done channel is closed, once every source is loaded; the error is
// the first source's, in order, that failed, and then no result is
// returned (the scenarios still queued are dropped).
func streamJobs(sources []source, opts sim.ScenarioOptions) ([]*jobResult, error) {
	loaded := make([][]*jobResult, len(sources))
	errs := make([]error, len(sources))
	var (
		mu      sync.Mutex
		ready   = sync.NewCond(&mu)
		queue   []*jobResult // loaded scenarios not yet started
		next    int          // the next source to load
		pending = len(sources)
		failed  bool
		all     sync.WaitGroup // every source loaded or failed
	)
	all.Add(len(sources))
	worker := func() {
		mu.Lock()
		defer mu.Unlock()
		for {
			switch {
			case len(queue) > 0 && !failed:
				r := queue[0]
				queue = queue[1:]
				mu.Unlock()
				runJob(r, opts)
				mu.Lock()
			case next < len(sources):
				i := next
				next++
				mu.Unlock()
				var fx *fixtures.Fixture
				err := sources[i].err
				if err == nil {
					fx, err = sources[i].load()
				}
				var rs []*jobResult
				if err == nil {
					for _, sc := range fx.Scenarios() {
						rs = append(rs, &jobResult{job: job{fx, sc}, done: make(chan struct{})})
					}
				}
				mu.Lock()
				loaded[i], errs[i] = rs, err
				failed = failed || err != nil
				queue = append(queue, rs...)
				pending--
				all.Done()
				ready.Broadcast()
			case pending > 0 && !failed:
				ready.Wait()
			default:
				return
			}
		}
	}
	for range min(runtime.GOMAXPROCS(0), len(sources)) {
		go worker()
	}
	all.Wait()
	var results []*jobResult
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		results = append(results, loaded[i]...)
	}
	return results, nil
}

// jobResult is the outcome of one job, ready once done is closed.
type jobResult struct {
	job
	done chan struct{}
	out  *sim.Outcome
	err  error
	took time.Duration
}

// runJob runs the job of r and closes its done channel.
func runJob(r *jobResult, opts sim.ScenarioOptions) {
	t0 := time.Now()
	r.out, r.err = sim.RunScenario(context.Background(), r.fx, r.sc, opts)
	r.took = round(time.Since(t0))
	close(r.done)
}

// runJobs runs the jobs on GOMAXPROCS goroutines sharing opts (and its
// cache) and returns their results in the jobs' order, each ready when its
// done channel is closed, so that they can be reported in order as they
// finish.
func runJobs(jobs []job, opts sim.ScenarioOptions) []*jobResult {
	results := make([]*jobResult, len(jobs))
	for i, j := range jobs {
		results[i] = &jobResult{job: j, done: make(chan struct{})}
	}
	next := make(chan *jobResult)
	go func() {
		for _, r := range results {
			next <- r
		}
		close(next)
	}()
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		go func() {
			for r := range next {
				runJob(r, opts)
			}
		}()
	}
	return results
}

// indent prefixes every line of text with prefix.
func indent(text, prefix string) string {
	if text == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+prefix) + "\n"
}

func round(d time.Duration) time.Duration {
	// At exactly a second or a millisecond both roundings give d: >= for
	// either > (a mutant) is equivalent.
	switch {
	//mutants:equivalent CONDITIONALS_BOUNDARY
	case d > time.Second:
		return d.Round(time.Millisecond)
	//mutants:equivalent CONDITIONALS_BOUNDARY
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	}
	return d
}

// platformFlag registers --platform, the platform runs act as.
func platformFlag(f *flag.FlagSet) *string {
	return f.String("platform", "", "run as `PLATFORM` (linux, darwin or win32): the fixture on that platform's file system, in memory, and the engine acting as upstream does there; default each scenario's own \"platform\", else linux")
}
