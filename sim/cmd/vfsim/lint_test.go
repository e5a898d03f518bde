package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/sim"
)

// TestLintFixtureGolden pins lint's findings on a fixture holding every
// mistake it looks for.
func TestLintFixtureGolden(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "lint", filepath.Join("testdata", "lint", "typo.txtar"))
	if code != 1 || errs != "" {
		t.Errorf("vfsim lint = %d, stderr %q; want 1 (errors found)", code, errs)
	}
	golden.Text(t, filepath.Join("testdata", "lint", "typo.txt"), out)
	for _, want := range []string{`"inherit" at /inherit, which a run ignores (did you mean "inherits"?)`, `"enviroment"`, `"defualt_profile"`, "lost/profile.yml: no configured profile source loads", "dangling symbolic link to ../nowhere", "expected/pi/empty.json: the expected file is empty", "expected/pi/summary.json, which is missing"} {
		if !strings.Contains(out, want) {
			t.Errorf("lint output lacks %q", want)
		}
	}
}

// TestLintMachineGolden lints a real home and project, read in place.
func TestLintMachineGolden(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "lint", "machine")
	code, out, errs := runCLI(t, "lint", "--home", filepath.Join(dir, "home"), "--project", filepath.Join(dir, "project"))
	if code != 0 || errs != "" {
		t.Errorf("vfsim lint --home --project = %d, stderr %q; want 0 (warnings only)", code, errs)
	}
	golden.Text(t, filepath.Join("testdata", "lint", "machine.txt"), out)
	if code, _, _ := runCLI(t, "lint", "--strict", "--home", filepath.Join(dir, "home"), "--project", filepath.Join(dir, "project")); code != 1 {
		t.Errorf("vfsim lint --strict with warnings = %d, want 1", code)
	}
	code, out, _ = runCLI(t, "lint", "--json", "--home", filepath.Join(dir, "home"), "--project", filepath.Join(dir, "project"))
	if code != 0 || !strings.HasPrefix(out, "[\n  {\n    \"severity\": \"warning\",") {
		t.Errorf("vfsim lint --json = %d:\n%s", code, out)
	}
}

func TestLintCatalogHasNoUnknownKeys(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, "lint", filepath.Join("..", "..", "..", "fixtures", "catalog"))
	for _, bad := range []string{"unknown key", "dangling", "expected file"} {
		if strings.Contains(out, bad) {
			t.Errorf("the catalog has a finding about %q (exit %d):\n%s", bad, code, out)
		}
	}
}

// TestLintStaysOutOfRuns: a run of the fixture with misspelled keys warns
// exactly as upstream does; lint's findings are not the run's warnings.
func TestLintStaysOutOfRuns(t *testing.T) {
	t.Parallel()
	fx, err := fixtures.Load(filepath.Join("testdata", "lint", "typo.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := sim.RunScenario(context.Background(), fx, fx.Scenarios()[0], sim.ScenarioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// In the order the profile writes them (agents/pi/PiAdapter.ts:555).
	want := []string{"pi adapter cannot translate requested control 'modle'.", "pi adapter cannot translate requested control 'enviroment'.", "pi adapter cannot translate requested control 'pi.argz'."}
	if got := out.Results[0].Warnings; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("run warnings %q, want upstream's %q", got, want)
	}
}

// TestLintPromptIncludesOfTheDefaultAgent: lint checks the prompt includes
// of the agent a run without --agent uses; those of another agent's block
// show only among the warnings of that agent's run.
func TestLintPromptIncludesOfTheDefaultAgent(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "lint", filepath.Join("testdata", "lint", "agent_prompts.txtar"))
	if code != 0 || errs != "" {
		t.Fatalf("vfsim lint = %d, stderr %q; want 0 (warnings only)", code, errs)
	}
	const checked = "warning: agent_prompts: <home>/.outfitter/profiles/solo/profile.yml#/controls/append_system_prompt/0: Prompt file include '%s' was not found.\n"
	if want := fmt.Sprintf(checked, "missing-for-pi.md"); !strings.Contains(out, want) {
		t.Errorf("lint output lacks the default agent's include check %q:\n%s", want, out)
	}
	if unwanted := fmt.Sprintf(checked, "missing-for-claude.md"); strings.Contains(out, unwanted) {
		t.Errorf("lint checked another agent's include as the default agent's: %q:\n%s", unwanted, out)
	}
	if want := "/profiles/solo (claude): claude Prompt file include 'missing-for-claude.md' was not found."; !strings.Contains(out, want) {
		t.Errorf("lint output lacks the claude run's warning %q:\n%s", want, out)
	}
}

// TestLintFixtureDanglingLinkAnywhere: in a fixture, lint looks for
// dangling links in the whole tree, not only in the Outfitter and agent
// folders it walks on a real machine.
func TestLintFixtureDanglingLinkAnywhere(t *testing.T) {
	t.Parallel()
	wantLint(t, "dangling", 0, "warning: dangling: <project>/docs/guide.md: dangling symbolic link to ../missing.md\n")
}

// TestLintRunFailingBeforeLaunch: a profile whose run fails before the
// launch is an error when the agent is the one a run without --agent uses
// (the default, or the settings' default_agent), a warning otherwise.
func TestLintRunFailingBeforeLaunch(t *testing.T) {
	t.Parallel()
	const finding = "%s: %s: /profiles/solo (pi): Pi MCP config '<home>/.outfitter/profiles/solo/cli_specific/pi/.mcp.json' must contain valid JSON.\n"
	wantLint(t, "broken_run", 1, fmt.Sprintf(finding, "error", "broken_run"))
	wantLint(t, "broken_run_claude", 0, fmt.Sprintf(finding, "warning", "broken_run_claude"))
}

// wantLint runs vfsim lint on the archive testdata/lint/NAME.txtar and
// wants the exit code and the whole output, with nothing on stderr.
func wantLint(t *testing.T, name string, code int, want string) {
	t.Helper()
	got, out, errs := runCLI(t, "lint", filepath.Join("testdata", "lint", name+".txtar"))
	if got != code || errs != "" || out != want {
		t.Errorf("vfsim lint %s = %d, stderr %q, output\n%s\nwant %d, no stderr, output\n%s", name, got, errs, out, code, want)
	}
}
