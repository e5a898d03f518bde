package launch_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// fakeAgent builds testdata/fakeagent into a temporary directory and
// returns the program's path. Without a go tool the test is skipped,
// except in CI (CI=true), where the tool must be there and its absence
// fails the test.
func fakeAgent(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake agent's signal checks need a Unix process model")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, serr := os.Stat(goTool); serr != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the go tool is required in CI to build the fake agent: %v", err)
			}
			t.Skipf("skipping: no go tool to build the fake agent (%v)", err)
		}
	}
	out := filepath.Join(t.TempDir(), "fakeagent")
	cmd := exec.Command(goTool, "build", "-o", out, "./testdata/fakeagent")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the fake agent: %v\n%s", err, msg)
	}
	return out
}
