package simtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// FakeAgent builds the fake agent CLI (package
// github.com/outfitter-go/vfsim/sim/simtest/fakeagent, whose doc lists
// the script it plays from FAKEAGENT_SCRIPT) into a temporary directory
// of t and returns the program's path, for tests that run a real process
// as the agent. Without a go tool the test is skipped, except in CI
// (CI=true), where its absence fails the test.
func FakeAgent(t testing.TB) string {
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
	cmd := exec.Command(goTool, "build", "-o", out, "github.com/outfitter-go/vfsim/sim/simtest/fakeagent")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the fake agent: %v\n%s", err, msg)
	}
	return out
}
