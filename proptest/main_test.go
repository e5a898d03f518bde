package proptest_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// propGCPercent is the garbage collector's target for this package's
// tests and benchmarks unless GOGC is set, as the vfsim command's: random
// scenarios allocate about 54 KB each over a live heap of a few
// megabytes, which the default of 100 collects every few dozen scenarios,
// a third of the time of a run (BenchmarkRandomScenario: about 7,900
// scenarios/s at 100, 9,900 at 400 on one core).
const propGCPercent = 400

func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(propGCPercent)
	}
	os.Exit(m.Run())
}
