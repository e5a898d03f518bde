package proptest_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/proptest"
)

// FuzzScenario runs the no-copy-back, precedence, classification and
// refresh properties on worlds drawn from the fuzzer's input.
func FuzzScenario(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		w := proptest.WorldGen().Draw(t, "world")
		for _, prop := range []property{noCopyBack, precedence, classification, refreshKeepsDurable} {
			if problems, _ := prop(t, harness{}, w); len(problems) > 0 {
				t.Fatalf("%q", problems)
			}
		}
	}))
}

// FuzzWorldLoaders feeds rendered worlds, and mutations of them, to the
// txtar and scenario loaders: they never panic, and a rendered world loads.
func FuzzWorldLoaders(f *testing.F) {
	for i := range 8 {
		w := proptest.WorldGen().Example(i)
		f.Add(w.Txtar(), w.ScenarioJSON())
	}
	f.Fuzz(func(t *testing.T, archive, scenario []byte) {
		_, _ = fixtures.LoadTxtar(archive, "fuzz.txtar")
		_, _ = fixtures.ParseScenario(scenario, "fuzz.json")
	})
}
