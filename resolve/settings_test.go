package resolve_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// Cache directory names of the remote repositories used below.
const (
	// git+https://github.com/example/outfitter-config.git#main
	exampleConfigMain = "Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9leGFtcGxlL291dGZpdHRlci1jb25maWcuZ2l0I21haW4"
	// git+https://github.com/acme/engineering-profiles.git#main
	acmeEngineeringMain = "Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9hY21lL2VuZ2luZWVyaW5nLXByb2ZpbGVzLmdpdCNtYWlu"
)

// settingsView is the comparable part of a settings load.
type settingsView struct {
	DefaultProfile, DefaultAgent, CacheDirectory string
	ProfileExport                                *bool
	Sources                                      []resolve.Source
	Remote                                       []resolve.RemoteSettings
	Custom                                       string
	ASCIIArt, Private                            *bool
	Paths                                        []string
	Issues                                       []string
}

func viewSettings(l *resolve.LoadedSettings) settingsView {
	s := l.Settings
	return settingsView{
		DefaultProfile: s.DefaultProfile, DefaultAgent: s.DefaultAgent, CacheDirectory: s.CacheDirectory,
		ProfileExport: s.ProfileExport, Sources: s.ProfileSources, Remote: s.RemoteSettings,
		Custom: string(resolve.Stringify(s.CustomSettings, "")), ASCIIArt: s.Startup.ASCIIArt,
		Private: s.Enterprise.PrivateProfileCatalogs, Paths: l.Paths(), Issues: issueList(l.Issues),
	}
}

const (
	userSettings   = "home/.outfitter/settings.yml"
	projSettings   = "project/.outfitter/settings.yml"
	localSettings  = "project/.outfitter/local/settings.yml"
	userSettingsA  = home + "/.outfitter/settings.yml"
	projSettingsA  = project + "/.outfitter/settings.yml"
	localSettingsA = project + "/.outfitter/local/settings.yml"
)

func TestLoadSettings(t *testing.T) {
	t.Parallel()
	remoteDir := home + "/.outfitter/cache/repos/" + exampleConfigMain
	tests := []struct {
		name string
		why  string
		tree vfstest.Tree
		want settingsView
	}{
		{
			name: "example A: project-local beats project beats user",
			tree: vfstest.Tree{
				userSettings:  file("default_profile: user-default\ndefault_agent: pi\ncache_directory: ./user-cache\nprofile_export: false\nprofile_sources: [{path: ./profiles}]\n"),
				projSettings:  file("default_profile: project-default\ndefault_agent: claude\ncache_directory: ./project-cache\n"),
				localSettings: file("default_profile: local-default\ncache_directory: ./local-cache\nprofile_export: true\n"),
			},
			want: settingsView{
				DefaultProfile: "local-default", DefaultAgent: "claude",
				CacheDirectory: project + "/.outfitter/local/local-cache", ProfileExport: ptr(true),
				Sources: []resolve.Source{{Path: home + "/.outfitter/profiles"}},
				Custom:  "{}", Paths: []string{userSettingsA, projSettingsA, localSettingsA},
			},
		},
		{
			name: "example B: custom_settings deep-merge, arrays replaced",
			tree: vfstest.Tree{
				userSettings: file("custom_settings: {build_commands: {lint: npm run lint, test: npm test}, tools: [eslint]}\n"),
				projSettings: file("custom_settings: {build_commands: {lint: npm run lint:ci}, tools: [prettier]}\n"),
			},
			want: settingsView{
				Custom: `{"build_commands":{"lint":"npm run lint:ci","test":"npm test"},"tools":["prettier"]}`,
				Paths:  []string{userSettingsA, projSettingsA},
			},
		},
		{
			name: "explicit null in custom_settings overrides a lower object",
			tree: vfstest.Tree{
				userSettings: file("custom_settings: {a: {b: 1}, keep: 2}\n"),
				projSettings: file("custom_settings: {a: null}\n"),
			},
			want: settingsView{Custom: `{"a":null,"keep":2}`, Paths: []string{userSettingsA, projSettingsA}},
		},
		{
			name: "example C: remote settings sit below local ones",
			tree: vfstest.Tree{
				userSettings: file("default_profile: local\nremote_settings: [{uri: git+https://github.com/example/outfitter-config.git, ref: main, path: settings.yml}]\n"),
				"home/.outfitter/cache/repos/" + exampleConfigMain + "/settings.yml": file("default_profile: remote\nprofile_sources: [{github: example/outfitter-config, path: remote-profiles}]\n"),
			},
			want: settingsView{
				DefaultProfile: "local",
				Sources:        []resolve.Source{{GitHub: "example/outfitter-config", Path: "remote-profiles"}},
				Remote:         []resolve.RemoteSettings{{URI: "git+https://github.com/example/outfitter-config.git", Ref: "main", Path: "settings.yml"}},
				Custom:         "{}", Paths: []string{remoteDir + "/settings.yml", userSettingsA},
			},
		},
		{
			name: "example C: a local profile_sources replaces the remote list",
			tree: vfstest.Tree{
				userSettings: file("profile_sources: [{path: ./local-profiles}]\nremote_settings: [{uri: git+https://github.com/example/outfitter-config.git, ref: main, path: settings.yml}]\n"),
				"home/.outfitter/cache/repos/" + exampleConfigMain + "/settings.yml": file("profile_sources: [{github: example/outfitter-config, path: remote-profiles}]\n"),
			},
			want: settingsView{
				Sources: []resolve.Source{{Path: home + "/.outfitter/local-profiles"}},
				Remote:  []resolve.RemoteSettings{{URI: "git+https://github.com/example/outfitter-config.git", Ref: "main", Path: "settings.yml"}},
				Custom:  "{}", Paths: []string{remoteDir + "/settings.yml", userSettingsA},
			},
		},
		{
			name: "remote settings.yml falls back to .outfitter/settings.yml",
			tree: vfstest.Tree{
				userSettings: file("remote_settings: [{github: example/outfitter-config, ref: main, path: settings.yml}]\n"),
				"home/.outfitter/cache/repos/" + exampleConfigMain + "/.outfitter/settings.yml": file("default_profile: nested\n"),
			},
			want: settingsView{
				DefaultProfile: "nested",
				Remote:         []resolve.RemoteSettings{{GitHub: "example/outfitter-config", Ref: "main", Path: "settings.yml"}},
				Custom:         "{}", Paths: []string{remoteDir + "/.outfitter/settings.yml", userSettingsA},
			},
		},
		{
			// Synced content: a remote file may not choose cache_directory
			// nor declare a local source outside its checkout; it
			// contributes nothing, a local one inside is kept.
			name: "a remote file's cache_directory and sources outside its checkout are issues",
			tree: vfstest.Tree{
				userSettings: file("remote_settings: [{github: example/outfitter-config, ref: main, path: settings.yml}, {github: example/outfitter-config, ref: main, path: ok.yml}]\n"),
				"home/.outfitter/cache/repos/" + exampleConfigMain + "/settings.yml": file("default_profile: nested\ncache_directory: ./cache\nprofile_sources: [{path: ../..}, {path: profiles}]\n"),
				"home/.outfitter/cache/repos/" + exampleConfigMain + "/ok.yml":       file("profile_sources: [{path: profiles}]\n"),
			},
			want: settingsView{
				Remote: []resolve.RemoteSettings{{GitHub: "example/outfitter-config", Ref: "main", Path: "settings.yml"}, {GitHub: "example/outfitter-config", Ref: "main", Path: "ok.yml"}},
				Custom: "{}", Paths: []string{remoteDir + "/ok.yml", userSettingsA},
				Sources: []resolve.Source{{Path: remoteDir + "/profiles"}},
				Issues: []string{
					remoteDir + "/settings.yml#/cache_directory cache_directory '" + remoteDir + "/cache' is set by a synced remote settings file; synced settings may not choose where the machine writes (set it in a local settings file).",
					remoteDir + "/settings.yml#/profile_sources/0/path Profile source '" + home + "/.outfitter/cache' of a synced remote settings file must stay inside its repository: " + home + "/.outfitter/cache lies outside the synced repository " + remoteDir + "; synced content is never read or written outside its checkout",
				},
			},
		},
		{
			name: "./settings.yml gets no fallback and an unsynced remote is ignored",
			tree: vfstest.Tree{
				userSettings: file("remote_settings: [{github: example/outfitter-config, ref: main, path: ./settings.yml}]\n"),
				"home/.outfitter/cache/repos/" + exampleConfigMain + "/.outfitter/settings.yml": file("default_profile: nested\n"),
			},
			want: settingsView{
				Remote: []resolve.RemoteSettings{{GitHub: "example/outfitter-config", Ref: "main", Path: "./settings.yml"}},
				Custom: "{}", Paths: []string{userSettingsA},
			},
		},
		{
			name: "remote_settings inside a remote file are not followed",
			tree: vfstest.Tree{
				userSettings: file("remote_settings: [{github: example/outfitter-config, ref: main, path: settings.yml}]\n"),
				"home/.outfitter/cache/repos/" + exampleConfigMain + "/settings.yml": file("remote_settings: [{github: other/repo, path: settings.yml}]\n"),
			},
			want: settingsView{
				Remote: []resolve.RemoteSettings{{GitHub: "example/outfitter-config", Ref: "main", Path: "settings.yml"}},
				Custom: "{}", Paths: []string{remoteDir + "/settings.yml", userSettingsA},
			},
		},
		{
			name: "absolute and escaping remote paths become issues; the user file still loads",
			tree: vfstest.Tree{
				userSettings: file("default_profile: mine\nremote_settings:\n  - {github: a/b, path: /etc/settings.yml}\n  - {github: a/b, path: ../../settings.yml}\n"),
			},
			want: settingsView{
				DefaultProfile: "mine",
				Remote:         []resolve.RemoteSettings{{GitHub: "a/b", Path: "/etc/settings.yml"}, {GitHub: "a/b", Path: "../../settings.yml"}},
				Custom:         "{}", Paths: []string{userSettingsA},
				Issues: []string{
					"remote_settings[0]#/remote_settings/0/path Remote repository path '/etc/settings.yml' must be relative.",
					"remote_settings[1]#/remote_settings/1/path Remote repository path '../../settings.yml' must stay inside the repository.",
				},
			},
		},
		{
			name: "startup and enterprise: project overrides user",
			tree: vfstest.Tree{
				userSettings: file("startup: {ascii_art: true}\nenterprise: {private_profile_catalogs: false}\n"),
				projSettings: file("startup: {ascii_art: false}\nenterprise: {private_profile_catalogs: true}\n"),
			},
			want: settingsView{Custom: "{}", ASCIIArt: ptr(false), Private: ptr(true), Paths: []string{userSettingsA, projSettingsA}},
		},
		{
			name: "example D: startup: {} keeps the lower value",
			why:  "upstream erases it (an accidental undefined copy); no output depends on it, so the port fixes it",
			tree: vfstest.Tree{
				projSettings:  file("startup: {ascii_art: false}\n"),
				localSettings: file("startup: {}\nenterprise: {}\n"),
			},
			want: settingsView{Custom: "{}", ASCIIArt: ptr(false), Paths: []string{projSettingsA, localSettingsA}},
		},
		{
			name: "profile_export true from a single file",
			tree: vfstest.Tree{userSettings: file("profile_export: true\n")},
			want: settingsView{ProfileExport: ptr(true), Custom: "{}", Paths: []string{userSettingsA}},
		},
		{
			name: "no settings at all: defaults, no files, no issues",
			tree: vfstest.Tree{"home/.keep": file("")},
			want: settingsView{Custom: "{}"},
		},
		{
			name: "every source shape validates and converts",
			why:  "local paths are absolutised against the file's directory, ~ is not expanded, remote paths stay relative",
			tree: vfstest.Tree{
				userSettings: file(`profile_sources:
  - path: ./profiles
  - path: /abs/profiles
  - path: ~/x
  - path: ../../shared
  - uri: https://example.test/team/profiles.git
    path: team
    ref: v1
    except: [old]
  - github: acme/x
    path: profiles
    only: [a, b]
`),
			},
			want: settingsView{
				Sources: []resolve.Source{
					{Path: home + "/.outfitter/profiles"},
					{Path: "/abs/profiles"},
					{Path: home + "/.outfitter/~/x"},
					{Path: "/w/shared"},
					{URI: "https://example.test/team/profiles.git", Path: "team", Ref: "v1", Except: []string{"old"}},
					{GitHub: "acme/x", Path: "profiles", Only: []string{"a", "b"}},
				},
				Custom: "{}", Paths: []string{userSettingsA},
			},
		},
		{
			name: "YAML 1.2 scalars: yes stays a string",
			tree: vfstest.Tree{userSettings: file("default_profile: yes\ndefault_agent: claude\n")},
			want: settingsView{DefaultProfile: "yes", DefaultAgent: "claude", Custom: "{}", Paths: []string{userSettingsA}},
		},
		{
			name: "home equal to project loads the user file twice",
			tree: vfstest.Tree{"project/.outfitter/settings.yml": file("default_profile: twice\n")},
			want: settingsView{DefaultProfile: "twice", Custom: "{}", Paths: []string{projSettingsA, projSettingsA}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := memTree(t, tc.tree)
			h := home
			if tc.name == "home equal to project loads the user file twice" {
				h = project
			}
			got, err := resolve.LoadSettings(fsys, h, project, agents())
			if err != nil {
				t.Fatalf("LoadSettings: %v", err)
			}
			if diff := cmp.Diff(tc.want, viewSettings(got), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("settings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadSettingsIssues(t *testing.T) {
	t.Parallel()
	// firstSource is the issues of the user settings' first profile
	// source, one a message.
	firstSource := func(messages ...string) []resolve.Issue {
		var out []resolve.Issue
		for _, m := range messages {
			out = append(out, resolve.Issue{File: userSettingsA, Pointer: "/profile_sources/0", Message: m})
		}
		return out
	}
	type issuesCase struct {
		name  string
		why   string
		tree  vfstest.Tree
		want  []resolve.Issue
		paths []string
	}
	tests := []issuesCase{
		{
			name:  "a dangling link is a missing file",
			why:   "only a path that stats and cannot be read is an error",
			tree:  vfstest.Tree{userSettings: vfstest.Link("nowhere.yml"), projSettings: file("default_profile: ok\n")},
			paths: []string{projSettingsA},
		},
		{
			name:  "a link loop is a missing file",
			why:   "only a path that stats and cannot be read is an error",
			tree:  vfstest.Tree{userSettings: vfstest.Link("settings.yml"), projSettings: file("default_profile: ok\n")},
			paths: []string{projSettingsA},
		},
		{
			name:  "a parent that is a file is a missing file",
			why:   "only a path that stats and cannot be read is an error",
			tree:  vfstest.Tree{"home/.outfitter": file("not a directory\n"), projSettings: file("default_profile: ok\n")},
			paths: []string{projSettingsA},
		},
		{
			name: "malformed YAML: file path as both file and pointer; other files still load",
			tree: vfstest.Tree{
				userSettings: file("default_profile: [unclosed\n"),
				projSettings: file("default_profile: ok\n"),
			},
			want:  []resolve.Issue{{File: userSettingsA, Pointer: userSettingsA}},
			paths: []string{projSettingsA},
		},
		{
			name: "tab-indented YAML is one parse issue",
			tree: vfstest.Tree{userSettings: file("startup:\n\tascii_art: true\n")},
			want: []resolve.Issue{{File: userSettingsA, Pointer: userSettingsA}},
		},
		{
			name: "duplicate keys are a parse issue",
			tree: vfstest.Tree{userSettings: file("default_profile: a\ndefault_profile: b\n")},
			want: []resolve.Issue{{File: userSettingsA, Pointer: userSettingsA}},
		},
		{
			name: "several documents are a parse issue",
			tree: vfstest.Tree{userSettings: file("default_profile: a\n---\ndefault_profile: b\n")},
			want: []resolve.Issue{{File: userSettingsA, Pointer: userSettingsA}},
		},
		{
			name: "a source with only 'only' lacks path",
			tree: vfstest.Tree{userSettings: file("profile_sources: [{only: [a]}]\n")},
			want: firstSource("must have required property 'path'", "must have required property 'uri'",
				"must have required property 'github'", "must match exactly one schema in oneOf"),
		},
		{
			name: "path with ref matches no shape",
			tree: vfstest.Tree{userSettings: file("profile_sources: [{path: ./p, ref: main}]\n")},
			want: firstSource("must NOT be valid", "must have required property 'uri'",
				"must have required property 'github'", "must match exactly one schema in oneOf"),
		},
		{
			name: "a typo'd key inside startup is one issue",
			tree: vfstest.Tree{userSettings: file("startup: {ascii_arts: false}\n")},
			want: []resolve.Issue{{File: userSettingsA, Pointer: "/startup", Message: "must NOT have additional properties"}},
		},
		{
			name:  "a typo'd top-level key is ignored",
			why:   "the settings schema allows unknown top-level keys",
			tree:  vfstest.Tree{userSettings: file("default_profiles: x\n")},
			paths: []string{userSettingsA},
		},
		{
			name: "every problem of a file is reported, in document order",
			tree: vfstest.Tree{userSettings: file("default_profile: ''\ndefault_agent: codex\nprofile_export: 'yes'\n")},
			want: []resolve.Issue{
				{File: userSettingsA, Pointer: "/default_profile", Message: "must NOT have fewer than 1 characters"},
				{File: userSettingsA, Pointer: "/default_agent", Message: "must be equal to one of the allowed values"},
				{File: userSettingsA, Pointer: "/profile_export", Message: "must be boolean"},
			},
		},
		{
			name: "a bad github repository name",
			tree: vfstest.Tree{userSettings: file("profile_sources: [{github: acme/x/y}]\n")},
			why:  "the github shape still holds, so only the pattern fails",
			want: []resolve.Issue{
				{File: userSettingsA, Pointer: "/profile_sources/0/github", Message: `must match pattern "^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$"`},
			},
		},
		{
			name: "local issues stop remote settings from being located",
			tree: vfstest.Tree{
				userSettings: file("remote_settings: [{github: a/b, path: /abs}]\n"),
				projSettings: file("default_agent: codex\n"),
			},
			want:  []resolve.Issue{{File: projSettingsA, Pointer: "/default_agent", Message: "must be equal to one of the allowed values"}},
			paths: []string{userSettingsA},
		},
	}
	for _, doc := range []string{"", "# only a comment\n", "~\n", "- a\n- b\n", "just text\n"} {
		tests = append(tests, issuesCase{
			name: "not a mapping: " + doc,
			tree: vfstest.Tree{userSettings: file(doc)},
			want: []resolve.Issue{{File: userSettingsA, Pointer: "/", Message: "must be object"}},
		})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := resolve.LoadSettings(memTree(t, tc.tree), home, project, agents())
			if err != nil {
				t.Fatalf("LoadSettings: %v", err)
			}
			var issues []resolve.Issue
			for _, is := range got.Issues {
				c := *is
				if c.File == c.Pointer {
					// YAML messages are the library's; only their location is pinned.
					if len(c.Message) < len("YAMLParseError: ") || c.Message[:16] != "YAMLParseError: " {
						t.Errorf("parse issue message %q lacks the YAMLParseError prefix", c.Message)
					}
					c.Message = ""
				}
				c.Err = nil
				issues = append(issues, c)
			}
			if diff := cmp.Diff(tc.want, issues, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.paths, got.Paths(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadSettingsUnreadable(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{userSettings: vfstest.Dir()})
	_, err := resolve.LoadSettings(fsys, home, project, agents())
	if err == nil {
		t.Fatal("LoadSettings of a directory settings path: got no error")
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Errorf("error %v is not a *fs.PathError", err)
	}
}

// TestSettingsFileKeys: each loaded file says which top-level keys it
// sets, in document order, including a key no schema knows (which the
// run accepts without a word, as upstream does).
func TestSettingsFileKeys(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{
		userSettings: vfstest.File("default_agent: pi\ndefualt_profile: x\ndefault_profile: base\n"),
		projSettings: vfstest.File("profile_sources:\n  - path: ./p\n"),
	})
	l, err := resolve.LoadSettings(fsys, home, project, agents())
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, f := range l.Files {
		got = append(got, f.Keys)
	}
	want := [][]string{{"default_agent", "defualt_profile", "default_profile"}, {"profile_sources"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if len(l.Issues) != 0 {
		t.Errorf("issues %v: an unknown key is not an issue of the run", l.Issues)
	}
}

// TestLoadSettingsWith reads the remote settings the caller chooses among
// those declared: none, or a subset, as a sync reloads with the entries
// that synced.
func TestLoadSettingsWith(t *testing.T) {
	t.Parallel()
	ok := resolve.RemoteSettings{GitHub: "example/ok", Ref: "main", Path: "settings.yml"}
	failed := resolve.RemoteSettings{GitHub: "example/failed", Ref: "main", Path: "settings.yml"}
	fsys := memTree(t, vfstest.Tree{
		userSettings: file("remote_settings:\n  - {github: example/ok, ref: main, path: settings.yml}\n  - {github: example/failed, ref: main, path: settings.yml}\n"),
	})
	vfstest.WriteFiles(t, fsys, "/", map[string]string{
		ok.CacheDir(home) + "/settings.yml":     "default_profile: from-ok\n",
		failed.CacheDir(home) + "/settings.yml": "default_profile: from-failed\n",
	})
	tests := []struct {
		name   string
		remote func([]resolve.RemoteSettings) []resolve.RemoteSettings
		want   string
		files  int
	}{
		{name: "declared", want: "from-failed", files: 3},
		{name: "none", remote: func([]resolve.RemoteSettings) []resolve.RemoteSettings { return nil }, want: "", files: 1},
		{name: "the ones that synced", remote: func(declared []resolve.RemoteSettings) []resolve.RemoteSettings {
			if len(declared) != 2 || declared[0] != ok {
				t.Errorf("declared %v", declared)
			}
			return []resolve.RemoteSettings{ok}
		}, want: "from-ok", files: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolve.LoadSettingsWith(fsys, home, project, agents(), tt.remote)
			if err != nil || len(got.Issues) > 0 {
				t.Fatalf("LoadSettingsWith: %v %v", err, got.Issues)
			}
			if got.Settings.DefaultProfile != tt.want || len(got.Files) != tt.files {
				t.Errorf("default_profile %q from %d files, want %q from %d", got.Settings.DefaultProfile, len(got.Files), tt.want, tt.files)
			}
		})
	}
}

// TestLoadCacheDirectory: the run's cache directory is the settings'
// cache_directory, resolved against the settings file, or
// ~/.outfitter/cache without one.
func TestLoadCacheDirectory(t *testing.T) {
	t.Parallel()
	for settings, want := range map[string]string{
		"default_profile: eng\n":                            home + "/.outfitter/cache",
		"default_profile: eng\ncache_directory: ./cache2\n": home + "/.outfitter/cache2",
	} {
		fsys := memTree(t, vfstest.Tree{userSettings: file(settings + "profile_sources: [{path: ./profiles}]\n"), "home/.outfitter/profiles/eng.yml": file("id: eng\n")})
		res, err := resolve.Load(fsys, resolve.Options{Agents: agents(), Home: home, Project: project})
		if err != nil {
			t.Fatalf("%q: Load: %v", settings, err)
		}
		if res.CacheDirectory != want {
			t.Errorf("%q: cache directory %q, want %q", settings, res.CacheDirectory, want)
		}
	}
}
