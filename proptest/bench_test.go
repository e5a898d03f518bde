package proptest_test

import (
	"context"
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
	type job struct {
		fx *fixtures.Fixture
		sc *fixtures.Scenario
	}
	var jobs []job
	for i := range 64 {
		fx, sc, err := proptest.WorldGen().Example(i).Load()
		if err != nil {
			b.Fatal(err)
		}
		jobs = append(jobs, job{fx, sc})
	}
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
