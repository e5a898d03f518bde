package resolve_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// acmeAgents knows pi and a made-up agent whose block takes a flavor.
func acmeAgents(t *testing.T) *resolve.Agents {
	t.Helper()
	a, err := resolve.NewAgents(resolve.Agent{ID: "pi"}, resolve.Agent{ID: "acme", Block: `{"properties": {"flavor": {"type": "string"}}}`})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestNewAgentsRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, why string
		agents    []resolve.Agent
		want      string
	}{
		{name: "empty id", agents: []resolve.Agent{{ID: ""}}, want: `agent id "": not a filesystem-safe id`},
		{name: "upper case", why: "ids name folders and roots like profile ids", agents: []resolve.Agent{{ID: "Pi"}}, want: `agent id "Pi": not a filesystem-safe id`},
		{name: "twice", agents: []resolve.Agent{{ID: "pi"}, {ID: "pi"}}, want: `agent id "pi": given twice`},
		{name: "a generic control", why: "controls.model cannot be a block", agents: []resolve.Agent{{ID: "model"}}, want: `agent id "model": names a generic control`},
		{name: "deepwork", agents: []resolve.Agent{{ID: "deepwork"}}, want: `agent id "deepwork": names a generic control`},
		{name: "block not JSON", agents: []resolve.Agent{{ID: "a", Block: `{`}}, want: `agent "a": block schema:`},
		{name: "block not an object", agents: []resolve.Agent{{ID: "a", Block: `[]`}}, want: `agent "a": block schema:`},
		{name: "block with its own $ref", why: "the block is the common controls' $ref", agents: []resolve.Agent{{ID: "a", Block: `{"$ref": "#/$defs/strings"}`}}, want: `agent "a": block schema: has a $ref of its own`},
		{name: "block referring to a missing definition", agents: []resolve.Agent{{ID: "a", Block: `{"properties": {"x": {"$ref": "#/$defs/nothing"}}}`}}, want: "profile schema:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := resolve.NewAgents(tc.agents...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("NewAgents = %v, %v; want an error with %q", a, err, tc.want)
			}
		})
	}
}

func TestAgentsOrder(t *testing.T) {
	t.Parallel()
	a := acmeAgents(t)
	if diff := cmp.Diff([]string{"pi", "acme"}, a.IDs()); diff != "" {
		t.Errorf("IDs (-want +got):\n%s", diff)
	}
	if a.Default() != "pi" || !a.Has("acme") || a.Has("claude") {
		t.Errorf("Default %q, Has(acme) %v, Has(claude) %v; want pi, true, false", a.Default(), a.Has("acme"), a.Has("claude"))
	}
	a.IDs()[0] = "changed"
	if a.Default() != "pi" {
		t.Errorf("IDs shares the set's slice")
	}
	var none *resolve.Agents
	if none.IDs() != nil || none.Default() != "" || none.Has("pi") {
		t.Errorf("the nil set knows %v", none.IDs())
	}
}

// TestAgentBlocksFollowTheAgents parses one document for two sets: a key
// of controls is an agent block only for a set that knows the agent.
func TestAgentBlocksFollowTheAgents(t *testing.T) {
	t.Parallel()
	doc := "controls:\n  model: m\n  acme: {model: a, system_prompt: s, flavor: sweet}\n  pi: {model: p}\n"
	known, issue := resolve.ParseProfile([]byte(doc), "x", "/x.yml", acmeAgents(t))
	if issue != nil {
		t.Fatalf("ParseProfile: %v", issue)
	}
	want := []resolve.AgentControls{
		{Agent: "pi", Controls: resolve.Controls{Model: ptr("p")}},
		{Agent: "acme", Controls: resolve.Controls{Model: ptr("a"), SystemPrompt: ptr("s")}},
	}
	if diff := cmp.Diff(want, known.Controls.Agents, cmpopts.IgnoreFields(resolve.Controls{}, "Object")); diff != "" {
		t.Errorf("agent blocks (-want +got):\n%s", diff)
	}
	if got, want := string(resolve.Stringify(known.Controls.Object, "")), `{"model":"m","acme":{"model":"a","system_prompt":"s","flavor":"sweet","systemPrompt":"s"},"pi":{"model":"p"}}`; got != want {
		t.Errorf("controls %s, want %s (the block gets its twins)", got, want)
	}

	unknown, issue := resolve.ParseProfile([]byte(doc), "x", "/x.yml", agents())
	if issue != nil {
		t.Fatalf("ParseProfile: %v", issue)
	}
	if unknown.Controls.Agent("acme") != nil || unknown.Controls.Agent("pi") == nil || len(unknown.Controls.Agents) != 1 {
		t.Errorf("agent blocks %v, want pi's only", unknown.Controls.Agents)
	}
	if got, want := string(resolve.Stringify(unknown.Controls.Object, "")), `{"model":"m","acme":{"model":"a","system_prompt":"s","flavor":"sweet"},"pi":{"model":"p"}}`; got != want {
		t.Errorf("controls %s, want %s (an ordinary control, kept as written)", got, want)
	}
}

func TestAgentBlockSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, pointer, message string
	}{
		{"the agent's own key", "controls: {acme: {flavor: 1}}\n", "/controls/acme/flavor", "must be string"},
		{"a common control", "controls: {acme: {args: x}}\n", "/controls/acme/args", "must be array"},
		{"not a mapping", "controls: {acme: [x]}\n", "/controls/acme", "must be object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, issue := resolve.ParseProfile([]byte(tc.doc), "x", "/x.yml", acmeAgents(t))
			if issue == nil || issue.Pointer != tc.pointer || issue.Message != tc.message {
				t.Fatalf("issue %v, want %s %s", issue, tc.pointer, tc.message)
			}
			if _, issue := resolve.ParseProfile([]byte(tc.doc), "x", "/x.yml", agents()); issue != nil {
				t.Errorf("without the agent: %v, want no issue (any value of an unknown control passes)", issue)
			}
		})
	}
}

func TestDefaultAgentFollowsTheAgents(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{userSettings: file("default_agent: acme\n")})
	got, err := resolve.LoadSettings(fsys, home, project, acmeAgents(t))
	if err != nil || len(got.Issues) > 0 || got.Settings.DefaultAgent != "acme" {
		t.Fatalf("LoadSettings = %+v, %v; want default_agent acme", got, err)
	}
	for name, set := range map[string]*resolve.Agents{"pi and claude": agents(), "no agents": nil} {
		got, err := resolve.LoadSettings(fsys, home, project, set)
		if err != nil || len(got.Issues) != 1 || got.Issues[0].Error() != userSettingsA+"#/default_agent must be equal to one of the allowed values" {
			t.Errorf("%s: LoadSettings = %v, %v; want the enum issue", name, got.Issues, err)
		}
	}
}

func TestLoadSelectsAmongTheAgents(t *testing.T) {
	t.Parallel()
	tree := vfstest.Tree{userSettings: file("default_profile: a\nprofile_sources: [{path: ./profiles}]\n"), "home/.outfitter/profiles/a.yml": file("{}\n")}
	tests := []struct {
		name, agent string
		agents      *resolve.Agents
		want        string // the agent, or the error
	}{
		{name: "the first is the default", agents: acmeAgents(t), want: "pi"},
		{name: "explicit", agent: "acme", agents: acmeAgents(t), want: "acme"},
		{name: "unknown to the set", agent: "claude", agents: acmeAgents(t), want: "Unknown agent 'claude'. Expected one of: pi, acme."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := resolve.Load(memTree(t, tree), resolve.Options{Home: home, Project: project, AgentID: tc.agent, Agents: tc.agents})
			if err != nil {
				if _, ok := errors.AsType[*resolve.AgentError](err); !ok || err.Error() != tc.want {
					t.Fatalf("Load: %v, want %s", err, tc.want)
				}
				return
			}
			if res.AgentID != tc.want {
				t.Errorf("AgentID %q, want %q", res.AgentID, tc.want)
			}
		})
	}
}

// TestAgentBlocksMergeLikeControls checks that a known agent's block
// merges with the rules of the generic controls (args prepended), while
// an unknown key's lists are replaced, as upstream merges both.
func TestAgentBlocksMergeLikeControls(t *testing.T) {
	t.Parallel()
	tree := vfstest.Tree{
		userSettings:                         file("default_profile: child\nprofile_sources: [{path: ./profiles}]\n"),
		"home/.outfitter/profiles/base.yml":  file("controls: {acme: {args: [--base]}}\n"),
		"home/.outfitter/profiles/child.yml": file("inherits: [base]\ncontrols: {acme: {args: [--child]}}\n"),
	}
	for _, tc := range []struct {
		name   string
		agents *resolve.Agents
		want   []string
	}{
		{"known", acmeAgents(t), []string{"--child", "--base"}},
		{"unknown", agents(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := resolve.Load(memTree(t, tree), resolve.Options{Home: home, Project: project, Agents: tc.agents})
			if err != nil {
				t.Fatal(err)
			}
			acme, _ := res.Profile.Controls.Object.Get("acme")
			args, _ := acme.(*resolve.Object).Get("args")
			if tc.want == nil {
				if got := string(resolve.Stringify(args, "")); got != `["--child"]` {
					t.Errorf("args %s, want the higher list only", got)
				}
				return
			}
			if diff := cmp.Diff(tc.want, res.Profile.Controls.Agent("acme").Args); diff != "" {
				t.Errorf("acme args (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAgentsSchemas(t *testing.T) {
	t.Parallel()
	a, err := resolve.NewAgents(resolve.Agent{ID: "pi"}, resolve.Agent{ID: "third", Block: `{"properties": {"flavour": {"type": "string"}}}`})
	if err != nil {
		t.Fatal(err)
	}
	settings, profile := a.Schemas()
	var s, p map[string]any
	if err := json.Unmarshal(settings, &s); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(profile, &p); err != nil {
		t.Fatal(err)
	}
	enum := s["properties"].(map[string]any)["default_agent"].(map[string]any)["enum"]
	if diff := cmp.Diff([]any{"pi", "third"}, enum); diff != "" {
		t.Errorf("default_agent enum (-want +got):\n%s", diff)
	}
	block := p["properties"].(map[string]any)["controls"].(map[string]any)["properties"].(map[string]any)["third"].(map[string]any)
	if _, ok := block["properties"].(map[string]any)["flavour"]; !ok || block["$ref"] != "#/$defs/agentControls" {
		t.Errorf("the third agent's block: %v", block)
	}
}
