package sim_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/sim"
)

// reportFixture's runs carry machine paths in every kind of string a
// report holds: a warning naming a profile file, the generated profile
// and the launch arguments naming a session directory (and the project
// after an escaped character of a JSON string), a durable file
// whose text names the project, and an error naming a keybindings file.
const reportFixture = `
-- README.md --
Paths in every string of the report.
-- home/.outfitter/settings.yml --
default_profile: solo
profile_sources:
  - path: ./profiles
-- home/.outfitter/profiles/solo/profile.yml --
id: solo
controls:
  session_directory: /fixture/home/sessions
  system_prompt: "Read\n/fixture/project/docs first."
  append_system_prompt: [{file: prompts/missing.md}]
-- home/.outfitter/profiles/broken/profile.yml --
id: broken
-- home/.outfitter/profiles/broken/cli_specific/pi/keybindings.json --
{
-- project/.keep --
-- scenarios/paths.json --
{"runs": [
  {"agent": "pi", "ops": [{"op": "write", "path": "settings.json", "data": "{\"root\": \"/fixture/project/app\"}\n"}],
   "expect": {"warnings": {"equals": ["pi Prompt file include 'prompts/missing.md' was not found. (<home>/.outfitter/profiles/solo/profile.yml#/controls/append_system_prompt/0)"]}}},
  {"agent": "pi", "profile": "broken",
   "expect": {"error": {"contains": "Could not parse pi keybindings file '<home>/.outfitter/profiles/broken/cli_specific/pi/keybindings.json'"}}}
]}
`

// TestReportTokenizesEveryString checks that a run report shows no
// in-memory machine path: warnings, errors, the generated profile, file
// texts at launch and in the durable difference are tokenized as the
// launch plan is (the capture contract of the oracle tokenizes every
// string), and expectations compare the tokenized warnings.
func TestReportTokenizesEveryString(t *testing.T) {
	t.Parallel()
	fx := loadFixture(t, reportFixture, "paths.txtar")
	out := runScenario(t, fx, fx.Scenarios()[0], sim.ScenarioOptions{})
	if !out.Passed() {
		t.Errorf("scenario failed:\n%s", out.Failure())
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out.Report); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for _, raw := range []string{"/fixture", "/tmp/outfitter-"} {
		if i := strings.Index(string(data), raw); i >= 0 {
			t.Errorf("the report shows %s: …%s…", raw, data[max(0, i-80):min(len(data), i+80)])
		}
	}
	for _, want := range []string{
		`"generatedProfile":{"id":"solo","controls":{"session_directory":"<home>/sessions"`,
		`"text":"{\"root\": \"<project>/app\"}\n"`,
		`"error":"Could not parse pi keybindings file '<home>/.outfitter/profiles/broken/cli_specific/pi/keybindings.json'`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the report does not hold %s", want)
		}
	}
}
