package resolve_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func TestIncludeRoot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, profile, source, want string
	}{
		{"home profiles use ~/.outfitter", home + "/.outfitter/profiles/engineer.yml", home + "/.outfitter/profiles", home + "/.outfitter"},
		{"project .outfitter profiles use the project", "/p/.outfitter/profiles/engineer.yml", "/p/.outfitter/profiles", "/p"},
		{"outfitter without a dot uses its parent", "/p/outfitter/profiles/engineer.yml", "/p/outfitter/profiles", "/p"},
		{"directory layouts start at the profile folder", "/p/.outfitter/profiles/eng/profile.yml", "/p/.outfitter/profiles", "/p"},
		{"anything else uses the source", "/p/profiles/engineer.yml", "/p/profiles", "/p/profiles"},
		{"a folder named outfitter is a root too", "/p/profiles/outfitter/profile.yml", "/p/profiles", "/p/profiles"},
		// Synced content reads only inside its checkout: upstream's walk
		// would reach home/.outfitter.
		{"synced caches resolve inside their checkout", home + "/.outfitter/cache/repos/x/profiles/a.yml", home + "/.outfitter/cache/repos/x/profiles", home + "/.outfitter/cache/repos/x/profiles"},
		{"an outfitter folder inside a checkout is a root", home + "/.outfitter/cache/repos/x/outfitter/profiles/a.yml", home + "/.outfitter/cache/repos/x/outfitter/profiles", home + "/.outfitter/cache/repos/x"},
	}
	for _, tc := range tests {
		got := resolve.IncludeRoot(resolve.Layer{ProfilePath: tc.profile, SourceRoot: tc.source}, home)
		if got != tc.want {
			t.Errorf("%s: IncludeRoot = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAppendSystemPrompts(t *testing.T) {
	t.Parallel()
	const sources = "profile_sources: [{path: ./profiles}, {path: ../../project/.outfitter/profiles}]\n"
	tests := []struct {
		name      string
		why       string
		profiles  vfstest.Tree
		id, agent string
		want      []string
		wantDiags []resolve.Diagnostic
	}{
		{
			name: "file includes per layer root, highest layer first",
			profiles: vfstest.Tree{
				"home/.outfitter/profiles/base.yml":        file("controls: {append_system_prompt: [{file: prompts/base.md}]}\n"),
				"home/.outfitter/prompts/base.md":          file("base include"),
				"project/.outfitter/profiles/engineer.yml": file("inherits: [base]\ncontrols: {append_system_prompt: [{file: .outfitter/prompts/eng.md}]}\n"),
				"project/.outfitter/prompts/eng.md":        file("engineer include"),
			},
			id: "engineer", agent: "pi",
			want: []string{"engineer include", "base include"},
		},
		{
			name: "repo_file resolves from the project; absolute paths need no root",
			profiles: vfstest.Tree{
				"home/.outfitter/profiles/a.yml": file("controls: {append_system_prompt: [{repo_file: docs/r.md}, {file: /w/abs.md}, {repo_file: /w/abs.md}, literal]}\n"),
				"project/docs/r.md":              file("repo"),
				"abs.md":                         file("abs"),
			},
			id: "a", agent: "pi",
			want: []string{"repo", "abs", "abs", "literal"},
		},
		{
			name: "a child of a template: its includes come before the template's",
			profiles: vfstest.Tree{
				"home/.outfitter/profiles/prose.yml": file("template: true\ncontrols: {append_system_prompt: [{file: prose.md}]}\n"),
				"home/.outfitter/profiles/lead.yml":  file("inherits: [prose]\ncontrols: {append_system_prompt: [{file: lead.md}]}\n"),
				"home/.outfitter/prose.md":           file("prose"),
				"home/.outfitter/lead.md":            file("lead"),
			},
			id: "lead", agent: "pi",
			want: []string{"lead", "prose"},
		},
		{
			name: "the agent block replaces the generic value within a layer",
			profiles: vfstest.Tree{
				"home/.outfitter/profiles/a.yml": file("controls: {append_system_prompt: generic, pi: {append_system_prompt: [pi one]}}\n"),
			},
			id: "a", agent: "pi",
			want: []string{"pi one"},
		},
		{
			name: "claude does not see the pi block",
			profiles: vfstest.Tree{
				"home/.outfitter/profiles/a.yml": file("controls: {append_system_prompt: generic, pi: {append_system_prompt: [pi one]}}\n"),
			},
			id: "a", agent: "claude",
			want: []string{"generic"},
		},
		{
			name: "missing includes and path-looking strings warn",
			why:  "multi-line prose and a bare a.md do not look like paths",
			profiles: vfstest.Tree{
				"home/.outfitter/profiles/a.yml": file("controls:\n  append_system_prompt:\n    - {file: nope.md}\n    - {repo_file: nope.md}\n    - ./prompts/x.md\n    - docs/guide.MD\n    - \"line one\\nline two.md\"\n    - a.md\n"),
			},
			id: "a", agent: "pi",
			want: []string{"./prompts/x.md", "docs/guide.MD", "line one\nline two.md", "a.md"},
			wantDiags: []resolve.Diagnostic{
				{Severity: "warning", ProfileID: "a", Path: home + "/.outfitter/profiles/a.yml#/controls/append_system_prompt/0", Message: "Prompt file include 'nope.md' was not found."},
				{Severity: "warning", ProfileID: "a", Path: home + "/.outfitter/profiles/a.yml#/controls/append_system_prompt/0", Message: "Prompt repo_file include 'nope.md' was not found."},
				{Severity: "warning", ProfileID: "a", Path: home + "/.outfitter/profiles/a.yml#/controls/append_system_prompt/0", Message: "Raw append_system_prompt entry looks like a file path; use { file: './prompts/x.md' }."},
				{Severity: "warning", ProfileID: "a", Path: home + "/.outfitter/profiles/a.yml#/controls/append_system_prompt/0", Message: "Raw append_system_prompt entry looks like a file path; use { file: 'docs/guide.MD' }."},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tree := vfstest.Tree{userSettings: file(sources), "project/.outfitter/profiles": vfstest.Dir()}
			for k, v := range tc.profiles {
				tree[k] = v
			}
			fsys := memTree(t, tree)
			res, err := resolve.Load(fsys, resolve.Options{Agents: agents(), Home: home, Project: project, ProfileID: tc.id, AgentID: tc.agent})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			got, diags := res.AppendSystemPrompts(fsys, tc.agent)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("prompts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantDiags, diags, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAppendSystemPromptsFallback: the merged profile's entries are
// resolved together, so each diagnostic names its entry's index (a
// layer's entries are resolved one at a time, at index 0).
func TestAppendSystemPromptsFallback(t *testing.T) {
	t.Parallel()
	p, issue := resolve.ParseProfile([]byte("controls: {append_system_prompt: [{file: rel.md}, {repo_file: r.md}, text]}\n"), "m", "/m.yml", agents())
	if issue != nil {
		t.Fatal(issue)
	}
	res := &resolve.Result{Home: home, Profile: p}
	got, diags := res.AppendSystemPrompts(memTree(t, vfstest.Tree{"x": file("")}), "pi")
	if diff := cmp.Diff([]string{"text"}, got); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	want := []resolve.Diagnostic{
		{Severity: "warning", ProfileID: "<merged>", Path: "<profile>#/controls/append_system_prompt/0", Message: "Prompt file include 'rel.md' was not found."},
		{Severity: "warning", ProfileID: "<merged>", Path: "<profile>#/controls/append_system_prompt/1", Message: "Prompt repo_file include 'r.md' was not found."},
	}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestAppendSystemPromptsRawPaths: a raw entry is kept, and reported when
// it looks like a path by upstream's rule: trimmed, it has no space or
// newline, and starts with /, ./, ../ or ~/ and goes on, or has a slash
// and ends in a prompt file extension.
func TestAppendSystemPromptsRawPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		path bool
		why  string
	}{
		{raw: "/etc/motd", path: true},
		{raw: "./x", path: true},
		{raw: "../x", path: true},
		{raw: "~/x", path: true},
		{raw: "/", why: "a prefix alone is not a path"},
		{raw: "~/"},
		{raw: "docs/guide.MD", path: true, why: "the extension is matched in any case"},
		{raw: "a//b.prompt", path: true, why: "an empty segment still has a slash"},
		{raw: "a\tb/c.txt", path: true, why: "a tab is not a space"},
		{raw: "  docs/a.markdown \n", path: true, why: "trimmed first"},
		{raw: "\ufeffdocs/a.md", path: true, why: "JavaScript trims a byte order mark"},
		{raw: "\u0085docs/a.md", path: true, why: "JavaScript does not trim U+0085, which is still no space"},
		{raw: "a.md", why: "no slash"},
		{raw: "docs/a.mdx"},
		{raw: "see docs/a.md", why: "prose has spaces"},
		{raw: "line one\nline/two.md", why: "prose has newlines"},
		{raw: "/\r", why: "a line terminator is not the rest of a path"},
	}
	for _, tc := range tests {
		got, diags := resolve.AppendSystemPrompts(memTree(t, vfstest.Tree{"x": file("")}), resolve.PromptIncludes{}, "pi", []resolve.PromptEntry{{Kind: resolve.PromptText, Value: tc.raw}})
		if !slices.Equal(got, []string{tc.raw}) {
			t.Errorf("%q: prompts %q, want the entry kept", tc.raw, got)
		}
		var want []resolve.Diagnostic
		if tc.path {
			want = []resolve.Diagnostic{{Severity: "warning", ProfileID: "<merged>", Path: "<profile>#/controls/append_system_prompt/0",
				Message: "Raw append_system_prompt entry looks like a file path; use { file: '" + tc.raw + "' }."}}
		}
		if diff := cmp.Diff(want, diags); diff != "" {
			t.Errorf("%q (%s): diagnostics (-want +got):\n%s", tc.raw, tc.why, diff)
		}
	}
}
