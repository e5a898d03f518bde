package resolve_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

var settingsSeeds = []string{
	"",
	"default_profile: a\nprofile_sources: [{path: ./profiles, only: [a]}]\n",
	"remote_settings: [{github: a/b, ref: main, path: ../settings.yml}]\n",
	"custom_settings: {a: &x {b: [1, 2]}, c: *x}\nstartup: {ascii_art: yes}\n",
	"\tdefault_profile: a\n",
	"a: 1\na: 2\n",
	"--- 1\n--- 2\n",
	"profile_sources: [{github: acme/x, uri: y}]\n",
}

// FuzzSettings feeds arbitrary bytes to the settings loader as the user
// settings file: it must never panic, and either load the file or report
// issues that name it.
func FuzzSettings(f *testing.F) {
	for _, s := range settingsSeeds {
		f.Add([]byte(s))
	}
	const name = home + "/.outfitter/settings.yml"
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := vfs.NewMemFS(vfs.MemOptions{})
		if err := fsys.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fsys.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := resolve.LoadSettings(fsys, home, project, agents())
		if err != nil {
			t.Fatalf("LoadSettings: %v", err)
		}
		loaded := len(got.Files) > 0 && got.Files[len(got.Files)-1].Path == name
		if !loaded && len(got.Issues) == 0 {
			t.Fatal("the file neither loaded nor produced issues")
		}
		for _, is := range got.Issues {
			// A loaded file can only come with issues about its remote references.
			if loaded && !strings.HasPrefix(is.File, "remote_settings[") || !loaded && is.File != name {
				t.Errorf("issue %v (loaded=%v) does not name the file", is, loaded)
			}
			if is.Message == "" || is.Pointer == "" {
				t.Errorf("issue %+v lacks a message or pointer", is)
			}
		}
		// The whole run never panics either.
		_, _ = resolve.Load(fsys, resolve.Options{Agents: agents(), Home: home, Project: project, CreateConventionalDirs: true})
	})
}

var profileSeeds = []string{
	"",
	"id: a\nlabel: A\ninherits: [b]\ncontrols: {model: m, args: [--x], pi: {system_prompt: s}}\n",
	"template: yes\n",
	"controls: {environment: {COUNT: 1}}\n",
	"- a\n",
	"id: 5\ncontrols: {skills: [x, {id: y, references: [{file: a}]}], append_system_prompt: {repo_file: r}}\n",
	"state_persistence: {a: symlink}\ncontrols: {deepwork: {jobs: [a_b]}, '1': x}\n",
	"controls:\n\tmodel: x\n",
}

// FuzzProfile feeds arbitrary bytes to the profile parser: it must never
// panic, and either return a profile or one issue naming the file; a
// parsed profile must resolve and serialise.
func FuzzProfile(f *testing.F) {
	for _, s := range profileSeeds {
		f.Add([]byte(s))
	}
	const name = "/src/p/profile.yml"
	f.Fuzz(func(t *testing.T, data []byte) {
		p, issue := resolve.ParseProfile(data, "p", name, agents())
		if (p == nil) == (issue == nil) {
			t.Fatalf("ParseProfile: profile %v and issue %v", p, issue)
		}
		if issue != nil {
			if issue.File != name || issue.Pointer == "" || issue.Message == "" {
				t.Fatalf("issue %+v does not name the file with a pointer and message", issue)
			}
			return
		}
		layers := []resolve.Layer{{ID: p.ID, ProfilePath: name, Profile: p}, {ID: p.ID, ProfilePath: name, Profile: p}}
		res := resolve.ResolveProfile(layers, p.ID, "/p")
		if res.Profile != nil {
			_ = res.Profile.GeneratedJSON()
		}
	})
}
