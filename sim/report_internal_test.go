package sim

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/diff"
)

// TestSummaryValueMatchesJSON checks that the summary's value compares
// equal to what decoding its JSON gives, for every run of the catalog.
func TestSummaryValueMatchesJSON(t *testing.T) {
	t.Parallel()
	fxs, err := fixtures.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, fx := range fxs {
		for _, sc := range fx.Scenarios() {
			out, err := RunScenario(context.Background(), fx, sc, ScenarioOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, rr := range out.Report.Runs {
				if rr.Summary == nil {
					continue
				}
				data, err := json.Marshal(rr.Summary)
				if err != nil {
					t.Fatal(err)
				}
				var want map[string]any
				if err := json.Unmarshal(data, &want); err != nil {
					t.Fatal(err)
				}
				if ms := diff.JSON("", want, rr.Summary.value()); len(ms) > 0 {
					t.Errorf("%s run %d: summary value differs from its JSON: %v", sc.Name, i, ms)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no run reached the launch: nothing was compared")
	}
}
