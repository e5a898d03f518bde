package sim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
)

// upstreamScenarios parses the scenario files of fixtures/upstream, in
// file name order.
func upstreamScenarios(tb testing.TB) []*fixtures.Scenario {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "upstream", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []*fixtures.Scenario
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		sc, err := fixtures.ParseScenario(data, f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, sc)
	}
	return out
}
