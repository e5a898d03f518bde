package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCheckReportsScenarioErrors: a scenario that cannot run (a before op
// fails) is a failure of vfsim check, printed with the error under the
// FAIL line and counted, and vfsim update stops on it.
func TestCheckReportsScenarioErrors(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, false)
	sc := `{"name": "one", "before": [{"op": "write", "path": "<home>/.outfitter/settings.yml/x", "data": "x"}], "runs": [{}]}`
	if err := os.WriteFile(filepath.Join(dir, "scenarios", "one.json"), []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	cause := "scenario one: /before/0: write <home>/.outfitter/settings.yml/x: open <home>/.outfitter/settings.yml/x: not a directory"
	code, out, errs := runCLI(t, "check", dir)
	took := regexp.MustCompile(`\([0-9.]+[µnm]?s\)`)
	want := "FAIL tiny/one (T)\n    " + cause + "\n0 passed, 1 failed (T)\n"
	if got := took.ReplaceAllString(out, "(T)"); code != 1 || errs != "" || got != want {
		t.Errorf("vfsim check = %d, stderr %q, output\n%s\nwant 1, no stderr, output\n%s", code, errs, got, want)
	}
	code, out, errs = runCLI(t, "update", dir)
	if code != 1 || out != "" || errs != "vfsim update: "+cause+"\n" {
		t.Errorf("vfsim update = %d, output %q, stderr %q; want 1 and the cause on stderr", code, out, errs)
	}
}
