package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLintSettingsIssues: settings that break the schema are reported as
// errors, one per issue with its file and JSON pointer; the misspelled
// keys of the profiles are still reported.
func TestLintSettingsIssues(t *testing.T) {
	t.Parallel()
	wantLint(t, "settings", 1, "error: settings: <home>/.outfitter/settings.yml#/default_profile: must be string\n"+
		"error: settings: <home>/.outfitter/settings.yml#/profile_sources: must be array\n"+
		"warning: settings: <home>/.outfitter/profiles/solo/profile.yml:2: unknown key \"inherit\" at /inherit, which a run ignores (did you mean \"inherits\"?)\n")
}

// TestLintKeysInListItems: lint looks for misspelled keys inside the items
// of a list the schema describes, too.
func TestLintKeysInListItems(t *testing.T) {
	t.Parallel()
	_, out, errs := runCLI(t, "lint", filepath.Join("testdata", "lint", "items.txtar"))
	const want = "warning: items: <home>/.outfitter/settings.yml:4: unknown key \"exceptt\" at /profile_sources/0/exceptt, which a run ignores (did you mean \"except\"?)\n"
	if errs != "" || !strings.Contains(out, want) {
		t.Errorf("vfsim lint: stderr %q, output\n%s\nwant a line\n%s", errs, out, want)
	}
}

// TestLintRemoteSettingsKeys: lint looks for misspelled keys in the cached
// remote settings the resolution loaded, as in the local settings files.
func TestLintRemoteSettingsKeys(t *testing.T) {
	t.Parallel()
	wantLint(t, "remote", 0, "warning: remote: <home>/.outfitter/cache/repos/Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9leGFtcGxlL291dGZpdHRlci1jb25maWcuZ2l0I21haW4/settings.yml:1: unknown key \"defualt_agent\" at /defualt_agent, which a run ignores (did you mean \"default_agent\"?)\n")
}
