package simtest_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// suiteTest is the whole test of the separate module: the five lines the
// README shows.
const suiteTest = `package suite

import (
	"testing"

	"github.com/outfitter-go/vfsim/sim/simtest"
)

func TestFixtures(t *testing.T) {
	simtest.Run(t, "testdata")
}
`

// TestSeparateModule is the package's promise kept by another module: a
// module that requires vfsim (by a replace directive to this repository)
// and copies two catalog fixtures runs them with go test as passing
// subtests; a corrupted expected file fails with a readable difference
// naming the file; -vfsim.update repairs it; -run selects one scenario.
// It runs go offline (GOPROXY=off), from the module cache this
// repository's own build filled.
func TestSeparateModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a separate module with the go command; -short skips it")
	}
	t.Parallel()
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// The suite requires what vfsim requires, so that the copied go.sum
	// covers every module it builds.
	requires := string(goMod[strings.Index(string(goMod), "\nrequire"):])
	mod := "module example.com/suite\n\ngo 1.26.0\n\nrequire github.com/outfitter-go/vfsim v0.0.0\n" + requires +
		"\nreplace github.com/outfitter-go/vfsim => " + repo + "\n"
	write(t, filepath.Join(dir, "go.mod"), mod)
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), string(sum))
	write(t, filepath.Join(dir, "suite_test.go"), suiteTest)
	for _, fx := range []string{"explicit_repo_profile", "broken_inheritance"} {
		if err := os.CopyFS(filepath.Join(dir, "testdata", fx), os.DirFS(filepath.Join(repo, "fixtures", "catalog", fx))); err != nil {
			t.Fatal(err)
		}
	}

	out, ok := goTest(t, dir, "-v", "-run", "TestFixtures")
	if !ok {
		t.Fatalf("go test of the suite failed:\n%s", out)
	}
	for _, want := range []string{
		"--- PASS: TestFixtures/explicit_repo_profile/select-repo-profile",
		"--- PASS: TestFixtures/broken_inheritance/missing-parent",
		"--- PASS: TestFixtures/broken_inheritance/two-profile-cycle",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("go test -v lacks %q:\n%s", want, out)
		}
	}

	summary := filepath.Join(dir, "testdata", "explicit_repo_profile", "expected", "pi", "composite-profile-summary.json")
	good, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	corrupted := strings.Replace(string(good), `"audit-model"`, `"corrupted-model"`, 1)
	if corrupted == string(good) {
		t.Fatal("precondition: the summary holds audit-model")
	}
	write(t, summary, corrupted)
	out, ok = goTest(t, dir, "-run", "TestFixtures")
	if ok {
		t.Fatalf("go test passed on a corrupted expected file:\n%s", out)
	}
	for _, want := range []string{
		"--- FAIL: TestFixtures/explicit_repo_profile/select-repo-profile",
		"    expected/pi/composite-profile-summary.json:\n",
		`/summary/launchArgs/3: want "corrupted-model", got "audit-model"`,
		"go test -vfsim.update",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the failure lacks %q:\n%s", want, out)
		}
	}

	out, ok = goTest(t, dir, "-v", "-run", "TestFixtures", "-args", "-vfsim.update")
	if !ok || !strings.Contains(out, "wrote testdata/explicit_repo_profile/expected/pi/composite-profile-summary.json") {
		t.Fatalf("go test -vfsim.update did not repair the file:\n%s", out)
	}
	if out, ok = goTest(t, dir, "-run", "TestFixtures"); !ok {
		t.Fatalf("go test after -vfsim.update failed:\n%s", out)
	}

	out, ok = goTest(t, dir, "-v", "-run", "TestFixtures/broken_inheritance/missing-parent")
	if !ok || strings.Count(out, "--- PASS: TestFixtures/") != 2 || !strings.Contains(out, "--- PASS: TestFixtures/broken_inheritance/missing-parent") {
		t.Errorf("-run did not select the one scenario (want it and its fixture passing, nothing else):\n%s", out)
	}
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goTest runs go test in dir, offline, and returns its output and whether
// it passed.
func goTest(t *testing.T, dir string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"test", "-count=1"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local")
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		t.Fatalf("go test: %v", err)
	}
	return b.String(), err == nil
}

// TestReadmeShowsTheSuiteTest: the README's "use it from your own tests"
// shows the test that TestSeparateModule runs.
func TestReadmeShowsTheSuiteTest(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(suiteTest, ")\n\n") // the test function, after the imports
	if !strings.HasPrefix(body, "func TestFixtures") || !strings.Contains(string(readme), "```go\n"+body+"```") {
		t.Errorf("the README does not show the suite's test:\n%s", body)
	}
}
