package resolve_test

import (
	"pgregory.net/rapid"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/resolve"
)

func TestValidID(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{
		"engineering": true, "engineering.default": true, "a": true, "a-b_c.d": true, "0": true,
		"Engineering Default": false, "": false, "-a": false, "a-": false, ".hidden": false, "a/b": false, "Foo": false,
	} {
		if got := resolve.ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestParseProfileIssues(t *testing.T) {
	t.Parallel()
	const f = "/src/p/profile.yml"
	tests := []struct {
		name        string
		why         string
		doc         string
		wantPointer string
		wantMessage string // exact unless wantContains
		contains    bool
	}{
		{name: "broken YAML", doc: "id: [oops\n", wantPointer: "/profile.yml", wantMessage: "YAMLParseError: ", contains: true},
		{name: "tab indentation", doc: "controls:\n\tmodel: x\n", wantPointer: "/profile.yml", wantMessage: "YAMLParseError: ", contains: true},
		{name: "a list document", doc: "- a\n- b\n", wantPointer: "/", wantMessage: "Profile document must be a mapping."},
		{name: "an empty document", doc: "", wantPointer: "/", wantMessage: "Profile document must be a mapping."},
		{name: "a bad id", doc: "id: Engineering Default\n", wantPointer: "/id", wantMessage: "must match pattern", contains: true},
		{name: "template yes is a string", doc: "template: yes\n", wantPointer: "/template", wantMessage: "must be boolean"},
		{name: "inherits must be a list", doc: "inherits: base\n", wantPointer: "/inherits", wantMessage: "must be array"},
		{name: "inherits items are ids", doc: "inherits: [Base]\n", wantPointer: "/inherits/0", wantMessage: "must match pattern", contains: true},
		{name: "environment values are strings", doc: "controls:\n  environment:\n    COUNT: 1\n", wantPointer: "/controls/environment/COUNT", wantMessage: "must be string"},
		{name: "text prompt objects are rejected", doc: "controls:\n  append_system_prompt:\n    - text: hello\n", wantPointer: "/controls/append_system_prompt", wantMessage: "must be string", contains: true},
		{name: "deepwork job names", doc: "controls:\n  deepwork:\n    jobs: [Bad Job]\n", wantPointer: "/controls/deepwork/jobs/0", wantMessage: `must match pattern "^[a-z][a-z0-9_]*$"`},
		{name: "state persistence strategies", doc: "state_persistence:\n  settings.json: keep\n", wantPointer: "/state_persistence/settings.json", wantMessage: "must be equal to one of the allowed values"},
		{name: "first problem only, in document order", why: "upstream stops at the first error", doc: "label: 5\ncontrols:\n  model: 6\n", wantPointer: "/label", wantMessage: "must be string"},
		{name: "skill objects allow no extra keys", doc: "controls:\n  skills:\n    - {id: x, extra: 1}\n", wantPointer: "/controls/skills/0", wantMessage: "must be string"},
		{name: "pi allow_external_deepwork_jobs is boolean", doc: "controls:\n  pi:\n    allow_external_deepwork_jobs: sure\n", wantPointer: "/controls/pi/allow_external_deepwork_jobs", wantMessage: "must be boolean"},
		{name: "duplicate keys", doc: "id: a\nid: b\n", wantPointer: "/profile.yml", wantMessage: "Map keys must be unique", contains: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, issue := resolve.ParseProfile([]byte(tc.doc), "p", f, agents())
			if issue == nil {
				t.Fatalf("ParseProfile: got profile %+v, want an issue", p)
			}
			if p != nil {
				t.Errorf("ParseProfile returned both a profile and an issue")
			}
			if issue.File != f || issue.Pointer != tc.wantPointer {
				t.Errorf("issue at %q, want %q", issue.Path(), f+"#"+tc.wantPointer)
			}
			if tc.contains && !strings.Contains(issue.Message, tc.wantMessage) || !tc.contains && issue.Message != tc.wantMessage {
				t.Errorf("message %q, want %q (contains=%v)", issue.Message, tc.wantMessage, tc.contains)
			}
		})
	}
}

func TestParseProfileIssuePath(t *testing.T) {
	t.Parallel()
	_, issue := resolve.ParseProfile([]byte("controls: {environment: {COUNT: 1}}\n"), "x", "/s/x/profile.yml", agents())
	if issue == nil {
		t.Fatal("want an issue")
	}
	if got, want := issue.Error(), "/s/x/profile.yml#/controls/environment/COUNT must be string"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestParseProfile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		why  string
		doc  string
		want *resolve.Profile
		// wantControls is the JSON of the internal controls mapping.
		wantControls string
	}{
		{
			name:         "defaults: slug id, empty inherits and controls",
			doc:          "label: Plain\n",
			want:         &resolve.Profile{ID: "slug", Label: ptr("Plain"), Inherits: []string{}},
			wantControls: `{}`,
		},
		{
			name:         "a non-string id is replaced by the slug",
			why:          "upstream quirk, reproduced",
			doc:          "id: 5\n",
			want:         &resolve.Profile{ID: "slug", Inherits: []string{}},
			wantControls: `{}`,
		},
		{
			name: "scalars, flags and state persistence",
			doc:  "id: engineering.default\ndescription: D\ntemplate: false\nprofile_export: false\ninherits: [a, b]\nstate_persistence: {settings.json: symlink, unknown: warn}\nunknown_top: 1\n",
			want: &resolve.Profile{
				ID: "engineering.default", Description: ptr("D"), Template: ptr(false), ProfileExport: ptr(false),
				Inherits: []string{"a", "b"}, StatePersistence: objOf("settings.json", "symlink", "unknown", "warn"),
			},
			wantControls: `{}`,
		},
		{
			name:         "template true",
			doc:          "template: true\n",
			want:         &resolve.Profile{ID: "slug", Template: ptr(true), Inherits: []string{}},
			wantControls: `{}`,
		},
		{
			name: "camelCase twins follow the raw keys, inside pi and claude too",
			doc: `controls:
  system_prompt: S
  model: m
  session_directory: ./s
  append_system_prompt: A
  prompt_template: T
  pi:
    system_prompt: PS
    args: [--x]
  claude:
    append_system_prompt: [CA]
`,
			want: &resolve.Profile{ID: "slug", Inherits: []string{}},
			wantControls: `{"system_prompt":"S","model":"m","session_directory":"./s","append_system_prompt":"A","prompt_template":"T",` +
				`"pi":{"system_prompt":"PS","args":["--x"],"systemPrompt":"PS"},"claude":{"append_system_prompt":["CA"],"appendSystemPrompt":["CA"]},` +
				`"sessionDirectory":"./s","promptTemplate":"T","systemPrompt":"S","appendSystemPrompt":"A"}`,
		},
		{
			name: "a camelCase-only alias is dropped, generic and in a block",
			why: "upstream's readControls (profiles/ProfileLoader.ts:338-361, :377-394) spreads the raw keys, then sets " +
				"each alias from its snake_case key alone and omits the undefined ones",
			doc: `controls:
  systemPrompt: S
  model: m
  sessionDirectory: ./s
  appendSystemPrompt: [A]
  promptTemplate: T
  pi:
    systemPrompt: PS
  claude:
    appendSystemPrompt: CA
`,
			want:         &resolve.Profile{ID: "slug", Inherits: []string{}},
			wantControls: `{"model":"m","pi":{},"claude":{}}`,
		},
		{
			name: "with both spellings the snake_case value wins, in the camelCase key's place",
			why:  "the alias keeps the position of the raw camelCase key, as a JavaScript object assignment does",
			doc: `controls:
  systemPrompt: camel
  model: m
  system_prompt: snake
  pi:
    promptTemplate: camel
    prompt_template: snake
`,
			want:         &resolve.Profile{ID: "slug", Inherits: []string{}},
			wantControls: `{"systemPrompt":"snake","model":"m","system_prompt":"snake","pi":{"promptTemplate":"snake","prompt_template":"snake"}}`,
		},
		{
			name:         "numeric keys come first, as in a JavaScript object",
			doc:          "controls:\n  environment: {B: x, '2': y, A: z, '1': w}\n",
			want:         &resolve.Profile{ID: "slug", Inherits: []string{}},
			wantControls: `{"environment":{"1":"w","2":"y","B":"x","A":"z"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, issue := resolve.ParseProfile([]byte(tc.doc), "slug", "/f.yml", agents())
			if issue != nil {
				t.Fatalf("ParseProfile: %v", issue)
			}
			if diff := cmp.Diff(tc.want, got, objectComparer, cmpopts.IgnoreFields(resolve.Profile{}, "Controls")); diff != "" {
				t.Errorf("profile (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantControls, string(resolve.Stringify(got.Controls.Object, ""))); diff != "" {
				t.Errorf("controls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseProfileTypedControls(t *testing.T) {
	t.Parallel()
	doc := `controls:
  model: m
  provider: p
  thinking: high
  args: [--a, --b]
  extensions: [npm:x]
  skills: [deploy-review, ./skills/local, {id: review, references: [{file: a.md}, {repo_file: b.md}]}]
  append_system_prompt: [literal, {file: f.md}, {repo_file: r.md}]
  environment: {B: "2", A: "1"}
  deepwork: {jobs: [job_one], other: 1}
  pi:
    extensions: [npm:y]
    allow_external_deepwork_jobs: true
    append_system_prompt: pi prompt
  claude:
    skills: [c]
`
	got, issue := resolve.ParseProfile([]byte(doc), "x", "/x.yml", agents())
	if issue != nil {
		t.Fatalf("ParseProfile: %v", issue)
	}
	want := resolve.Controls{
		Model: ptr("m"), Provider: ptr("p"), Thinking: ptr("high"),
		Args: []string{"--a", "--b"}, Extensions: []string{"npm:x"},
		Skills: []resolve.Skill{
			{Value: "deploy-review"}, {Value: "./skills/local"},
			{Mapping: true, ID: "review", References: []resolve.Reference{{Path: "a.md"}, {Repo: true, Path: "b.md"}}},
		},
		AppendSystemPrompt: []resolve.PromptEntry{
			{Kind: resolve.PromptText, Value: "literal"}, {Kind: resolve.PromptFile, Value: "f.md"}, {Kind: resolve.PromptRepoFile, Value: "r.md"},
		},
		Environment:  []resolve.EnvVar{{"B", "2"}, {"A", "1"}},
		DeepworkJobs: []string{"job_one"},
		Agents: []resolve.AgentControls{
			{Agent: "pi", Controls: resolve.Controls{
				Extensions:         []string{"npm:y"},
				AppendSystemPrompt: []resolve.PromptEntry{{Kind: resolve.PromptText, Value: "pi prompt"}},
			}},
			{Agent: "claude", Controls: resolve.Controls{Skills: []resolve.Skill{{Value: "c"}}}},
		},
	}
	if diff := cmp.Diff(want, got.Controls, cmpopts.IgnoreFields(resolve.Controls{}, "Object")); diff != "" {
		t.Errorf("controls (-want +got):\n%s", diff)
	}
}

// TestParseProfileCamelCaseOnlyHasNoTypedValue checks that a camelCase-only
// alias gives no typed control: upstream's loader drops it
// (profiles/ProfileLoader.ts:352-357), so it adds no launch flag.
func TestParseProfileCamelCaseOnlyHasNoTypedValue(t *testing.T) {
	t.Parallel()
	doc := "controls:\n  sessionDirectory: ./s\n  promptTemplate: T\n  systemPrompt: S\n  appendSystemPrompt: A\n" +
		"  pi:\n    systemPrompt: PS\n    system_prompt_x: 1\n"
	got, issue := resolve.ParseProfile([]byte(doc), "x", "/x.yml", agents())
	if issue != nil {
		t.Fatalf("ParseProfile: %v", issue)
	}
	want := resolve.Controls{Agents: []resolve.AgentControls{{Agent: "pi"}}}
	if diff := cmp.Diff(want, got.Controls, cmpopts.IgnoreFields(resolve.Controls{}, "Object")); diff != "" {
		t.Errorf("controls (-want +got):\n%s", diff)
	}
}

// TestPropValidIDMatchesPattern checks the hand-written ValidID against
// upstream's regular expression on random strings.
func TestPropValidIDMatchesPattern(t *testing.T) {
	t.Parallel()
	pattern := regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*[a-z0-9]$|^[a-z0-9]$`)
	rapid.Check(t, func(t *rapid.T) {
		id := rapid.StringOfN(rapid.SampledFrom([]rune("az09._-A/ é")), 0, 6, -1).Draw(t, "id")
		if got, want := resolve.ValidID(id), pattern.MatchString(id); got != want {
			t.Fatalf("ValidID(%q) = %v, the pattern says %v", id, got, want)
		}
	})
}
