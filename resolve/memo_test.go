package resolve_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestCacheGivesTheSameResults loads the same tree with and without a
// cache, twice, mutating the first cached result in between: every load
// must produce the same profile document and settings.
func TestCacheGivesTheSameResults(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{
		"home/.outfitter/settings.yml":               file("default_profile: child\nprofile_sources:\n  - path: ./profiles\ncustom_settings:\n  team: {size: 3}\n"),
		"home/.outfitter/profiles/base/profile.yml":  file("id: base\ncontrols:\n  model: base-model\n  environment: {A: '1'}\n"),
		"home/.outfitter/profiles/child/profile.yml": file("inherits: [base]\nlabel: Child\ncontrols:\n  environment: {B: '2'}\n  session_directory: ./s\n"),
		"project/.outfitter/settings.yml":            file("default_agent: claude\n"),
	})
	opts := resolve.Options{Home: home, Project: project}
	plain, err := resolve.Load(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := string(plain.Profile.GeneratedJSON())
	opts.Cache = resolve.NewCache()
	for i := range 3 {
		got, err := resolve.Load(fsys, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, string(got.Profile.GeneratedJSON())); d != "" {
			t.Fatalf("load %d with a cache (-without +with):\n%s", i, d)
		}
		wantCustom := string(resolve.Stringify(plain.Settings.CustomSettings, ""))
		if gotCustom := string(resolve.Stringify(got.Settings.CustomSettings, "")); got.AgentID != plain.AgentID || gotCustom != wantCustom {
			t.Fatalf("load %d: settings differ: agent %q, custom settings %s, want %s", i, got.AgentID, gotCustom, wantCustom)
		}
		// A caller that changes its result must not change the cache.
		got.Profile.Controls.Object.Set("model", "mutated")
		got.Settings.CustomSettings.Set("team", "mutated")
	}
}

// TestCacheKeepsIssues checks that invalid files give the same issues from
// the cache.
func TestCacheKeepsIssues(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{
		"home/.outfitter/settings.yml":             file("default_profile: bad\nprofile_sources:\n  - path: ./profiles\n"),
		"home/.outfitter/profiles/bad/profile.yml": file("controls:\n  model: [not, a, string]\n"),
		"project/.outfitter/local/settings.yml":    file("startup: {ascii_art: true}\n"),
	})
	opts := resolve.Options{Home: home, Project: project}
	_, want := resolve.Load(fsys, opts)
	if want == nil {
		t.Fatal("precondition: the tree must not resolve")
	}
	opts.Cache = resolve.NewCache()
	for i := range 2 {
		_, got := resolve.Load(fsys, opts)
		if got == nil || got.Error() != want.Error() {
			t.Fatalf("load %d with a cache: %v, want %v", i, got, want)
		}
	}
}
