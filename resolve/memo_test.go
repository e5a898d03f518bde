package resolve_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// cacheTree has two sources, a profile defined in both (collapsed), an
// inheritance chain, agent blocks, state persistence and filter lists, so
// that every part of a Result holds something a caller could modify.
func cacheTree(t *testing.T) vfstest.Tree {
	t.Helper()
	return vfstest.Tree{
		"home/.outfitter/settings.yml": file("default_profile: child\nprofile_export: true\nstartup: {ascii_art: false}\n" +
			"profile_sources:\n  - path: ./profiles\n    except: [ghost]\n  - path: ../extra\n" +
			"custom_settings:\n  team: {size: 3, tags: [a, b]}\n"),
		"home/.outfitter/profiles/base/profile.yml": file("id: base\nlabel: Base\ncontrols:\n  model: base-model\n  args: [--a]\n  extensions: [./ext]\n" +
			"  environment: {A: '1'}\n  skills: [{id: s1, references: [{file: r.md}]}]\n  pi: {session_directory: ./pi, args: [--p]}\n" +
			"state_persistence:\n  sessions: symlink\n"),
		"home/.outfitter/profiles/child/profile.yml": file("inherits: [base]\nlabel: Child\ncontrols:\n  environment: {B: '2'}\n" +
			"  session_directory: ./s\n  extensions: [../project/ext]\n  append_system_prompt: [hello, {file: p.md}]\n  deepwork: {jobs: [j1]}\n"),
		"home/.outfitter/profiles/ghost.yml": file("id: ghost\n"),
		"home/extra/child.yml":               file("inherits: [base]\ndescription: Extra\ncontrols:\n  extensions: [npm:x]\n  claude: {model: c}\n"),
		"project/.outfitter/settings.yml":    file("default_agent: claude\n"),
	}
}

// TestCacheGivesTheSameResults loads the same tree with and without a
// cache, several times, scribbling over every reachable part of each
// cached result in between: every load must equal the uncached one, so a
// caller that modifies its Result never changes what the cache gives next.
func TestCacheGivesTheSameResults(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, cacheTree(t))
	opts := resolve.Options{Agents: agents(), Home: home, Project: project}
	want, err := resolve.Load(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Layers) < 3 || len(want.Stack) != 2 {
		t.Fatalf("precondition: want a collapsed two-entry stack over three layers, got %d layers, %d stack entries", len(want.Layers), len(want.Stack))
	}
	opts.Cache = resolve.NewCache()
	for i := range 3 {
		got, err := resolve.Load(fsys, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, objectComparer); d != "" {
			t.Fatalf("load %d with a cache (-without +with):\n%s", i, d)
		}
		if d := cmp.Diff(string(want.Profile.GeneratedJSON()), string(got.Profile.GeneratedJSON())); d != "" {
			t.Fatalf("load %d: profile.json (-without +with):\n%s", i, d)
		}
		scribble(reflect.ValueOf(got))
		if cmp.Equal(want, got, objectComparer) {
			t.Fatalf("precondition: scribbling over load %d changed nothing", i)
		}
	}
}

// TestCacheResultsAreIndependent checks that two results from one cache
// share nothing: scribbling over the first leaves the second intact.
func TestCacheResultsAreIndependent(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, cacheTree(t))
	opts := resolve.Options{Agents: agents(), Home: home, Project: project, Cache: resolve.NewCache()}
	first, err := resolve.Load(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := resolve.Load(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	before := string(resolve.Stringify(second.Profile.Controls.Object, ""))
	keep, err := resolve.Load(fsys, resolve.Options{Agents: agents(), Home: home, Project: project})
	if err != nil {
		t.Fatal(err)
	}
	scribble(reflect.ValueOf(first))
	if d := cmp.Diff(keep, second, objectComparer); d != "" {
		t.Fatalf("second result after scribbling over the first (-want +got):\n%s", d)
	}
	if after := string(resolve.Stringify(second.Profile.Controls.Object, "")); after != before {
		t.Fatalf("controls changed from %s to %s", before, after)
	}
}

// TestCacheFollowsOptionsAndFiles runs a sequence of loads on one cache,
// changing the selected profile, the project and file contents in
// between: each load must equal a load without the cache, so no memoized
// file or resolution is reused for inputs it was not made from.
func TestCacheFollowsOptionsAndFiles(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, cacheTree(t))
	cache := resolve.NewCache()
	steps := []struct {
		name  string
		write map[string]string // file (below /w) -> new content
		opts  resolve.Options
	}{
		{name: "default profile", opts: resolve.Options{Agents: agents(), Home: home, Project: project}},
		{name: "another profile", opts: resolve.Options{Agents: agents(), Home: home, Project: project, ProfileID: "base"}},
		{name: "back to the default", opts: resolve.Options{Agents: agents(), Home: home, Project: project}},
		{name: "another project", opts: resolve.Options{Agents: agents(), Home: home, Project: "/w/other"}},
		{name: "missing profile", opts: resolve.Options{Agents: agents(), Home: home, Project: project, ProfileID: "nobody"}},
		{
			name:  "a parent changes",
			write: map[string]string{"home/.outfitter/profiles/base/profile.yml": "controls:\n  model: new-model\n  args: [--b]\n"},
			opts:  resolve.Options{Agents: agents(), Home: home, Project: project},
		},
		{
			name:  "a definition moves between sources",
			write: map[string]string{"home/extra/child.yml": "id: base\nlabel: Moved\n"},
			opts:  resolve.Options{Agents: agents(), Home: home, Project: project},
		},
		{
			name:  "a cycle",
			write: map[string]string{"home/.outfitter/profiles/base/profile.yml": "inherits: [child]\n"},
			opts:  resolve.Options{Agents: agents(), Home: home, Project: project},
		},
		{
			name:  "filters change",
			write: map[string]string{"project/.outfitter/settings.yml": "profile_sources:\n  - path: ../../home/.outfitter/profiles\n    only: [child]\n"},
			opts:  resolve.Options{Agents: agents(), Home: home, Project: project, ProfileID: "child"},
		},
	}
	for _, st := range steps {
		for name, text := range st.write {
			if err := fsys.WriteFile("/w/"+name, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, wantErr := resolve.Load(fsys, st.opts)
		opts := st.opts
		opts.Cache = cache
		for i := range 2 {
			got, err := resolve.Load(fsys, opts)
			if (wantErr == nil) != (err == nil) || wantErr != nil && wantErr.Error() != err.Error() {
				t.Fatalf("%s, load %d: error %v, want %v", st.name, i, err, wantErr)
			}
			if d := cmp.Diff(want, got, objectComparer); d != "" {
				t.Fatalf("%s, load %d (-without +with cache):\n%s", st.name, i, d)
			}
		}
	}
}

// scribble modifies, in place, every string, bool, slice element and
// Object entry reachable from v through exported fields and pointers.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if o, ok := v.Interface().(*resolve.Object); ok {
			scribbleObject(o)
			return
		}
		scribble(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scribble(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(v.String() + "~scribbled")
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	}
}

func scribbleObject(o *resolve.Object) {
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		switch v := v.(type) {
		case *resolve.Object:
			scribbleObject(v)
		case []any:
			for i, e := range v {
				if eo, ok := e.(*resolve.Object); ok {
					scribbleObject(eo)
				} else {
					v[i] = "scribbled"
				}
			}
		default:
			o.Set(k, "scribbled")
		}
	}
	o.Set("scribbled", true)
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
	opts := resolve.Options{Agents: agents(), Home: home, Project: project}
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

// TestCacheIssuesAreTheCallersOwn changes the issues of a failed cached
// load and checks that the next load from the same cache reports the
// original ones, for settings and for profile files.
func TestCacheIssuesAreTheCallersOwn(t *testing.T) {
	t.Parallel()
	for name, tree := range map[string]vfstest.Tree{
		"settings": {"home/.outfitter/settings.yml": file("default_profile: [1]\n")},
		"profile": {
			"home/.outfitter/settings.yml":           file("profile_sources:\n  - path: ./profiles\n"),
			"home/.outfitter/profiles/a/profile.yml": file("id: a\ncontrols: 3\n"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := memTree(t, tree)
			cache := resolve.NewCache()
			opts := resolve.Options{Agents: agents(), Home: "/w/home", Project: "/w/project", ProfileID: "a", Cache: cache}
			_, err := resolve.Load(fsys, opts)
			if err == nil {
				t.Fatal("the load did not fail: no issue to change")
			}
			want := err.Error()
			var se *resolve.SettingsError
			var pe *resolve.ProfilesError
			var issues []*resolve.Issue
			switch {
			case errors.As(err, &se):
				issues = se.Issues
			case errors.As(err, &pe):
				issues = pe.Issues
			}
			if len(issues) == 0 {
				t.Fatalf("error %T %v carries no issues", err, err)
			}
			for _, is := range issues {
				is.Message, is.File, is.Pointer = "changed", "changed", "changed"
			}
			if _, err := resolve.Load(fsys, opts); err == nil || err.Error() != want {
				t.Errorf("second load: %v, want %q", err, want)
			}
		})
	}
}
