package sim_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/sim"
)

// TestScenarioPersistThroughAPlantedLink is the persist attack of the
// safety review as a scenario: with plugins/ on prompt, the agent writes
// plugins/evil and plants plugins/.evil.outfitter-persist -> ~/.bashrc
// (the fixed temporary name persist once used), and the user answers
// persist. ~/.bashrc must stay as it was.
func TestScenarioPersistThroughAPlantedLink(t *testing.T) {
	t.Parallel()
	fx := loadFixture(t, `
-- README.md --
A profile whose plugins/ directory is persisted on request.
-- home/.bashrc --
export PS1=safe
-- home/.outfitter/settings.yml --
default_profile: eng
profile_sources:
  - path: ./profiles
-- home/.outfitter/profiles/eng/profile.yml --
id: eng
state_persistence:
  plugins/: prompt
-- project/.keep --
`, "persist-link")
	sc := parseScenario(t, `{
  "name": "persist-through-a-planted-link",
  "runs": [{
    "interactive": true,
    "answers": {"plugins/": "persist"},
    "ops": [
      {"op": "write", "path": "plugins/evil", "data": "EVIL\n"},
      {"op": "symlink", "path": "plugins/.evil.outfitter-persist", "target": "<home>/.bashrc"}
    ]
  }],
  "after": [
    {"path": "<home>/.bashrc", "unchanged": true},
    {"path": "<home>/.pi/agent/plugins/evil", "equals": "EVIL\n"}
  ]
}`, "persist-link.json")
	out := runScenario(t, fx, sc, sim.ScenarioOptions{})
	if err := out.Results[0].Err; err != nil {
		t.Errorf("run error: %v", err)
	}
	if w := out.Results[0].Writes; len(w) != 1 || w[0].Path != "plugins/" {
		t.Errorf("durable writes = %+v, want the one persist of plugins/", w)
	}
	for _, m := range out.Mismatches {
		t.Error(m)
	}
}
