package sim_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/sim"
)

// The oracle corpus: random worlds captured with upstream Outfitter.
const (
	oracleWorlds = "testdata/oracle/worlds"
	oracleLedger = "testdata/oracle/ledger.txt"
	// The corpus holds at least this many worlds and runs.
	minOracleWorlds, minOracleRuns = 300, 400
)

// TestOracleCorpus replays the oracle corpus without Node: every world of
// testdata/oracle/worlds (a txtar archive holding the fixture, the
// scenario and the compacted capture of upstream's run of it) runs with
// vfsim and is compared with its capture (proptest.CompareRun: launch
// plan, composite at launch, warnings, error, exit code, durable
// difference of the fixture); proptest.Explain names the upstream rule
// behind each divergence.
//
// The ledger, testdata/oracle/ledger.txt, lists the known divergences:
// one "world-id rule" line each (a world may have several lines, # starts
// a comment). The test fails when a world diverges by a rule its lines do
// not name, when a divergence is explained by no rule at all, and when a
// ledgered rule no longer shows in its world, so the ledger can only
// shrink: fixing a rule means deleting its lines (grep -v ' rule$'). The
// rules, with the upstream source behind each, are in proptest/rules.go;
// the table of counts and minimal worlds comes from
// go run ./proptest/cmd/oracle check -corpus sim/testdata/oracle.
//
// The corpus and the ledger are generated (go doc ./proptest/cmd/oracle):
// export worlds of a seed, capture them with the oracle (Node and the
// upstream build, a developer step, never CI), then pack.
func TestOracleCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(oracleWorlds, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < minOracleWorlds {
		t.Fatalf("oracle corpus holds %d worlds, want at least %d", len(files), minOracleWorlds)
	}
	data, err := os.ReadFile(oracleLedger)
	if err != nil {
		t.Fatal(err)
	}
	ledger, err := proptest.ReadLedger(data, oracleLedger)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, f := range files {
		ids[strings.TrimSuffix(filepath.Base(f), ".txtar")] = true
	}
	for _, id := range slices.Sorted(maps.Keys(ledger)) {
		if !ids[id] {
			t.Errorf("%s: ledgered world not in the corpus", id)
		}
	}
	var runs, matching atomic.Int64
	t.Run("worlds", func(t *testing.T) {
		for _, f := range files {
			id := strings.TrimSuffix(filepath.Base(f), ".txtar")
			t.Run(id, func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				w, err := proptest.ParseCorpusWorld(data, filepath.Base(f))
				if err != nil {
					t.Fatal(err)
				}
				runs.Add(int64(len(w.Scenario.Runs)))
				divs, out, err := proptest.CompareRun(context.Background(), w.Fixture, w.Scenario, w.Capture, sim.ScenarioOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if len(divs) == 0 {
					matching.Add(1)
				}
				e := proptest.Explain(w, out.Report, divs)
				for _, d := range e.Unexplained {
					t.Errorf("divergence no rule explains: %s", d)
				}
				known := ledger[id]
				for _, r := range e.RuleNames() {
					if !known[r] {
						t.Errorf("diverges by %s, which the ledger does not list for this world (%d divergences)", r, e.Rules[r])
					}
				}
				for _, r := range slices.Sorted(maps.Keys(known)) {
					if e.Rules[r] == 0 {
						t.Errorf("ledger lists %s, which no longer shows: delete the line %q from %s", r, id+" "+r, oracleLedger)
					}
				}
				if t.Failed() {
					for _, d := range divs {
						t.Logf("  %s", d)
					}
				}
			})
		}
	})
	if runs.Load() < minOracleRuns {
		t.Errorf("oracle corpus holds %d runs, want at least %d", runs.Load(), minOracleRuns)
	}
	t.Logf("%d worlds (%d runs), %d match upstream exactly", len(files), runs.Load(), matching.Load())
}
