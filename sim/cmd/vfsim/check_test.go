package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/fixtures"
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

// TestCheckLoadErrorOrder: check loads fixtures while it runs scenarios, but
// a fixture that does not load still ends it before any line is printed,
// with the error of the first fixture or path, in the order given, that
// fails, as when every fixture was loaded before the first run.
func TestCheckLoadErrorOrder(t *testing.T) {
	t.Parallel()
	good := writeFixture(t, false)
	bad := writeFixture(t, false)
	if err := os.WriteFile(filepath.Join(bad, "scenarios", "broken.json"), []byte(`{"runs": [{}], "runs": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, loadErr := fixtures.Load(bad)
	if loadErr == nil {
		t.Fatal("the broken fixture loads: the test would check nothing")
	}
	missing := filepath.Join(t.TempDir(), "nope")
	_, findErr := fixtures.Find(missing)
	if findErr == nil {
		t.Fatal("the missing path names fixtures")
	}
	tests := []struct {
		name string
		args []string
		want error
	}{
		{"a broken fixture after a good one", []string{good, good, bad}, loadErr},
		{"a broken fixture before a missing path", []string{good, bad, missing}, loadErr},
		{"a missing path before a broken fixture", []string{good, missing, bad}, findErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runCLI(t, append([]string{"check"}, tt.args...)...)
			if want := "vfsim check: " + tt.want.Error() + "\n"; code != 1 || out != "" || errs != want {
				t.Errorf("vfsim check = %d, output %q, stderr %q; want 1, no output, stderr %q", code, out, errs, want)
			}
		})
	}
}

// TestCheckLeavesNoWorker: once check has printed its summary, the
// goroutines that loaded its fixtures and ran their scenarios have ended,
// whether every fixture loaded, one failed to, or the scenarios were named
// by --scenarios. Not parallel: it looks at every goroutine of the test
// binary, and the package's parallel tests wait while it runs.
func TestCheckLeavesNoWorker(t *testing.T) {
	good := writeFixture(t, false)
	bad := writeFixture(t, false)
	if err := os.WriteFile(filepath.Join(bad, "scenarios", "broken.json"), []byte(`{"runs": [{}], "runs": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// Scenarios named by --scenarios, the job list runJobs runs.
	named := t.TempDir()
	one, err := os.ReadFile(filepath.Join(good, "scenarios", "one.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		sc := append([]byte(`{"fixture": "tiny", `), one[1:]...)
		if err := os.WriteFile(filepath.Join(named, name+".json"), sc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Another test's check may still be ending its workers.
	waitNoWorkers(t, "before the test, so it could not tell its own from them")
	for _, args := range [][]string{
		{good, good, good},
		{good, bad, good, good},
		{"--scenarios", named, good},
	} {
		code, _, errs := runCLI(t, append([]string{"check"}, args...)...)
		if (code != 0) != (args[1] == bad) {
			t.Fatalf("vfsim check %q = %d, %s", args, code, errs)
		}
		waitNoWorkers(t, fmt.Sprintf("after vfsim check %q", args))
	}
}

// waitNoWorkers waits until no check worker runs, failing the test when
// some still do after far longer than a worker takes to end after its
// last job.
func waitNoWorkers(t *testing.T, when string) {
	t.Helper()
	for i := 0; checkWorkers() > 0; i++ {
		if i == 10000 {
			t.Fatalf("%d check workers still running %s", checkWorkers(), when)
		}
		time.Sleep(time.Millisecond)
	}
}

// checkWorkers counts the goroutines running check's loaders and jobs.
func checkWorkers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return len(workerFrame.FindAll(buf[:n], -1))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// workerFrame matches the frame of a loader or job goroutine in a stack
// trace, whose functions are named by the package's import path.
var workerFrame = regexp.MustCompile(`(?m)^\S*/sim/cmd/vfsim\.(streamJobs|runJobs)\.func[0-9.]*\(`)

// TestRound: check shows its elapsed time to the millisecond past a
// second, to the microsecond past a millisecond, and as it is below.
func TestRound(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]time.Duration{
		1500*time.Millisecond + 600*time.Microsecond: 1501 * time.Millisecond,
		2*time.Millisecond + 1700*time.Nanosecond:    2002 * time.Microsecond,
		500*time.Microsecond + 300*time.Nanosecond:   500*time.Microsecond + 300*time.Nanosecond,
	} {
		if got := round(d); got != want {
			t.Errorf("round(%v) = %v, want %v", d, got, want)
		}
	}
}
