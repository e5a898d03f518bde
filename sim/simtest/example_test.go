package simtest_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/simtest"
)

// A suite keeps its fixtures in testdata/ and runs them as subtests; go
// test -vfsim.update writes the expected files that do not match.
func ExampleRun() {
	// In a _test.go file of the suite:
	_ = func(t *testing.T) {
		simtest.Run(t, "testdata",
			simtest.WithReport(func(t *testing.T, fx *fixtures.Fixture, sc *fixtures.Scenario, out *sim.Outcome) {
				t.Logf("%s/%s: %d runs, %d durable files added", fx.Name(), sc.Name, len(out.Results), len(out.Report.Durable.Added))
			}))
	}
}
