package composite_test

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
)

func TestPiLaunchPlanExample(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": `id: eng
controls:
  model: generic-model
  provider: anthropic
  environment: {GENERIC: "1"}
  extensions: [npm:pi-subagents@1, ext-a]
  skills: [skill-a]
  prompt_template: template-a
  system_prompt: base prompt
  append_system_prompt: extra prompt
  pi:
    model: pi-model
    thinking: medium
    session_directory: /tmp/pi-sessions
    args: [--share]
    environment: {PI_ONLY: "1"}
    extensions: [npm:pi-subagents@2]
    skills: [skill-pi]
`}}
	_, r := w.mustPlan(t)
	root := r.Composite.Root
	want := composite.LaunchPlan{Command: "pi", Args: []string{
		"--model", "pi-model", "--provider", "anthropic", "--thinking", "medium", "--session-dir", "/tmp/pi-sessions",
		"--prompt-template", "template-a", "--system-prompt", "base prompt", "--append-system-prompt", "extra prompt",
		"--extension", "npm:pi-subagents@2", "--extension", "ext-a",
		"--skill", root + "/outfitter/plugin/skills/outfitter", "--skill", "skill-pi", "--skill", "skill-a", "--share",
	}, Env: []composite.EnvVar{{Name: "GENERIC", Value: "1"}, {Name: "PI_ONLY", Value: "1"}, {Name: "PI_CODING_AGENT_DIR", Value: root}}}
	if diff := cmp.Diff(want, r.Plan); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	wantWarnings := []string{
		"Skill 'skill-a' does not resolve in any skills directory; passing it through as a path source.",
		"Skill 'skill-pi' does not resolve in any skills directory; passing it through as a path source.",
	}
	checkWarnings(t, wantWarnings, r.Warnings)
}

func TestClaudeLaunchPlanExample(t *testing.T) {
	t.Parallel()
	w := world{agent: "claude", passThrough: []string{"--verbose"}, profiles: map[string]string{"eng": `id: eng
controls:
  model: claude-sonnet-4-6
  thinking: high
  provider: anthropic
  prompt_template: t
  system_prompt: base prompt
  append_system_prompt: extra prompt
  extensions: [generic-plugin]
  claude:
    extensions: [claude-plugin]
    args: [--permission-mode, plan]
    unsupportedClaudeControl: x
`}}
	_, r := w.mustPlan(t)
	root := r.Composite.Root
	want := composite.LaunchPlan{Command: "claude", Args: []string{
		"--model", "claude-sonnet-4-6", "--effort", "high", "--system-prompt", "base prompt",
		"--append-system-prompt", "extra prompt", "--plugin-dir", "claude-plugin", "--plugin-dir", "generic-plugin",
		"--permission-mode", "plan", "--plugin-dir", root + "/outfitter/plugin", "--verbose",
	}, Env: []composite.EnvVar{{Name: "CLAUDE_CONFIG_DIR", Value: root}}}
	if diff := cmp.Diff(want, r.Plan); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	// Upstream's findUnsupportedControlNames (agents/AdapterProfileControls.ts:77)
	// names an alias pair by its snake_case key, before the other keys.
	wantWarnings := []string{
		"claude adapter cannot translate requested control 'prompt_template'.",
		"claude adapter cannot translate requested control 'provider'.",
		"claude adapter cannot translate requested control 'claude.unsupportedClaudeControl'.",
	}
	checkWarnings(t, wantWarnings, r.Warnings)
}

func TestStatePersistenceValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, agent, persistence, want string
	}{
		{"unknown cannot be symlinked", "pi", "unknown: symlink", `state_persistence strategy 'symlink' is not allowed for "unknown"`},
		{"inherited object keys are not declarations", "pi", "toString: warn", "state_persistence path 'toString' is not declared by the pi adapter"},
		{"near miss", "pi", "setting.json: warn", "state_persistence path 'setting.json' is not declared by the pi adapter"},
		{"claude settings cannot be discarded", "claude", "settings.json: discard", `state_persistence strategy 'discard' is not allowed for "settings.json"`},
		{"pi key under claude", "claude", "auth.json: symlink", "state_persistence path 'auth.json' is not declared by the claude adapter"},
		{"tmp cannot warn", "pi", "tmp/: warn", `state_persistence strategy 'warn' is not allowed for "tmp/"`},
		{"claude undeclared file", "claude", "missing.json: warn", "state_persistence path 'missing.json' is not declared by the claude adapter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{agent: tt.agent, profiles: map[string]string{"eng": "id: eng\nstate_persistence:\n  " + tt.persistence + "\n"}}
			fsys := w.newFS(t)
			_, err := w.plan(t, fsys)
			var de *composite.DeclarationError
			if !errors.As(err, &de) {
				t.Fatalf("error %v, want a *DeclarationError", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error %q, want %q", err, tt.want)
			}
			list, _ := fsys.ReadDir("/tmp")
			if len(list) != 0 {
				t.Errorf("the failed plan left %d entries in /tmp", len(list))
			}
		})
	}
}

func TestStatePathSources(t *testing.T) {
	t.Parallel()
	w := world{agent: "claude", profiles: map[string]string{
		"base": "id: base\n",
		"eng": `id: eng
inherits: [base]
controls:
  session_directory: /generic/sessions
  claude:
    session_directory: /claude/sessions
state_persistence:
  debug/: discard
`},
		files: map[string]string{
			home + "/.outfitter/profiles/base/cli_specific/claude/settings.json": "{}",
			home + "/.outfitter/profiles/eng/cli_specific/claude/settings.json":  "{}",
			home + "/.outfitter/profiles/base/cli_specific/claude/commands/x.md": "x",
		}}
	_, r := w.mustPlan(t)
	owned := func(key string) []string {
		return []string{home + "/.outfitter/profiles/eng/cli_specific/claude/" + key, home + "/.outfitter/profiles/base/cli_specific/claude/" + key, home + "/.claude/" + key}
	}
	want := []composite.StatePath{
		{RelativePath: "settings.json", Strategy: "symlink", SourcePath: home + "/.outfitter/profiles/eng/cli_specific/claude/settings.json", Folder: home + "/.outfitter/profiles/eng",
			Origin: composite.SourceProfile},
		{RelativePath: "agents/", Strategy: "symlink", SourcePath: home + "/.claude/agents", Directory: true, Origin: composite.SourceNative},
		{RelativePath: "skills/", Strategy: "symlink", SourcePath: home + "/.claude/skills", Directory: true, Origin: composite.SourceNative},
		{RelativePath: "commands/", Strategy: "symlink", SourcePath: home + "/.outfitter/profiles/base/cli_specific/claude/commands", Directory: true, Folder: home + "/.outfitter/profiles/base",
			Origin: composite.SourceProfile},
		{RelativePath: "plugins/", Strategy: "symlink", SourcePath: home + "/.claude/plugins", Directory: true, Origin: composite.SourceNative},
		{RelativePath: "projects/", Strategy: "symlink", SourcePath: "/claude/sessions", Directory: true, Origin: composite.SourceAdapter},
		{RelativePath: "debug/", Strategy: "discard", Directory: true},
		{RelativePath: "unknown", Strategy: "warn"},
	}
	if diff := cmp.Diff(want, r.Composite.StatePaths); diff != "" {
		t.Errorf("state paths (-want +got):\n%s", diff)
	}
	for key, want := range map[string][]string{
		"settings.json": owned("settings.json"), "agents/": owned("agents"), "commands/": owned("commands"),
		"projects/": {"/claude/sessions"}, "debug/": nil, "unknown": nil,
	} {
		if diff := cmp.Diff(want, r.Composite.Candidates(key)); diff != "" {
			t.Errorf("candidates of %s (-want +got):\n%s", key, diff)
		}
	}
}

func TestPiSettingsReconciliation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, native string
		want         string // "" when no reconciled file is generated
	}{
		{"duplicate package dropped", `{"packages":["npm:pi-subagents",{"source":"npm:kept-package"}],"theme":"dark"}`,
			"{\n  \"packages\": [\n    {\n      \"source\": \"npm:kept-package\"\n    }\n  ],\n  \"theme\": \"dark\"\n}\n"},
		{"no duplicate", `{"packages":["npm:other"]}`, ""},
		{"invalid JSON", `{"packages":`, ""},
		{"not an object", `["npm:pi-subagents"]`, ""},
		{"packages not an array", `{"packages":"npm:pi-subagents"}`, ""},
		{"non-string sources kept", `{"packages":[null,{"source":42},["npm:pi-subagents"],"npm:pi-subagents@9"]}`,
			"{\n  \"packages\": [\n    null,\n    {\n      \"source\": 42\n    },\n    [\n      \"npm:pi-subagents\"\n    ]\n  ]\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			native := home + "/.pi/agent/settings.json"
			w := world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  pi:\n    extensions: [npm:pi-subagents@2]\n"},
				files: map[string]string{native: tt.native}}
			fsys, r := w.mustPlan(t)
			f, ok := file(t, r.Composite, "settings.json")
			sp, _ := r.Composite.StatePath("settings.json")
			if tt.want == "" {
				if ok {
					t.Fatalf("generated settings.json %q, want none", f.Content)
				}
				if sp.Strategy != composite.StrategySymlink || sp.SourcePath != native {
					t.Errorf("state path %+v, want a symlink to %s", sp, native)
				}
				return
			}
			if !ok {
				t.Fatal("no reconciled settings.json")
			}
			if diff := cmp.Diff(tt.want, f.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(composite.StatePath{RelativePath: "settings.json", Strategy: "discard"}, sp); diff != "" {
				t.Errorf("state path (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{native, home + "/.outfitter/profiles/eng/profile.yml"}, f.SourceInputs); diff != "" {
				t.Errorf("inputs (-want +got):\n%s", diff)
			}
			if _, err := r.Materialize(); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, fsys, native); got != tt.native {
				t.Errorf("native settings changed to %q", got)
			}
		})
	}
}

func TestPiSettingsUnreadable(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  extensions: [npm:a]\n"},
		files: map[string]string{home + "/.pi/agent/settings.json/x": ""}}
	fsys := w.newFS(t)
	_, err := w.plan(t, fsys)
	var re *composite.ReadError
	if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), "Could not read pi settings file '"+home+"/.pi/agent/settings.json': ") {
		t.Fatalf("error %v, want Could not read pi settings file", err)
	}
}

func TestPiKeybindings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, source, want, wantErr string
	}{
		{"spec example",
			`{"cycleThinkingLevel":["shift+tab","alt+x"],"app.thinking.cycle":["shift+tab","alt+t"],"app.model.select":"shift+ctrl+t","custom.mode":"shift+tab"}`,
			"{\n  \"app.thinking.cycle\": [\n    \"alt+x\",\n    \"alt+t\",\n    \"ctrl+shift+t\"\n  ],\n  \"app.model.select\": [],\n  \"custom.mode\": []\n}\n", ""},
		{"no source", "", "{\n  \"app.thinking.cycle\": [\n    \"ctrl+shift+t\"\n  ]\n}\n", ""},
		{"invalid values and duplicates", `{"a":["Alt+X","x+ALT",3],"b":["alt+y","ALT+Y"],"c":{"k":1}}`,
			"{\n  \"b\": [\n    \"alt+y\"\n  ],\n  \"app.thinking.cycle\": [\n    \"ctrl+shift+t\"\n  ]\n}\n", ""},
		// Node's JSON.parse message, which upstream quotes (agents/pi/PiAdapter.ts:301).
		{"malformed", `{`, "", "Could not parse pi keybindings file '" + home + "/.pi/agent/keybindings.json': Expected property name or '}' in JSON at position 1 (line 1 column 2)"},
		{"empty", "\n", "", "Could not parse pi keybindings file '" + home + "/.pi/agent/keybindings.json': Unexpected end of JSON input"},
		{"not an object", `[]`, "", "Pi keybindings file '" + home + "/.pi/agent/keybindings.json' must contain a JSON object."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"eng": "id: eng\n"}}
			if tt.source != "" {
				w.files = map[string]string{home + "/.pi/agent/keybindings.json": tt.source}
			}
			fsys := w.newFS(t)
			r, err := w.plan(t, fsys)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			must(t, err)
			f, _ := file(t, r.Composite, "keybindings.json")
			if diff := cmp.Diff(tt.want, f.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			sp, _ := r.Composite.StatePath("keybindings.json")
			if diff := cmp.Diff(composite.StatePath{RelativePath: "keybindings.json", Strategy: "discard"}, sp); diff != "" {
				t.Errorf("state path (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPiPlanningReadsKeybindingsFirst checks the order of pi's planning:
// the settings and keybindings sources are read before the MCP fragments
// (agents/pi/PiAdapter.ts:56-74), so with both broken the keybindings
// file fails the run.
func TestPiPlanningReadsKeybindingsFirst(t *testing.T) {
	t.Parallel()
	eng := home + "/.outfitter/profiles/eng"
	w := world{profiles: map[string]string{"eng": "id: eng\n"}, files: map[string]string{
		home + "/.pi/agent/keybindings.json": "[1]\n",
		eng + "/cli_specific/pi/.mcp.json":   "[1, 2]\n",
	}}
	_, err := w.plan(t, w.newFS(t))
	want := "Pi keybindings file '" + home + "/.pi/agent/keybindings.json' must contain a JSON object."
	if err == nil || err.Error() != want {
		t.Fatalf("plan error %v, want %q", err, want)
	}
}

func TestPiMCPMerge(t *testing.T) {
	t.Parallel()
	base := `{"mcpServers":{"shared":{"command":"base","args":["--b"]},"baseOnly":{"command":"b"}},` +
		`"labels":[{"name":"x","v":1},{"v":2},"s"],"nested":{"a":1,"deep":{"k":"base"}},"scalar":1}`
	high := `{"mcpServers":{"shared":{"command":"explicit"},"explicitOnly":{"command":"e"}},` +
		`"labels":[{"v":2},{"name":"x","v":3}],"nested":{"deep":{"j":"high"}},"scalar":["now","array"]}`
	tests := []struct {
		name     string
		fragment string
		want     string
		wantErr  string
	}{
		{"merge", high, `{
  "mcpServers": {
    "shared": {
      "command": "explicit"
    },
    "baseOnly": {
      "command": "b"
    },
    "explicitOnly": {
      "command": "e"
    }
  },
  "labels": [
    "s",
    {
      "v": 2
    },
    {
      "name": "x",
      "v": 3
    }
  ],
  "nested": {
    "a": 1,
    "deep": {
      "k": "base",
      "j": "high"
    }
  },
  "scalar": [
    "now",
    "array"
  ]
}
`, ""},
		{"invalid JSON", `{`, "", "Pi MCP config '" + home + "/.outfitter/profiles/eng/cli_specific/pi/.mcp.json' must contain valid JSON."},
		{"not an object", `[]`, "", "Pi MCP config '" + home + "/.outfitter/profiles/eng/cli_specific/pi/.mcp.json' must contain a JSON object."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"base": "id: base\n", "eng": "id: eng\ninherits: [base]\n"},
				files: map[string]string{
					home + "/.outfitter/profiles/base/cli_specific/pi/.mcp.json": base,
					home + "/.outfitter/profiles/eng/cli_specific/pi/.mcp.json":  tt.fragment,
				}}
			fsys := w.newFS(t)
			r, err := w.plan(t, fsys)
			if tt.wantErr != "" {
				var me *composite.MCPError
				if !errors.As(err, &me) || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			must(t, err)
			f, ok := file(t, r.Composite, ".mcp.json")
			if !ok {
				t.Fatal("no .mcp.json")
			}
			if diff := cmp.Diff(tt.want, f.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnknownAgent(t *testing.T) {
	t.Parallel()
	_, err := composite.DefaultRegistry().Lookup("other")
	ae, ok := errors.AsType[*resolve.AgentError](err)
	if !ok || err.Error() != "Unknown agent 'other'. Expected one of: pi, claude." {
		t.Fatalf("error %v, want upstream's *resolve.AgentError", err)
	}
	if ae.Agent != "other" {
		t.Errorf("AgentError.Agent = %q, want other", ae.Agent)
	}
}

func TestStrict(t *testing.T) {
	t.Parallel()
	if err := composite.Strict(false, "pi", []string{"w"}); err != nil {
		t.Errorf("non-strict: %v", err)
	}
	if err := composite.Strict(true, "pi", nil); err != nil {
		t.Errorf("strict without warnings: %v", err)
	}
	warnings := []string{"claude adapter cannot translate requested control 'provider'.", "w2"}
	err := composite.Strict(true, "claude", warnings)
	se, ok := errors.AsType[*composite.StrictError](err)
	if !ok || err.Error() != "Strict failed for claude: claude adapter cannot translate requested control 'provider'.; w2" {
		t.Fatalf("strict error = %v", err)
	}
	warnings[1] = "changed"
	if se.Warnings[1] != "w2" {
		t.Errorf("the error shares the caller's warnings: %q", se.Warnings)
	}
}

func TestStrictFailsBeforeWriting(t *testing.T) {
	t.Parallel()
	w := world{agent: "claude", strict: true, profiles: map[string]string{"eng": "id: eng\ncontrols:\n  provider: p\n"}}
	fsys := w.newFS(t)
	_, err := w.plan(t, fsys)
	var se *composite.StrictError
	if !errors.As(err, &se) || err.Error() != "Strict failed for claude: claude adapter cannot translate requested control 'provider'." {
		t.Fatalf("error %v", err)
	}
	if list, _ := fsys.ReadDir("/tmp"); len(list) != 0 {
		t.Errorf("strict failure left %d roots", len(list))
	}
}

func TestDeepWorkAndDiscoveredSkills(t *testing.T) {
	t.Parallel()
	eng := home + "/.outfitter/profiles/eng"
	w := world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  environment: {DEEPWORK_ADDITIONAL_JOBS_FOLDERS: /ext}\n"},
		files: map[string]string{
			eng + "/deepwork/jobs/j/job.yml":                 "name: j\n",
			eng + "/cli_specific/pi/deepwork/jobs/k/job.yml": "name: k\n",
			eng + "/skills/b/SKILL.md":                       "---\nname: b\n---\n",
			eng + "/skills/a/SKILL.md":                       "---\nname: a\n---\n",
			eng + "/skills/nope/README.md":                   "",
		}}
	_, r := w.mustPlan(t)
	root := r.Composite.Root
	want := composite.LaunchPlan{Command: "pi", Args: []string{
		"--skill", root + "/outfitter/plugin/skills/outfitter", "--skill", eng + "/skills/a", "--skill", eng + "/skills/b",
	}, Env: []composite.EnvVar{
		{Name: "DEEPWORK_ADDITIONAL_JOBS_FOLDERS", Value: eng + "/deepwork/jobs:" + eng + "/cli_specific/pi/deepwork/jobs"},
		{Name: "PI_CODING_AGENT_DIR", Value: root},
	}}
	if diff := cmp.Diff(want, r.Plan); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
}

func TestCatalogSkills(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [deploy-review, ./local/path]\n"},
		files: map[string]string{
			project + "/.outfitter/skills/deploy-review/SKILL.md":     "---\nname: deploy-review\n---\n",
			project + "/.outfitter/skills/deploy-review/notes/tip.md": "tip",
		}}
	fsys, r := w.mustPlan(t)
	root := r.Composite.Root
	if got := readFile(t, fsys, root+"/outfitter/skills/deploy-review/notes/tip.md"); got != "tip" {
		t.Errorf("copied skill file %q", got)
	}
	wantArgs := []string{"--skill", root + "/outfitter/plugin/skills/outfitter", "--skill", root + "/outfitter/skills/deploy-review", "--skill", "./local/path"}
	if diff := cmp.Diff(wantArgs, r.Plan.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	f, _ := file(t, r.Composite, "outfitter/profile.json")
	if !strings.Contains(f.Content, root+"/outfitter/skills/deploy-review") {
		t.Errorf("profile.json does not show the resolved skill:\n%s", f.Content)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// TestDefaultAssetsPlanLikeACopy checks that the plugin files planned
// from the embedded assets (read once per process) are those of a copy of
// the same files, and that a plan's files are its own.
func TestDefaultAssetsPlanLikeACopy(t *testing.T) {
	t.Parallel()
	copied := fstest.MapFS{}
	err := fs.WalkDir(composite.DefaultAssets(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(composite.DefaultAssets(), name)
		copied[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	w := world{profiles: map[string]string{"eng": "id: eng\n"}, agent: "pi"}
	_, first := w.mustPlan(t)
	if len(first.Composite.Files) == 0 || len(first.Composite.Files[len(first.Composite.Files)-1].SourceInputs) == 0 {
		t.Fatal("the plan has no generated file with inputs: nothing to compare")
	}
	for i := range first.Composite.Files { // a caller's edit stays its own
		first.Composite.Files[i].Content = "edited"
		if len(first.Composite.Files[i].SourceInputs) > 0 {
			first.Composite.Files[i].SourceInputs[0] = "edited"
		}
	}
	_, second := w.mustPlan(t)
	w.opts.Assets = copied
	_, fromCopy := w.mustPlan(t)
	if diff := cmp.Diff(fromCopy.Composite.Files, second.Composite.Files); diff != "" {
		t.Errorf("files from the embedded assets differ from a copy's (-copy +embedded):\n%s", diff)
	}
}

// TestPluginSkillFrontmatter checks the bundled skill's references as
// its frontmatter gives them: none when the frontmatter has no
// references key (the plugin is its manifest and the skill), an error
// naming the skill when the key is not a list.
func TestPluginSkillFrontmatter(t *testing.T) {
	t.Parallel()
	skill := func(front string) *composite.Input {
		return &composite.Input{Assets: fstest.MapFS{composite.AssetSkill: {Data: []byte("---\n" + front + "---\nUse Outfitter.\n")}}}
	}
	files, err := skill("name: outfitter\n").PluginFiles()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.RelativePath)
	}
	if diff := cmp.Diff([]string{"outfitter/plugin/.claude-plugin/plugin.json", "outfitter/plugin/skills/outfitter/SKILL.md"}, names); diff != "" {
		t.Errorf("plugin files without references (-want +got):\n%s", diff)
	}
	// With references, twice: the second plan reads them from the memo
	// of parsed frontmatters.
	withRefs := skill("references:\n  - file: skills/outfitter/refs/one.md\n")
	withRefs.Assets.(fstest.MapFS)["skills/outfitter/refs/one.md"] = &fstest.MapFile{Data: []byte("One.\n")}
	for range 2 {
		files, err := withRefs.PluginFiles()
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 3 || files[2].RelativePath != "outfitter/plugin/skills/outfitter/references/one.md" || files[2].Content != "One.\n" {
			t.Errorf("plugin files with one reference: %+v, want the manifest, the skill and references/one.md", files)
		}
	}
	_, err = skill("references: one.md\n").PluginFiles()
	if want := "Outfitter skill references in '" + composite.AssetSkill + "' must be a list."; err == nil || err.Error() != want {
		t.Errorf("references not a list: error %v, want %q", err, want)
	}
}

// TestPiKeybindingsWithoutHome: planned without a home directory (a
// library caller's resolution), pi reads a keybindings source only from
// inside the profile folders, as upstream does
// (agents/pi/PiAdapter.ts:270-280); the native source, relative then,
// names a file under the working directory that is left alone.
func TestPiKeybindingsWithoutHome(t *testing.T) {
	t.Parallel()
	eng := home + "/.outfitter/profiles/eng"
	noHome := func(r *resolve.Result) { r.Home = "" }
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"outside the profile folders", map[string]string{project + "/.pi/agent/keybindings.json": `{"custom.mode":"alt+m"}`},
			"{\n  \"app.thinking.cycle\": [\n    \"ctrl+shift+t\"\n  ]\n}\n"},
		{"in a profile folder", map[string]string{eng + "/cli_specific/pi/keybindings.json": `{"custom.mode":"alt+m"}`},
			"{\n  \"custom.mode\": [\n    \"alt+m\"\n  ],\n  \"app.thinking.cycle\": [\n    \"ctrl+shift+t\"\n  ]\n}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"eng": "id: eng\n"}, files: tt.files, edit: noHome}
			_, r := w.mustPlan(t)
			f, _ := file(t, r.Composite, "keybindings.json")
			if diff := cmp.Diff(tt.want, f.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCustomAssets: a caller's assets replace the embedded ones whole: a
// file they hold is used as they hold it, and one they lack is not taken
// from the embedded set.
func TestCustomAssets(t *testing.T) {
	t.Parallel()
	skill := "---\nname: outfitter\ndescription: A caller's skill.\n---\nCustom.\n"
	ext := "// a caller's extension\n"
	for _, tt := range []struct {
		name   string
		assets fstest.MapFS
	}{
		{"without the skill", fstest.MapFS{composite.AssetPiExtension: {Data: []byte(ext)}}},
		{"with the skill", fstest.MapFS{composite.AssetPiExtension: {Data: []byte(ext)}, composite.AssetSkill: {Data: []byte(skill)}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"eng": "id: eng\n"}, agent: "pi", passThrough: []string{"hello"}}
			w.opts.Assets = tt.assets
			fsys, r := w.mustPlan(t)
			lp, _, err := r.Launch()
			must(t, err)
			root := r.Composite.Root
			_, hasSkill := tt.assets[composite.AssetSkill]
			f, ok := file(t, r.Composite, "outfitter/plugin/skills/outfitter/SKILL.md")
			if ok != hasSkill || ok && f.Content != skill {
				t.Errorf("bundled skill planned %v (%q), want %v (%q)", ok, f.Content, hasSkill, skill)
			}
			if got := slices.Contains(lp.Args, root+"/outfitter/plugin/skills/outfitter"); got != hasSkill {
				t.Errorf("args %q name the bundled skill: %v, want %v", lp.Args, got, hasSkill)
			}
			data, err := fsys.ReadFile(root + "/outfitter/outfitter-extension.js")
			if err != nil || !strings.Contains(string(data), "a caller's extension") {
				t.Errorf("extension %q (%v), want the caller's", data, err)
			}
			if _, err := fsys.Stat(root + "/outfitter/pi-extension/privateCatalogOnboarding.js"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("an embedded asset the caller's lack was written: %v", err)
			}
		})
	}
}
