package resolve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/resolve"
)

// def is one profile definition of an in-memory load list.
type def struct{ slug, doc string }

// layersOf parses definitions into layers, lowest precedence first.
func layersOf(t *testing.T, defs ...def) []resolve.Layer {
	t.Helper()
	var out []resolve.Layer
	for i, d := range defs {
		file := "/src" + string(rune('a'+i)) + "/" + d.slug + ".yml"
		p, issue := resolve.ParseProfile([]byte(d.doc), d.slug, file, agents())
		if issue != nil {
			t.Fatalf("ParseProfile %s: %v", file, issue)
		}
		out = append(out, resolve.Layer{ID: p.ID, ProfilePath: file, Profile: p, Layout: resolve.LayoutFlatFile})
	}
	return out
}

// resolveClean resolves id over the layers of defs and fails the test
// when the resolution reports issues.
func resolveClean(t *testing.T, id string, defs ...def) *resolve.Profile {
	t.Helper()
	res := resolve.ResolveProfile(layersOf(t, defs...), id, "/p")
	if len(res.Issues) > 0 {
		t.Fatalf("ResolveProfile(%q) issues: %v", id, issueList(res.Issues))
	}
	return res.Profile
}

func stackIDs(stack []*resolve.Profile) []string {
	ids := make([]string, len(stack))
	for i, p := range stack {
		ids[i] = p.ID
	}
	return ids
}

func TestResolveStack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		why        string
		defs       []def
		id         string
		wantStack  []string
		wantIssues []string
	}{
		{
			name:      "explicit selection composes only its chain",
			defs:      []def{{"default", "{}"}, {"base", "{}"}, {"engineering", "inherits: [base]"}},
			id:        "engineering",
			wantStack: []string{"base", "engineering"},
		},
		{
			name:      "multiple inheritance",
			defs:      []def{{"first", "{}"}, {"second", "{}"}, {"composite", "inherits: [first, second]"}},
			id:        "composite",
			wantStack: []string{"first", "second", "composite"},
		},
		{
			name:      "diamond: the shared ancestor once, first",
			defs:      []def{{"a", "{}"}, {"b", "inherits: [a]"}, {"c", "inherits: [a]"}, {"d", "inherits: [b, c]"}},
			id:        "d",
			wantStack: []string{"a", "b", "c", "d"},
		},
		{
			name:      "order follows first appearance in sub-stacks",
			why:       "b first appears inside c's stack",
			defs:      []def{{"a", "{}"}, {"b", "inherits: [a]"}, {"c", "inherits: [b]"}, {"d", "inherits: [c, b]"}},
			id:        "d",
			wantStack: []string{"a", "b", "c", "d"},
		},
		{
			name:       "two-profile cycle",
			defs:       []def{{"a", "inherits: [b]"}, {"b", "inherits: [a]"}},
			id:         "a",
			wantStack:  []string{"b", "a"},
			wantIssues: []string{"/profiles/a/inherits Profile inheritance cycle detected: a -> b -> a"},
		},
		{
			name:       "self inheritance",
			defs:       []def{{"a", "inherits: [a]"}},
			id:         "a",
			wantStack:  []string{"a"},
			wantIssues: []string{"/profiles/a/inherits Profile inheritance cycle detected: a -> a"},
		},
		{
			name:       "a cycle below the selection",
			defs:       []def{{"a", "inherits: [b]"}, {"b", "inherits: [c]"}, {"c", "inherits: [b]"}},
			id:         "a",
			wantStack:  []string{"c", "b", "a"},
			wantIssues: []string{"/profiles/b/inherits Profile inheritance cycle detected: a -> b -> c -> b"},
		},
		{
			name:       "unknown selection",
			defs:       []def{{"a", "{}"}},
			id:         "missing",
			wantIssues: []string{"/profiles/missing Profile 'missing' was not found."},
		},
		{
			name:       "a parent missing from two branches is reported twice",
			defs:       []def{{"b", "inherits: [missing-base]"}, {"c", "inherits: [missing-base]"}, {"d", "inherits: [b, c]"}},
			id:         "d",
			wantStack:  []string{"b", "c", "d"},
			wantIssues: []string{"/profiles/missing-base Profile 'missing-base' was not found.", "/profiles/missing-base Profile 'missing-base' was not found."},
		},
		{
			name:      "only the highest same-id definition's inherits count",
			defs:      []def{{"base", "{}"}, {"engineering", "inherits: [base]"}, {"engineering", "label: P"}},
			id:        "engineering",
			wantStack: []string{"engineering"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := resolve.ResolveProfile(layersOf(t, tc.defs...), tc.id, "/p")
			if diff := cmp.Diff(tc.wantStack, stackIDs(res.Stack), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("stack (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantIssues, issueList(res.Issues), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
			if (res.Profile == nil) != (len(tc.wantIssues) > 0) {
				t.Errorf("profile %v with %d issues", res.Profile, len(res.Issues))
			}
		})
	}
}

func TestResolveCycleErrorChain(t *testing.T) {
	t.Parallel()
	res := resolve.ResolveProfile(layersOf(t, def{"a", "inherits: [b]"}, def{"b", "inherits: [a]"}), "a", "/p")
	err := &resolve.ResolveError{ID: "a", Issues: res.Issues}
	var cycle *resolve.CycleError
	if !errors.As(err, &cycle) {
		t.Fatalf("no CycleError in %v", err)
	}
	if diff := cmp.Diff([]string{"a", "b", "a"}, cycle.Chain); diff != "" {
		t.Errorf("chain (-want +got):\n%s", diff)
	}
}

func TestResolveFlatten(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		why  string
		defs []def
		id   string
		// want is the JSON of the flattened profile's generated document.
		want string
	}{
		{
			name: "same-id definitions merge user < project < local",
			defs: []def{
				{"base", "controls: {model: base}"},
				{"engineering", "label: User Engineering\ninherits: [base]\ncontrols: {model: user-model, environment: {SHARED: user, USER_ONLY: 'yes'}}"},
				{"engineering", "label: Project Engineering\ncontrols: {environment: {SHARED: project, PROJECT_ONLY: 'yes'}}"},
				{"engineering", "controls: {model: local-model, environment: {SHARED: local, LOCAL_ONLY: 'yes'}}"},
			},
			id:   "engineering",
			want: `{"id":"engineering","label":"Project Engineering","controls":{"model":"local-model","environment":{"SHARED":"local","USER_ONLY":"yes","PROJECT_ONLY":"yes","LOCAL_ONLY":"yes"}}}`,
		},
		{
			name: "the last definition wins",
			defs: []def{{"x", "controls: {model: uri-1}"}, {"x", "controls: {model: uri-2}"}, {"x", "controls: {model: user}"}},
			id:   "x",
			want: `{"id":"x","controls":{"model":"user"}}`,
		},
		{
			name: "path policies",
			defs: []def{
				{"base", `controls:
  args: [--base]
  append_system_prompt: base prompt
  extensions: ['npm:base-only', 'npm:pi-subagents@2']
  skills: [./skills/base]
  pi: {append_system_prompt: base pi prompt}
  custom_list: [base]
  deepwork: {jobs: [project_governance, project_kpi]}`},
				{"selected", `inherits: [base]
controls:
  args: [--selected]
  append_system_prompt: selected prompt
  extensions: ['npm:pi-subagents@3']
  skills: [./skills/review]
  pi: {append_system_prompt: selected pi prompt}
  custom_list: [selected]
  deepwork: {jobs: [project_milestone, project_governance]}`},
			},
			id: "selected",
			want: `{"id":"selected","controls":{"args":["--selected","--base"],"append_system_prompt":["selected prompt","base prompt"],` +
				`"extensions":["npm:pi-subagents@3","npm:base-only"],"skills":["./skills/review","./skills/base"],` +
				`"pi":{"append_system_prompt":["selected pi prompt","base pi prompt"],"appendSystemPrompt":["selected pi prompt","base pi prompt"]},` +
				`"custom_list":["selected"],"deepwork":{"jobs":["project_governance","project_kpi","project_milestone"]},` +
				`"appendSystemPrompt":["selected prompt","base prompt"]}}`,
		},
		{
			name: "a child without a label inherits the parent's",
			defs: []def{{"base", "label: Base"}, {"child", "inherits: [base]"}},
			id:   "child",
			want: `{"id":"child","label":"Base","controls":{}}`,
		},
		{
			name: "empty lists cannot clear args but clear unknown arrays",
			defs: []def{{"base", "controls: {args: [--a], custom: [x], extensions: ['npm:a', 'npm:a@2']}"}, {"child", "inherits: [base]\ncontrols: {args: [], custom: [], extensions: []}"}},
			id:   "child",
			want: `{"id":"child","controls":{"args":["--a"],"custom":[],"extensions":["npm:a"]}}`,
		},
		{
			name: "single-layer duplicates survive",
			defs: []def{{"one", "controls: {extensions: ['npm:a', 'npm:a@2'], append_system_prompt: only}"}},
			id:   "one",
			want: `{"id":"one","controls":{"extensions":["npm:a","npm:a@2"],"append_system_prompt":"only","appendSystemPrompt":"only"}}`,
		},
		{
			name: "extension identities: github and git+https, npm scopes, paths",
			defs: []def{
				{"base", `controls: {extensions: ['git+https://github.com/acme/x.git#v2', 'npm:@scope/name@1', ext/a, ./ext/a, 'https://GitHub.com:443/acme/y/']}`},
				{"child", `inherits: [base]
controls: {extensions: ['github:acme/x', 'npm:@Scope/Name@2', /p/ext/a, 'ssh://git@github.com/acme/y.git']}`},
			},
			id:   "child",
			want: `{"id":"child","controls":{"extensions":["github:acme/x","npm:@Scope/Name@2","/p/ext/a","ssh://git@github.com/acme/y.git","ext/a","https://GitHub.com:443/acme/y/"]}}`,
		},
		{
			name: "skill identities: a bare id and {id} are one skill",
			defs: []def{
				{"base", "controls: {skills: [deploy-review, ./skills/x, keep]}"},
				{"child", "inherits: [base]\ncontrols: {skills: [{id: deploy-review, references: [{file: a.md}]}, skills/x]}"},
			},
			id:   "child",
			want: `{"id":"child","controls":{"skills":[{"id":"deploy-review","references":[{"file":"a.md"}]},"skills/x","./skills/x","keep"]}}`,
		},
		{
			name: "prompt scalars are coerced to lists when two layers define them",
			defs: []def{{"base", "controls: {append_system_prompt: [{file: b.md}]}"}, {"child", "inherits: [base]\ncontrols: {append_system_prompt: c}"}},
			id:   "child",
			want: `{"id":"child","controls":{"append_system_prompt":["c",{"file":"b.md"}],"appendSystemPrompt":["c",{"file":"b.md"}]}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := compact(resolveClean(t, tc.id, tc.defs...))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("profile (-want +got):\n%s", diff)
			}
		})
	}
}

// compact is the generated document of p without indentation.
func compact(p *resolve.Profile) string {
	doc := resolve.NewObject()
	doc.Set("id", p.ID)
	if p.Label != nil {
		doc.Set("label", *p.Label)
	}
	doc.Set("controls", p.Controls.Object)
	return string(resolve.Stringify(doc, ""))
}

func TestResolveTemplates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		defs []def
		id   string
		want *bool
	}{
		{"a template parent does not make the child a template", []def{{"prose", "template: true"}, {"child", "inherits: [prose]"}}, "child", nil},
		{"a template selected alone stays a template", []def{{"prose", "template: true"}}, "prose", ptr(true)},
		{"template: false is dropped", []def{{"x", "template: false"}}, "x", nil},
		{"a lower template: true is lost", []def{{"x", "template: true"}, {"x", "label: L"}}, "x", nil},
		{"a higher template: true makes a template", []def{{"x", "label: L"}, {"x", "template: true"}}, "x", ptr(true)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, resolveClean(t, tc.id, tc.defs...).Template); diff != "" {
				t.Errorf("template (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveLayers(t *testing.T) {
	t.Parallel()
	layers := layersOf(t, def{"eng", "label: A"}, def{"base", "{}"}, def{"eng", "inherits: [base]"}, def{"other", "{}"})
	res := resolve.ResolveProfile(layers, "eng", "/p")
	var paths []string
	for _, l := range res.Layers {
		paths = append(paths, l.ProfilePath)
	}
	if diff := cmp.Diff([]string{"/srcb/base.yml", "/srca/eng.yml", "/srcc/eng.yml"}, paths); diff != "" {
		t.Errorf("layers (-want +got):\n%s", diff)
	}
}

func TestIdentities(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"npm:pi-subagents@2", "npm:pi-subagents@3"},
		{"npm:Pi-Subagents", " npm:pi-subagents#main "},
		{"github:acme/x", "git+https://github.com/acme/x.git#v2"},
		{"git:github.com/acme/x", "https://github.com/acme/x"},
		{"./ext/a", "/p/ext/a"},
	}
	for _, s := range same {
		if a, b := resolve.ExtensionIdentity(s[0], "/p"), resolve.ExtensionIdentity(s[1], "/p"); a != b {
			t.Errorf("identities of %q and %q differ: %q, %q", s[0], s[1], a, b)
		}
	}
	if a, b := resolve.ExtensionIdentity("./ext/a", "/p"), resolve.ExtensionIdentity("ext/a", "/p"); a == b {
		t.Errorf("./ext/a and ext/a share identity %q", a)
	}
	for entry, want := range map[string]string{
		"npm:@scope/name@1":          "npm:@scope/name",
		"github:acme/x":              "git:https://github.com/acme/x.git",
		"ssh://git@Host:22/a/b.git/": "git:ssh://host/a/b.git",
		"git@github.com:acme/x.git":  "resource:git@github.com:acme/x.git",
		"git+git@github.com:a/b":     "git:git@github.com:a/b.git",
		"../up":                      "path:/up",
		"npm:@@x":                    "npm:@",
	} {
		if got := resolve.ExtensionIdentity(entry, "/p"); got != want {
			t.Errorf("ExtensionIdentity(%q) = %q, want %q", entry, got, want)
		}
	}
	deploy := resolve.NewObject()
	deploy.Set("id", "deploy-review")
	for entry, want := range map[any]string{
		"deploy-review":         "id:deploy-review",
		" deploy-review ":       "id:deploy-review",
		deploy:                  "id:deploy-review",
		"Deploy":                "resource:Deploy",
		strings.Repeat("a", 64): "id:" + strings.Repeat("a", 64),
		strings.Repeat("a", 65): "resource:" + strings.Repeat("a", 65),
	} {
		if got := resolve.SkillIdentity(entry, "/p"); got != want {
			t.Errorf("SkillIdentity(%v) = %q, want %q", entry, got, want)
		}
	}
}

// TestResolveStatePersistence: state_persistence overrides merge by path
// down the stack; a profile without any keeps its parents', and an empty
// mapping is none.
func TestResolveStatePersistence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		defs []def
		want string // the flattened overrides as JSON, "null" for none
	}{
		{"a child without overrides keeps its parent's", []def{{"base", "state_persistence: {mcp.json: warn}"}, {"child", "inherits: [base]"}}, `{"mcp.json":"warn"}`},
		{"a child's override wins path by path", []def{{"base", "state_persistence: {mcp.json: warn, auth.json: error}"}, {"child", "inherits: [base]\nstate_persistence: {mcp.json: discard}"}}, `{"mcp.json":"discard","auth.json":"error"}`},
		{"an empty mapping is none", []def{{"child", "state_persistence: {}"}}, `null`},
	}
	for _, tc := range tests {
		res := resolve.ResolveProfile(layersOf(t, tc.defs...), "child", "/p")
		if res.Profile == nil {
			t.Fatalf("%s: no profile: %v", tc.name, res.Issues)
		}
		if got := string(resolve.Stringify(res.Profile.StatePersistence, "")); got != tc.want {
			t.Errorf("%s: state persistence %s, want %s", tc.name, got, tc.want)
		}
	}
}
