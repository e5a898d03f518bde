package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/outfitter-go/vfsim/fixtures"
)

// UpdateExpected runs every scenario of fx and writes, into the fixture on
// disk ([fixtures.Fixture.WriteExpected]), the expected files whose
// expectation does not hold: missing, empty, or different from what the
// engine produces now. A summary file gets the run's whole summary with
// its profileId and agentId, a warnings file the run's warnings; files
// whose expectations hold are left as they are, even when their text
// would be written differently. It returns the files written, sorted. The
// error is for a scenario that cannot run, for two runs that want
// different content in one file, and for a failed write. Load the fixture
// again and run its scenarios to see what still fails: expectations
// written in the scenario files are not updated.
func UpdateExpected(ctx context.Context, fx *fixtures.Fixture, opts ScenarioOptions) ([]string, error) {
	docs := map[string][]byte{}
	from := map[string]string{} // file -> the scenario and run that wrote it
	for _, sc := range fx.Scenarios() {
		out, err := RunScenario(ctx, fx, sc, opts)
		if err != nil {
			return nil, err
		}
		for i, run := range sc.Runs {
			for file, doc := range expectedDocs(run.Expect, out, i) {
				where := fmt.Sprintf("%s run %d", sc.Name, i)
				if old, ok := docs[file]; ok && !bytes.Equal(old, doc) {
					return nil, fmt.Errorf("fixture %s: %s: %s and %s produce different content", fx.Name(), file, from[file], where)
				}
				docs[file], from[file] = doc, where
			}
		}
	}
	if len(docs) == 0 {
		return nil, nil
	}
	return fx.WriteExpected(docs)
}

// expectedDocs returns the content of the expected files of run i whose
// comparison failed in out, from what the run produced.
func expectedDocs(exp *fixtures.Expect, out *Outcome, i int) map[string][]byte {
	if exp == nil {
		return nil
	}
	failed := map[string]bool{}
	for _, m := range out.Mismatches {
		if m.Run == i && m.File != "" {
			failed[m.File] = true
		}
	}
	docs := map[string][]byte{}
	rr := out.Report.Runs[i]
	if s := exp.Summary; s != nil && failed[s.File] && rr.Summary != nil {
		docs[s.File] = indentJSON(struct {
			ProfileID string `json:"profileId"`
			AgentID   string `json:"agentId"`
			*Summary
		}{rr.ProfileID, rr.AgentID, rr.Summary})
	}
	if w := exp.Warnings; w != nil && w.File != "" && failed[w.File] {
		docs[w.File] = indentJSON(rr.Warnings)
	}
	return docs
}

// indentJSON encodes v with two-space indentation, no HTML escaping and a
// final newline, as expected files are written.
func indentJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("sim: encode an expected file: %v", err)) // report values always encode
	}
	return b.Bytes()
}
