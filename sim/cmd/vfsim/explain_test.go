package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures/golden"
)

// layered is the catalog fixture whose platform profile is defined in
// five sources, so that every answer of explain has several layers.
var layered = filepath.Join("..", "..", "..", "fixtures", "catalog", "layered_profile_sources")

// TestExplainGolden pins explain's answers: a control the agent's block
// overrides, one environment variable set by every layer, a state path
// linked to a profile-owned source over the native one, a generated file,
// and a misspelled control.
func TestExplainGolden(t *testing.T) {
	t.Parallel()
	var got strings.Builder
	for _, subject := range []string{"model", "environment.WINNER", "args", "settings.json", "auth.json", "cache/", "outfitter/profile.json", "modle"} {
		code, out, errs := runCLI(t, "explain", "--fixture", layered, "--profile", "platform", subject)
		if code != 0 || errs != "" {
			t.Errorf("vfsim explain %s = %d, stderr %q", subject, code, errs)
		}
		got.WriteString("$ vfsim explain --fixture layered_profile_sources --profile platform " + subject + "\n" + out + "\n")
	}
	golden.Text(t, filepath.Join("testdata", "explain.txt"), got.String())
}

func TestExplainUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"explain"}, {"explain", "--fixture", layered, "a", "b"}, {"explain", "--fixture", layered, "--home", "/x", "model"}} {
		if code, _, errs := runCLI(t, args...); code != 2 || !strings.Contains(errs, "usage: vfsim explain") {
			t.Errorf("vfsim %v = %d, %q; want 2 and the synopsis", args, code, errs)
		}
	}
	code, _, errs := runCLI(t, "explain", "--fixture", layered, "--profile", "nope", "model")
	if code != 1 || !strings.Contains(errs, "Profile 'nope' was not found") {
		t.Errorf("explain of an unknown profile = %d, %q", code, errs)
	}
}

// TestRunReportTreeGolden pins the human report of vfsim run: the
// composite as a tree, each entry with its kind, link target, strategy and
// origin.
func TestRunReportTreeGolden(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "run", "--fixture", layered)
	if code != 0 || errs != "" {
		t.Fatalf("vfsim run = %d, stderr %q", code, errs)
	}
	golden.Text(t, filepath.Join("testdata", "run-tree.txt"), out)
	for _, want := range []string{
		"├── settings.json -> <project>/.outfitter/local/profiles/platform/cli_specific/pi/settings.json  [link; state symlink (set by profile platform from <project>/.outfitter/local/profiles); source: profile platform from <project>/.outfitter/local/profiles]",
		"├── auth.json -> <home>/.pi/agent/auth.json  [link; state symlink (default); source: the agent's native state]",
		"│   ├── profile.json  [file, 742 bytes; transformed from profile platform-base, profile platform]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestExplainRealMachine(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "lint", "machine")
	code, out, errs := runCLI(t, "explain", "--home", filepath.Join(dir, "home"), "--project", filepath.Join(dir, "project"), "thinking")
	for _, want := range []string{`the agent gets "high" from controls.thinking`, "profile solo: default_profile in <home>/.outfitter/settings.yml", "in <home>/.outfitter/profiles/solo/profile.yml (profile solo from <home>/.outfitter/profiles, inheritance step 1 of 1)"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("vfsim explain on a real machine = %d, %q; output lacks %q:\n%s", code, errs, want, out)
		}
	}
}

// TestExplainSaysWhatNoSettingsChose: when no settings file sets the
// default agent, explain says the agent is the default and names the key
// no file sets, next to the profile a settings file chose.
func TestExplainSaysWhatNoSettingsChose(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, false)
	code, out, errs := runCLI(t, "explain", "--fixture", dir, "model")
	if code != 0 || errs != "" {
		t.Fatalf("vfsim explain = %d, stderr %q", code, errs)
	}
	want := "how the run chose:\n" +
		"  agent pi: the default (no settings file sets default_agent)\n" +
		"  profile solo: default_profile in <home>/.outfitter/settings.yml\n"
	if !strings.Contains(out, want) {
		t.Errorf("vfsim explain output lacks\n%s\nin\n%s", want, out)
	}
}

// TestExplainNamesURISource: a definition from a synced URI source is
// named by the source's URI.
func TestExplainNamesURISource(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "explain", "--fixture", filepath.Join("testdata", "explain", "uri-source.txtar"), "model")
	if code != 0 || errs != "" {
		t.Fatalf("vfsim explain = %d, stderr %q", code, errs)
	}
	want := "(profile remote from https://example.test/x.git, inheritance step 1 of 1)"
	if !strings.Contains(out, want) {
		t.Errorf("vfsim explain output lacks %q:\n%s", want, out)
	}
}

// TestExplainAgentKeyAndSuggestion: a key that names an agent's block
// first explains the control as the agent gets it, and a misspelled key
// is matched against the controls the stack sets, not only the known ones.
func TestExplainAgentKeyAndSuggestion(t *testing.T) {
	t.Parallel()
	fixture := filepath.Join("testdata", "explain", "agent-key.txtar")
	for key, want := range map[string][]string{
		"pi.model":    {"controls.model (agent pi, profile solo)\n", "the agent gets \"pi-model\" from controls.pi.model: the agent's block wins over the generic control\n"},
		"review_dept": {"no profile definition of the stack sets controls.review_dept or controls.pi.review_dept\ndid you mean review_depth?\n"},
	} {
		code, out, errs := runCLI(t, "explain", "--fixture", fixture, key)
		if code != 0 || errs != "" {
			t.Errorf("vfsim explain %s = %d, stderr %q", key, code, errs)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("vfsim explain %s: output lacks %q:\n%s", key, w, out)
			}
		}
	}
}

// TestRunReportTreeNamesAdapterRule: a state path an adapter's rule sends
// outside the cache directory (Claude's projects/ under session_directory)
// is named by that rule, not as the cache directory.
func TestRunReportTreeNamesAdapterRule(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "run", "--fixture", filepath.Join("..", "..", "..", "fixtures", "catalog", "claude_session_directory"))
	if code != 0 || errs != "" {
		t.Fatalf("vfsim run = %d, stderr %q", code, errs)
	}
	const want = "├── projects -> <home>/journal/claude  [link; state symlink (default); source: the adapter's own rule (session_directory for Claude's projects/)]\n"
	if !strings.Contains(out, want) {
		t.Errorf("the report lacks %q:\n%s", want, out)
	}
}
