package resolve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func TestSourceDirectory(t *testing.T) {
	t.Parallel()
	repos := "/h/.outfitter/cache/repos/"
	tests := []struct {
		name string
		src  resolve.Source
		want string
	}{
		{"local path is itself", resolve.Source{Path: "/p/profiles"}, "/p/profiles"},
		{"github with ref", resolve.Source{GitHub: "acme/engineering-profiles", Ref: "main", Path: "profiles"}, repos + acmeEngineeringMain + "/profiles"},
		{"github with ref v1", resolve.Source{GitHub: "acme/outfitter-baseline", Ref: "v1"}, repos + "Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9hY21lL291dGZpdHRlci1iYXNlbGluZS5naXQjdjE"},
		{"github without ref ends in #", resolve.Source{GitHub: "acme/x"}, repos + "Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9hY21lL3guZ2l0Iw"},
		{"the same repository by uri shares the directory", resolve.Source{URI: "git+https://github.com/acme/x.git", Path: "."}, repos + "Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9hY21lL3guZ2l0Iw"},
		{"legacy uri cache", resolve.Source{URI: "https://example.test/team/profiles.git"}, "/h/.outfitter/cache/profiles/aHR0cHM6Ly9leGFtcGxlLnRlc3QvdGVhbS9wcm9maWxlcy5naXQ"},
		{"credentials are redacted", resolve.Source{URI: "git+https://u:p@github.com/acme/x.git", Ref: "v1"}, repos + "Z2l0K2h0dHBzOi8vUkVEQUNURURAZ2l0aHViLmNvbS9hY21lL3guZ2l0I3Yx"},
		{"a/../b and ..foo stay inside", resolve.Source{GitHub: "acme/x", Path: "a/../..foo"}, repos + "Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9hY21lL3guZ2l0Iw/..foo"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := resolve.SourceDirectory("/h", tc.src)
			if err != nil {
				t.Fatalf("SourceDirectory: %v", err)
			}
			if got != tc.want {
				t.Errorf("SourceDirectory = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSourceDirectoryUnsafe(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		"/abs":           "Remote repository path '/abs' must be relative.",
		"..":             "Remote repository path '..' must stay inside the repository.",
		"../..":          "Remote repository path '../..' must stay inside the repository.",
		"a/../../b":      "Remote repository path 'a/../../b' must stay inside the repository.",
		"profiles/../..": "Remote repository path 'profiles/../..' must stay inside the repository.",
	} {
		_, err := resolve.SourceDirectory("/h", resolve.Source{GitHub: "a/b", Path: p})
		var rp *resolve.RemotePathError
		if !errors.As(err, &rp) || err.Error() != want {
			t.Errorf("SourceDirectory(path %q) error = %v, want %q", p, err, want)
		}
	}
}

// layerView is the comparable part of a loaded layer.
type layerView struct {
	ID, SourceRoot, FolderPath, ProfilePath, ResourceRoot string
	Layout                                                resolve.Layout
}

func loadLayers(t *testing.T, fsys resolve.FS, sources ...resolve.Source) ([]layerView, []string) {
	t.Helper()
	dirs, err := resolve.MaterializeSources(fsys, home, sources)
	if err != nil {
		t.Fatalf("MaterializeSources: %v", err)
	}
	layers, issues := resolve.LoadProfiles(fsys, dirs, agents())
	var views []layerView
	for _, l := range layers {
		views = append(views, layerView{l.ID, l.SourceRoot, l.FolderPath, l.ProfilePath, l.ResourceRoot, l.Layout})
	}
	return views, issueList(issues)
}

func TestLoadProfiles(t *testing.T) {
	t.Parallel()
	const src = "/w/src"
	dirLayer := func(id, folder string) layerView {
		return layerView{id, src, src + "/" + folder, src + "/" + folder + "/profile.yml", src + "/" + folder, resolve.LayoutDirectory}
	}
	flatLayer := func(id, name string) layerView {
		return layerView{id, src, src, src + "/" + name, "", resolve.LayoutFlatFile}
	}
	tests := []struct {
		name       string
		why        string
		tree       vfstest.Tree
		source     resolve.Source
		wantLayers []layerView
		wantIssues []string
	}{
		{
			name:       "folder profile without id takes the folder name; README ignored",
			tree:       vfstest.Tree{"src/engineering/profile.yml": file("label: E\n"), "src/README.md": file("# hi\n")},
			wantLayers: []layerView{dirLayer("engineering", "engineering")},
		},
		{
			name: "flat files take their stem; a root profile.yml and profile.yaml are ignored",
			tree: vfstest.Tree{
				"src/engineer.yml": file("label: E\n"), "src/founder.yaml": file("{}\n"),
				"src/profile.yml": file("id: root\n"), "src/profile.yaml": file("id: root2\n"),
			},
			wantLayers: []layerView{flatLayer("engineer", "engineer.yml"), flatLayer("founder", "founder.yaml")},
		},
		{
			name:       "folders without profile.yml are ignored; profile.yaml inside is not recognised",
			tree:       vfstest.Tree{"src/a/profile.yaml": file("{}\n"), "src/b/notes.txt": file("x\n"), "src/c/profile.yml": file("{}\n")},
			wantLayers: []layerView{dirLayer("c", "c")},
		},
		{
			name: "same id several times in one source, sorted by name",
			why:  "code-unit order puts x before x.yaml before x.yml before y; the YAML id counts",
			tree: vfstest.Tree{
				"src/x/profile.yml": file("{}\n"), "src/x.yaml": file("{}\n"), "src/x.yml": file("{}\n"),
				"src/y/profile.yml": file("id: x\n"),
			},
			wantLayers: []layerView{dirLayer("x", "x"), flatLayer("x", "x.yaml"), flatLayer("x", "x.yml"), dirLayer("x", "y")},
		},
		{
			name:       "bad folder and file names are slug issues, sorted, nothing loaded from them",
			tree:       vfstest.Tree{"src/Bad Folder/profile.yml": file("{}\n"), "src/Bad File.yml": file("{}\n"), "src/good/profile.yml": file("{}\n")},
			wantLayers: []layerView{dirLayer("good", "good")},
			wantIssues: []string{
				src + "/Bad File.yml Profile slug 'Bad File' is not a filesystem-safe Outfitter profile id.",
				src + "/Bad Folder/profile.yml Profile slug 'Bad Folder' is not a filesystem-safe Outfitter profile id.",
			},
		},
		{
			name:       "only and except combine on the parsed id",
			tree:       vfstest.Tree{"src/base/profile.yml": file("{}\n"), "src/eng/profile.yml": file("id: engineering\n"), "src/other/profile.yml": file("{}\n")},
			source:     resolve.Source{Path: src, Only: []string{"base", "engineering"}, Except: []string{"base"}},
			wantLayers: []layerView{dirLayer("engineering", "eng")},
		},
		{
			name:   "only: [] keeps nothing",
			tree:   vfstest.Tree{"src/base/profile.yml": file("{}\n")},
			source: resolve.Source{Path: src, Only: []string{}},
		},
		{
			name:       "filters never hide errors",
			tree:       vfstest.Tree{"src/base/profile.yml": file("{}\n"), "src/.hidden.yml": file("{}\n")},
			source:     resolve.Source{Path: src, Only: []string{"base"}},
			wantLayers: []layerView{dirLayer("base", "base")},
			wantIssues: []string{src + "/.hidden.yml Profile slug '.hidden' is not a filesystem-safe Outfitter profile id."},
		},
		{
			name:       "a broken profile is reported at file#/profile.yml",
			tree:       vfstest.Tree{"src/p/profile.yml": file("a: [\n")},
			wantIssues: []string{src + "/p/profile.yml#/profile.yml YAMLParseError"},
		},
		{
			name:       "a missing source directory",
			tree:       vfstest.Tree{"other": vfstest.Dir()},
			wantIssues: []string{src + " Profile source must be an existing directory."},
		},
		{
			name:       "a source that is a file",
			tree:       vfstest.Tree{"src": file("x\n")},
			wantIssues: []string{src + " Profile source must be an existing directory."},
		},
		{
			name:       "one dangling link fails the whole source",
			tree:       vfstest.Tree{"src/a/profile.yml": file("{}\n"), "src/broken": vfstest.Link("nowhere")},
			wantIssues: []string{src + " Could not read profile source entries: stat " + src + "/broken"},
		},
		{
			name: "links to folders and files are followed",
			tree: vfstest.Tree{
				"real/p/profile.yml": file("{}\n"), "real/q.yml": file("{}\n"),
				"src/p": vfstest.Link("../real/p"), "src/q.yml": vfstest.Link("/w/real/q.yml"),
			},
			wantLayers: []layerView{dirLayer("p", "p"), flatLayer("q", "q.yml")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.source
			if s.Path == "" {
				s.Path = src
			}
			layers, issues := loadLayers(t, memTree(t, tc.tree), s)
			if diff := cmp.Diff(tc.wantLayers, layers, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("layers (-want +got):\n%s", diff)
			}
			if len(issues) != len(tc.wantIssues) {
				t.Fatalf("issues %q, want %q", issues, tc.wantIssues)
			}
			for i := range issues {
				if !strings.HasPrefix(issues[i], tc.wantIssues[i]) {
					t.Errorf("issue %d = %q, want prefix %q", i, issues[i], tc.wantIssues[i])
				}
			}
		})
	}
}

func TestLoadProfilesRemote(t *testing.T) {
	t.Parallel()
	cache := "home/.outfitter/cache/repos/" + acmeEngineeringMain
	fsys := memTree(t, vfstest.Tree{
		cache + "/profiles/team/profile.yml": file("id: team\n"),
		cache + "/root.yml":                  file("{}\n"),
		"home/.outfitter/cache/profiles/aHR0cHM6Ly9leGFtcGxlLnRlc3QvdGVhbS9wcm9maWxlcy5naXQ/legacy.yml": file("{}\n"),
	})
	remote := resolve.Source{GitHub: "acme/engineering-profiles", Ref: "main", Path: "profiles"}
	layers, issues := loadLayers(t, fsys,
		remote,
		resolve.Source{GitHub: "acme/engineering-profiles", Ref: "main"},
		resolve.Source{GitHub: "acme/never-synced", Path: "profiles"},
		resolve.Source{URI: "https://example.test/team/profiles.git"},
	)
	root := home + "/.outfitter/cache/repos/" + acmeEngineeringMain
	legacy := home + "/.outfitter/cache/profiles/aHR0cHM6Ly9leGFtcGxlLnRlc3QvdGVhbS9wcm9maWxlcy5naXQ"
	want := []layerView{
		{"team", root + "/profiles", root + "/profiles/team", root + "/profiles/team/profile.yml", root + "/profiles/team", resolve.LayoutDirectory},
		{"root", root, root, root + "/root.yml", "", resolve.LayoutFlatFile},
		{"legacy", legacy, legacy, legacy + "/legacy.yml", "", resolve.LayoutFlatFile},
	}
	if diff := cmp.Diff(want, layers); diff != "" {
		t.Errorf("layers (-want +got):\n%s", diff)
	}
	if len(issues) != 0 {
		t.Errorf("issues: %q", issues)
	}
	dirs, err := resolve.MaterializeSources(fsys, home, []resolve.Source{remote})
	if err != nil {
		t.Fatal(err)
	}
	all, _ := resolve.LoadProfiles(fsys, dirs, agents())
	if len(all) != 1 || all[0].Source.GitHub != "acme/engineering-profiles" || all[0].Source.Path != "profiles" {
		t.Errorf("remote layer keeps its configured source: got %+v", all)
	}
}

func TestLoadRunErrors(t *testing.T) {
	t.Parallel()
	const sources = "profile_sources: [{path: ./profiles}]\n"
	tests := []struct {
		name    string
		why     string
		tree    vfstest.Tree
		opts    resolve.Options
		want    string
		wantErr any
	}{
		{
			name:    "invalid settings",
			tree:    vfstest.Tree{userSettings: file("default_agent: codex\n")},
			want:    "Cannot run with invalid settings: " + userSettingsA + "#/default_agent must be equal to one of the allowed values",
			wantErr: new(*resolve.SettingsError),
		},
		{
			name:    "remote settings path issues are settings issues",
			tree:    vfstest.Tree{userSettings: file("remote_settings: [{github: a/b, path: ../../x.yml}]\n")},
			want:    "Cannot run with invalid settings: remote_settings[0]#/remote_settings/0/path Remote repository path '../../x.yml' must stay inside the repository.",
			wantErr: new(*resolve.SettingsError),
		},
		{
			name:    "an escaping remote profile path is raised unprefixed",
			tree:    vfstest.Tree{userSettings: file("default_profile: a\nprofile_sources: [{github: a/b, path: ../..}]\n")},
			want:    "Remote repository path '../..' must stay inside the repository.",
			wantErr: new(*resolve.RemotePathError),
		},
		{
			name:    "a source path that does not exist",
			tree:    vfstest.Tree{userSettings: file("default_profile: a\nprofile_sources: [{path: ./missing}]\n")},
			want:    "Cannot run with invalid profiles: " + home + "/.outfitter/missing Profile source must be an existing directory.",
			wantErr: new(*resolve.ProfilesError),
		},
		{
			name:    "invalid profiles come before the missing selection",
			tree:    vfstest.Tree{userSettings: file(sources), "home/.outfitter/profiles/Bad.yml": file("{}\n")},
			want:    "Cannot run with invalid profiles: " + home + "/.outfitter/profiles/Bad.yml Profile slug 'Bad' is not a filesystem-safe Outfitter profile id.",
			wantErr: new(*resolve.ProfilesError),
		},
		{
			name: "no selection",
			tree: vfstest.Tree{userSettings: file(sources), "home/.outfitter/profiles/a.yml": file("{}\n")},
			want: "Cannot run without a selected profile or default_profile in settings.yml; pass --profile or run `outfitter setup`.",
		},
		{
			name:    "missing default profile",
			tree:    vfstest.Tree{userSettings: file("default_profile: missing\n" + sources), "home/.outfitter/profiles/a.yml": file("{}\n")},
			want:    "Cannot resolve profile 'missing': /profiles/missing Profile 'missing' was not found.",
			wantErr: new(*resolve.ResolveError),
		},
		{
			name: "no profile_sources means no profiles",
			why:  "there is no implicit profile directory",
			tree: vfstest.Tree{userSettings: file("default_profile: a\n"), "home/.outfitter/profiles/a.yml": file("{}\n")},
			want: "Cannot resolve profile 'a': /profiles/a Profile 'a' was not found.",
		},
		{
			name:    "a profile inheriting itself",
			tree:    vfstest.Tree{userSettings: file(sources), "home/.outfitter/profiles/a.yml": file("inherits: [a]\n")},
			opts:    resolve.Options{ProfileID: "a"},
			want:    "Cannot resolve profile 'a': /profiles/a/inherits Profile inheritance cycle detected: a -> a",
			wantErr: new(*resolve.CycleError),
		},
		{
			name:    "selecting a template directly",
			tree:    vfstest.Tree{userSettings: file(sources), "home/.outfitter/profiles/prose.yml": file("template: true\n")},
			opts:    resolve.Options{ProfileID: "prose"},
			want:    "Profile 'prose' is a template profile and must be inherited by a runnable profile.",
			wantErr: new(*resolve.TemplateError),
		},
		{
			name: "selecting a template through default_profile",
			tree: vfstest.Tree{userSettings: file("default_profile: prose\n" + sources), "home/.outfitter/profiles/prose.yml": file("template: true\n")},
			want: "Profile 'prose' is a template profile and must be inherited by a runnable profile.",
		},
		{
			name:    "unknown agent",
			tree:    vfstest.Tree{userSettings: file(sources), "home/.outfitter/profiles/a.yml": file("{}\n")},
			opts:    resolve.Options{ProfileID: "a", AgentID: "codex"},
			want:    "Unknown agent 'codex'. Expected one of: pi, claude.",
			wantErr: new(*resolve.AgentError),
		},
		{
			name: "the conventional profiles directory is created only when asked",
			tree: vfstest.Tree{userSettings: file("default_profile: a\n" + sources)},
			want: "Cannot run with invalid profiles: " + home + "/.outfitter/profiles Profile source must be an existing directory.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			opts.Home, opts.Project, opts.Agents = home, project, agents()
			res, err := resolve.Load(memTree(t, tc.tree), opts)
			if err == nil {
				t.Fatalf("Load: got %+v, want error %q", res, tc.want)
			}
			if res != nil {
				t.Errorf("Load returned a result with an error")
			}
			if err.Error() != tc.want {
				t.Errorf("error:\n got %q\nwant %q", err.Error(), tc.want)
			}
			if tc.wantErr != nil && !errors.As(err, tc.wantErr) {
				t.Errorf("error %T does not match %T", err, tc.wantErr)
			}
		})
	}
}

func TestLoadCreatesConventionalDirs(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{
		userSettings:                     file("profile_sources: [{github: ai-outfitter/default-profiles, path: profiles}, {path: ./profiles}, {path: ./other}]\n"),
		projSettings:                     file("profile_sources: [{path: ./profiles}, {path: ../../home/.outfitter/profiles}]\n"),
		"home/.outfitter/other/x.yml":    file("{}\n"),
		"home/.outfitter/profiles/a.yml": file("{}\n"),
	})
	res, err := resolve.Load(fsys, resolve.Options{Agents: agents(), Home: home, Project: project, ProfileID: "a", CreateConventionalDirs: true})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	info, err := vfs.Stat(fsys, project+"/.outfitter/profiles")
	if err != nil || !info.IsDir() {
		t.Errorf("project profiles dir not created: %v", err)
	}
	if _, err := vfs.Stat(fsys, home+"/.outfitter/cache"); err == nil {
		t.Errorf("remote cache directory was created")
	}
	if diff := cmp.Diff([]string{home + "/.outfitter/profiles/a.yml"}, res.ProfilePaths); diff != "" {
		t.Errorf("profile paths (-want +got):\n%s", diff)
	}
}

func TestLoadSource(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{"src/a.yml": file("{}\n")})
	layers, issues := resolve.LoadSource(fsys, resolve.Source{URI: "https://example.test/p.git"}, agents())
	if diff := cmp.Diff([]string{"https://example.test/p.git Only local profile sources can be loaded directly."}, issueList(issues)); diff != "" || layers != nil {
		t.Errorf("uri source: layers %v, issues (-want +got):\n%s", layers, diff)
	}
	layers, issues = resolve.LoadSource(fsys, resolve.Source{Path: "/w/src"}, agents())
	if len(issues) != 0 || len(layers) != 1 || layers[0].ID != "a" {
		t.Errorf("local source: layers %+v, issues %v", layers, issueList(issues))
	}
}

func TestLoadDefaultCatalog(t *testing.T) {
	t.Parallel()
	const catalog = "Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9haS1vdXRmaXR0ZXIvZGVmYXVsdC1wcm9maWxlcy5naXQj"
	settings := "default_profile: engineer\nprofile_sources:\n  - {github: ai-outfitter/default-profiles, path: profiles}\n  - {github: acme/never-synced}\n  - {path: ./profiles}\n"
	tests := []struct {
		name      string
		tree      vfstest.Tree
		wantPaths []string
	}{
		{
			name:      "an unsynced catalog is skipped and the created home directory is empty",
			tree:      vfstest.Tree{userSettings: file(settings + "  - {path: ./local}\n"), "home/.outfitter/local/engineer.yml": file("{}\n")},
			wantPaths: []string{home + "/.outfitter/local/engineer.yml"},
		},
		{
			name: "a synced catalog loads from the repository cache",
			tree: vfstest.Tree{
				userSettings: file(settings),
				"home/.outfitter/cache/repos/" + catalog + "/profiles/engineer/profile.yml": file("label: Engineer\n"),
			},
			wantPaths: []string{home + "/.outfitter/cache/repos/" + catalog + "/profiles/engineer/profile.yml"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := memTree(t, tc.tree)
			res, err := resolve.Load(fsys, resolve.Options{Agents: agents(), Home: home, Project: project, CreateConventionalDirs: true})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(tc.wantPaths, res.ProfilePaths); diff != "" {
				t.Errorf("profile paths (-want +got):\n%s", diff)
			}
			if info, err := vfs.Stat(fsys, home+"/.outfitter/profiles"); err != nil || !info.IsDir() {
				t.Errorf("~/.outfitter/profiles not created: %v", err)
			}
		})
	}
}

// TestLoadSourceThroughLinks checks that a source's entries that are links
// count as what they point at, and that a dangling one fails the source.
func TestLoadSourceThroughLinks(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{
		"elsewhere/team/profile.yml": file("id: team\n"),
		"elsewhere/solo.yml":         file("id: solo\n"),
		"src/a.yml":                  file("{}\n"),
		"src/team":                   vfstest.Link("../elsewhere/team"),
		"src/solo.yml":               vfstest.Link("../elsewhere/solo.yml"),
	})
	layers, issues := resolve.LoadSource(fsys, resolve.Source{Path: "/w/src"}, agents())
	var got []string
	for _, l := range layers {
		got = append(got, l.ID+" "+string(l.Layout))
	}
	want := []string{"a " + string(resolve.LayoutFlatFile), "solo " + string(resolve.LayoutFlatFile), "team " + string(resolve.LayoutDirectory)}
	if diff := cmp.Diff(want, got); diff != "" || len(issues) != 0 {
		t.Errorf("layers (-want +got):\n%s\nissues: %v", diff, issueList(issues))
	}
	if err := fsys.Symlink("missing", "/w/src/dangling"); err != nil {
		t.Fatal(err)
	}
	if layers, issues := resolve.LoadSource(fsys, resolve.Source{Path: "/w/src"}, agents()); len(issues) == 0 {
		t.Errorf("a dangling entry: layers %+v and no issue", layers)
	}
}

// TestLoadSourceUninspectable: a source directory that cannot be
// inspected (here a link loop) is one issue naming it and why, not a
// missing directory.
func TestLoadSourceUninspectable(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{"a": vfstest.Link("b"), "b": vfstest.Link("a")})
	_, issues := resolve.LoadSource(fsys, resolve.Source{Path: "/w/a"}, agents())
	if len(issues) != 1 || issues[0].File != "/w/a" || issues[0].Message != "Could not inspect profile source: stat /w/a: too many levels of symbolic links" {
		t.Errorf("issues %v, want the one that the source could not be inspected", issueList(issues))
	}
}
