package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/sim/simtest"
)

// scrub makes command output stable: the temporary directory becomes
// $TMP and durations (12.3ms) become (T).
func scrub(out, tmp string) string {
	out = strings.ReplaceAll(out, tmp, "$TMP")
	return regexp.MustCompile(`\(\d+(\.\d+)?(ns|µs|ms|s)\)`).ReplaceAllString(out, "(T)")
}

// fillArchive is a one-profile project whose expected files are still to
// be written.
const fillArchive = simtest.SoloArchive + `-- expected/pi/warnings.json --
-- expected/claude/summary.json --
{}
-- scenarios/pi.json --
{"runs": [{"agent": "pi", "ops": [{"op": "write", "path": "scratch.txt", "data": "x\n"}],
  "expect": {"summary": {"file": "expected/pi/summary.json"}, "warnings": {"file": "expected/pi/warnings.json"}}}]}
-- scenarios/claude.json --
{"runs": [{"agent": "claude", "expect": {"result": {"profileId": "other"}, "summary": {"file": "expected/claude/summary.json"}}}]}
`

// writeFill writes fillArchive as fill.txtar in a new temporary directory
// and returns both.
func writeFill(t *testing.T) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "fill.txtar")
	if err := os.WriteFile(file, []byte(fillArchive), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// TestUpdateGolden: update creates a missing expected file, fills an
// empty one and an empty summary, in a txtar archive; it says what it
// wrote and lists the scenario that still fails on an expectation written
// in the scenario itself (exit 1); run again, it writes nothing.
func TestUpdateGolden(t *testing.T) {
	t.Parallel()
	tmp, file := writeFill(t)
	var got strings.Builder
	for range 2 {
		code, out, errs := runCLI(t, "update", file)
		if code != 1 || errs != "" {
			t.Errorf("vfsim update = %d, stderr %q; want 1 (a scenario still fails)", code, errs)
		}
		got.WriteString("$ vfsim update fill.txtar\n" + scrub(out, tmp))
	}
	golden.Text(t, filepath.Join("testdata", "update.txt"), got.String())
	code, out, _ := runCLI(t, "check", file)
	if code != 1 || !strings.Contains(out, "PASS fill/pi") || !strings.Contains(out, "FAIL fill/claude") {
		t.Errorf("check after update = %d:\n%s", code, out)
	}
}

func TestUpdateDirectory(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, true)
	if err := os.Remove(filepath.Join(dir, "expected", "pi", "warnings.json")); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "update", dir)
	if code != 0 {
		t.Fatalf("vfsim update = %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"wrote " + filepath.Join(dir, "expected", "pi", "summary.json"), "wrote " + filepath.Join(dir, "expected", "pi", "warnings.json"), "2 expected files written; 0 of 1 scenarios still fail"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := runCLI(t, "check", dir); code != 0 {
		t.Fatalf("check after update = %d\n%s", code, out)
	}
}

func TestRunScenarioByNameOrPath(t *testing.T) {
	t.Parallel()
	_, file := writeFill(t)
	for _, ref := range []string{"pi", "scenarios/pi.json", "pi.json"} {
		code, out, errs := runCLI(t, "run", "--fixture", file, "--scenario", ref)
		if !strings.HasPrefix(out, "scenario pi\n") {
			t.Errorf("run --scenario %s = %d, %q\n%s", ref, code, errs, out)
		}
	}
	dir := writeFixture(t, false)
	if code, out, errs := runCLI(t, "run", "--fixture", dir, "--scenario", filepath.Join(dir, "scenarios", "one.json")); code != 0 || !strings.HasPrefix(out, "scenario one\n") {
		t.Errorf("run --scenario <path into the fixture> = %d, %q\n%s", code, errs, out)
	}
	code, _, errs := runCLI(t, "run", "--fixture", file)
	if code != 2 || !strings.Contains(errs, "fixture fill has 2 scenarios (claude, pi): name one with --scenario") {
		t.Errorf("run without --scenario on two scenarios = %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "run", "--fixture", file, "--scenario", "nope")
	if code != 2 || !strings.Contains(errs, `fixture fill has no scenario "nope" (it has claude, pi)`) {
		t.Errorf("run --scenario nope = %d, %q", code, errs)
	}
}
