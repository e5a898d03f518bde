package proptest_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
)

// BenchmarkRandomScenario runs full random scenarios (render excluded:
// worlds are loaded once) end to end on the memory FS; scenarios/s is the
// throughput per core.
func BenchmarkRandomScenario(b *testing.B) {
	jobs := worlds(b)
	opts := sim.ScenarioOptions{Options: sim.Options{Cache: resolve.NewCache()}}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		j := jobs[n%len(jobs)]
		n++
		if _, err := sim.RunScenario(context.Background(), j.fx, j.sc, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "scenarios/s")
}

// BenchmarkRandomScenarioParallel runs the worlds of BenchmarkRandomScenario
// from GOMAXPROCS goroutines at once, sharing the worlds and the cache as
// the property tests' parallel runs do: with -cpu 1,2, the ratio of the two
// scenarios/s figures is how throughput scales with a second core.
func BenchmarkRandomScenarioParallel(b *testing.B) {
	jobs := worlds(b)
	opts := sim.ScenarioOptions{Options: sim.Options{Cache: resolve.NewCache()}}
	var next atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			j := jobs[int(next.Add(1))%len(jobs)]
			if _, err := sim.RunScenario(context.Background(), j.fx, j.sc, opts); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
}

// world is a loaded random world: its fixture and scenario.
type world struct {
	fx *fixtures.Fixture
	sc *fixtures.Scenario
}

// worlds loads the first 64 examples of WorldGen.
func worlds(b *testing.B) []world {
	b.Helper()
	var jobs []world
	for i := range 64 {
		fx, sc, err := proptest.WorldGen().Example(i).Load()
		if err != nil {
			b.Fatal(err)
		}
		jobs = append(jobs, world{fx, sc})
	}
	return jobs
}
