package sim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func TestListProfiles(t *testing.T) {
	t.Parallel()
	settings := "profile_sources:\n  - path: ./profiles\n  - path: /p/.outfitter/profiles\n"
	m := newMachine(t, map[string]string{
		"/h/.outfitter/settings.yml":               settings,
		"/h/.outfitter/profiles/eng/profile.yml":   "id: eng\nlabel: Home eng\n",
		"/h/.outfitter/profiles/zed/profile.yml":   "id: zed\n",
		"/h/.outfitter/profiles/base.yml":          "id: base\ntemplate: true\n",
		"/p/.outfitter/profiles/eng/profile.yml":   "id: eng\nlabel: Project eng\n",
		"/p/.outfitter/profiles/alpha/profile.yml": "id: alpha\n",
	})
	got, err := sim.ListProfiles(m, sim.ProfilesOptions{Home: "/h", Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"alpha", "eng", "zed"}, got.Messages); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if eng := got.Profiles[1]; eng.ProfilePath != "/p/.outfitter/profiles/eng/profile.yml" || *eng.Label != "Project eng" {
		t.Errorf("eng listed from %s, want the highest-precedence definition", eng.ProfilePath)
	}
	all, err := sim.ListProfiles(m, sim.ProfilesOptions{Home: "/h", Project: "/p", All: true})
	if err != nil || !slicesHas(all.Messages, "base (template)") {
		t.Errorf("with All: %v, %v", all, err)
	}

	empty := newMachine(t, map[string]string{"/h/.outfitter/settings.yml": "profile_sources: []\n"})
	if got, err := sim.ListProfiles(empty, sim.ProfilesOptions{Home: "/h", Project: "/p"}); err != nil || !cmp.Equal(got.Messages, []string{"No profiles found."}) {
		t.Errorf("no profiles: %v, %v", got, err)
	}
	unsynced := newMachine(t, map[string]string{"/h/.outfitter/settings.yml": "profile_sources:\n  - github: acme/x\n"})
	_, err = sim.ListProfiles(unsynced, sim.ProfilesOptions{Home: "/h", Project: "/p"})
	if le, ok := errors.AsType[*sim.ListError](err); !ok || le.Settings || !strings.HasPrefix(err.Error(), "Cannot list profiles with invalid profiles: ") || !strings.HasSuffix(err.Error(), "Profile source must be an existing directory.") {
		t.Errorf("unsynced remote source: %v", err)
	}
	bad := newMachine(t, map[string]string{"/h/.outfitter/settings.yml": "default_profile: [x]\n"})
	_, err = sim.ListProfiles(bad, sim.ProfilesOptions{Home: "/h", Project: "/p"})
	if le, ok := errors.AsType[*sim.ListError](err); !ok || !le.Settings || !strings.HasPrefix(err.Error(), "Cannot list profiles with invalid settings: /h/.outfitter/settings.yml#") {
		t.Errorf("invalid settings: %v", err)
	}
}

func TestLintProfiles(t *testing.T) {
	t.Parallel()
	m := newMachine(t, map[string]string{
		"/h/.outfitter/settings.yml":              "profile_sources:\n  - path: ./profiles\n",
		"/h/.outfitter/profiles/eng/profile.yml":  "id: eng\ncontrols:\n  temperature: 1\n  pi:\n    append_system_prompt: [\"./missing.md\"]\n",
		"/h/.outfitter/profiles/ops/profile.yml":  "id: ops\ninherits: [nowhere]\n",
		"/h/.outfitter/profiles/fine/profile.yml": "id: fine\ncontrols:\n  model: m\n",
		// Lint plans a folder profile with its folder: a broken file
		// there is reported before a run trips on it.
		"/h/.outfitter/profiles/mcp/profile.yml":               "id: mcp\n",
		"/h/.outfitter/profiles/mcp/cli_specific/pi/.mcp.json": "{not json",
	})
	before := vfstest.Snapshot(t, m, "/")
	got, err := sim.LintProfiles(m, sim.ProfilesOptions{Home: "/h", Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range got {
		lines = append(lines, d.String())
	}
	want := []string{
		"error: /profiles/nowhere Profile 'nowhere' was not found.",
		"warning: /h/.outfitter/profiles/eng/profile.yml#/controls/append_system_prompt/0 ",
		"warning: /profiles/eng pi adapter cannot translate requested control 'temperature'.",
		"error: /profiles/mcp Pi MCP config '/h/.outfitter/profiles/mcp/cli_specific/pi/.mcp.json' must contain valid JSON.",
	}
	if len(lines) != len(want) {
		t.Fatalf("diagnostics:\n%s\nwant %d", strings.Join(lines, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("diagnostic %d = %q, want %q…", i, lines[i], want[i])
		}
	}
	if sim.LintExitCode(got, false) != 1 || sim.LintExitCode(got[1:3], false) != 0 || sim.LintExitCode(got[1:3], true) != 1 {
		t.Errorf("exit codes wrong")
	}
	vfstest.WantUnchanged(t, m, "/", before, "lint wrote")

	bad := newMachine(t, map[string]string{"/h/.outfitter/settings.yml": "default_profile: [x]\n", "/h/.outfitter/profiles/ops/profile.yml": "id: ops\ninherits: [nowhere]\n"})
	got, err = sim.LintProfiles(bad, sim.ProfilesOptions{Home: "/h", Project: "/p"})
	if err != nil || len(got) != 1 || got[0].Severity != "error" || !strings.HasPrefix(got[0].Path, "/h/.outfitter/settings.yml#") {
		t.Errorf("invalid settings: %v, %v; want the settings error alone", got, err)
	}
}
