package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckEmbeddedCatalog(t *testing.T) {
	t.Parallel()
	fxs, err := fixtures.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	scenarios := 0
	for _, fx := range fxs {
		scenarios += len(fx.Scenarios())
	}
	if scenarios == 0 {
		t.Fatal("the embedded catalog has no scenario: the check would test nothing")
	}
	code, out, errs := runCLI(t, "check")
	if code != 0 {
		t.Fatalf("vfsim check = %d\n%s%s", code, out, errs)
	}
	if got := strings.Count(out, "PASS "); got != scenarios {
		t.Errorf("vfsim check printed %d PASS lines, want %d:\n%s", got, scenarios, out)
	}
	if !strings.Contains(out, " passed, 0 failed") {
		t.Errorf("no closing count line:\n%s", out)
	}
}

func TestCheckUpstream(t *testing.T) {
	t.Parallel()
	dir := golden.Upstream(t, golden.UpstreamFixtures)
	if dir == "" {
		t.Skip(golden.UpstreamSkipReason(golden.UpstreamFixtures))
	}
	// The upstream scenarios reproduce a run from another working
	// directory; check runs them with the engine's defaults, where a
	// relative claude session directory lands in the project: the expected
	// files do not see the difference.
	code, out, errs := runCLI(t, "check", "--scenarios", filepath.Join("..", "..", "..", "fixtures", "upstream"), dir)
	if code != 0 {
		t.Fatalf("vfsim check --scenarios = %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "10 passed, 0 failed") {
		t.Errorf("want 10 upstream scenarios passing:\n%s", out)
	}
}

// writeFixture writes a small fixture directory whose scenario fails on
// purpose when bad is set.
func writeFixture(t *testing.T, bad bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tiny")
	want := "solo-model"
	if bad {
		want = "another-model"
	}
	files := map[string]string{
		"README.md":                                 "A tiny fixture for the command's tests.\n",
		"home/.outfitter/settings.yml":              "default_profile: solo\nprofile_sources:\n  - path: ./profiles\n",
		"home/.outfitter/profiles/solo/profile.yml": "id: solo\ncontrols:\n  model: solo-model\n",
		"project/.keep":                             "",
		"scenarios/one.json":                        `{"name": "one", "why": "a run writes through a link", "runs": [{"ops": [{"op": "write", "path": "auth.json", "data": "{}\n"}], "expect": {"summary": {"file": "expected/pi/summary.json", "env": [], "stateTargets": ["auth.json"]}, "warnings": {"file": "expected/pi/warnings.json"}}}], "after": [{"path": "<home>/.pi/agent/auth.json", "equals": "{}\n"}]}`,
		"expected/pi/warnings.json":                 "[]\n",
		"expected/pi/summary.json":                  `{"profileId": "solo", "agentId": "pi", "generatedProfile": {"id": "solo", "controls": {"model": "` + want + `"}}, "stateTargets": {"auth.json": "<home>/.pi/agent/auth.json"}}` + "\n",
	}
	vfstest.WriteFiles(t, osfs.New(), dir, files)
	return dir
}

// TestCheckReportsFailures checks what check prints for a failed
// scenario: the parts that matter, and the whole output against a golden
// file.
func TestCheckReportsFailures(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, true)
	code, out, _ := runCLI(t, "check", dir)
	if code != 1 {
		t.Fatalf("vfsim check on a failing fixture = %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"FAIL tiny/one", "/summary/generatedProfile/controls/model", "another-model", "0 passed, 1 failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	golden.Text(t, filepath.Join("testdata", "check-failure.txt"), scrub(out, filepath.Dir(dir)))
}

func TestRunPrintsReport(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, false)
	code, out, errs := runCLI(t, "run", "--fixture", dir)
	if code != 0 {
		t.Fatalf("vfsim run = %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"launch: pi ", "auth.json -> <home>/.pi/agent/auth.json", "+ home/.pi/agent/auth.json \"{}\\n\""} {
		if !strings.Contains(out, want) {
			t.Errorf("human report lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = runCLI(t, "run", "--fixture", dir, "--json")
	if code != 0 {
		t.Fatalf("vfsim run --json = %d\n%s%s", code, out, errs)
	}
	var rep struct {
		Scenario string `json:"scenario"`
		Runs     []struct {
			Launch struct {
				Env map[string]string `json:"env"`
			} `json:"launch"`
		} `json:"runs"`
		Durable report.Delta `json:"durable"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out)
	}
	if rep.Scenario != "one" || len(rep.Runs) != 1 || rep.Runs[0].Launch.Env["PI_CODING_AGENT_DIR"] != "<composite-profile>" {
		t.Errorf("unexpected report: %+v", rep)
	}
	if _, ok := rep.Durable.Added["home/.pi/agent/auth.json"]; !ok {
		t.Errorf("durable diff lacks the write through the link: %+v", rep.Durable)
	}
}

func TestUpdateRewritesExpectedFiles(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, true)
	if code, out, errs := runCLI(t, "update", dir); code != 0 {
		t.Fatalf("vfsim update = %d\n%s%s", code, out, errs)
	}
	code, out, _ := runCLI(t, "check", dir)
	if code != 0 {
		t.Fatalf("check after update = %d\n%s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{name: "no command", args: nil, code: 2, want: "usage:"},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, want: `unknown command "frobnicate"`},
		{name: "run without fixture", args: []string{"run"}, code: 2, want: "want --fixture"},
		{name: "missing fixture dir", args: []string{"check", filepath.Join(t.TempDir(), "nope")}, code: 1, want: "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("vfsim %v = %d, stderr %q; want %d and %q", tt.args, code, errs, tt.code, tt.want)
			}
		})
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "list")
	if code != 0 || !strings.Contains(out, "explicit_repo_profile") {
		t.Fatalf("vfsim list = %d\n%s%s", code, out, errs)
	}
}

// TestRunJSONFailing: run --json of a scenario that fails its expectations
// prints the report on stdout, the failure on stderr, and exits 1.
func TestRunJSONFailing(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, true)
	code, out, errs := runCLI(t, "run", "--fixture", dir, "--json")
	if code != 1 || errs == "" || !json.Valid([]byte(out)) {
		t.Errorf("vfsim run --json of a failing scenario = %d, stderr %q, stdout valid JSON %v; want 1, the failure, a JSON report", code, errs, json.Valid([]byte(out)))
	}
}

// TestWrap: help text breaks at spaces into lines of at most the width,
// a line exactly as wide included.
func TestWrap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text  string
		width int
		want  string
	}{
		{"aa bb cc", 7, "  aa bb\n  cc\n"},
		{"aa bb cc", 6, "  aa\n  bb\n  cc\n"},
		{"aaaaaaaaa b", 5, "  aaaaaaaaa\n  b\n"},
		{"", 10, "  \n"},
	}
	for _, tt := range tests {
		if got := wrap(tt.text, "  ", tt.width); got != tt.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.text, tt.width, got, tt.want)
		}
	}
}
