package sources_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// TestFetch caches extensions from local bare repositories: unpinned, at
// a tag, at a commit (the full-clone fallback), with npm dependencies.
func TestFetch(t *testing.T) {
	t.Parallel()
	env := gitEnv(t)
	r := newRepo(t, env, map[string]string{"index.js": "v0\n", "package.json": "{}\n"})
	first := r.git(r.work, "rev-parse", "HEAD")
	r.git(r.work, "tag", "v1")
	r.commit(map[string]string{"index.js": "v2\n", "package-lock.json": "{}\n"})
	r.push()
	cache := t.TempDir()
	dir := func(name string) string { return filepath.Join(cache, "extensions", "git", name) }
	tests := []struct {
		name     string
		c        composite.Checkout
		index    string
		npm      string
		commands func(d string) []string
		sidecar  string
	}{
		{
			name:  "unpinned",
			c:     composite.Checkout{Source: "git+" + r.URL(), URL: r.URL(), Dir: dir("a")},
			index: "v2\n", npm: "ci --omit=dev",
			commands: func(d string) []string {
				return []string{"git clone --depth 1 -- " + r.URL() + " " + d, d + " npm ci --omit=dev"}
			},
			sidecar: "{\n  \"source\": \"git+" + r.URL() + "\"\n}\n",
		},
		{
			name:  "a tag",
			c:     composite.Checkout{Source: "git+" + r.URL() + "#v1", URL: r.URL(), Ref: "v1", Pinned: true, Dir: dir("b")},
			index: "v0\n", npm: "install --omit=dev",
			commands: func(d string) []string {
				return []string{"git clone --depth 1 --branch v1 -- " + r.URL() + " " + d, d + " npm install --omit=dev"}
			},
			sidecar: "{\n  \"source\": \"git+" + r.URL() + "#v1\",\n  \"ref\": \"v1\"\n}\n",
		},
		{
			name:  "a commit",
			c:     composite.Checkout{Source: "x#" + first, URL: r.URL(), Ref: first, Pinned: true, Dir: dir("c")},
			index: "v0\n", npm: "install --omit=dev",
			commands: func(d string) []string {
				return []string{
					"git clone --depth 1 --branch " + first + " -- " + r.URL() + " " + d,
					"git clone -- " + r.URL() + " " + d,
					"git -C " + d + " checkout " + first,
					d + " npm install --omit=dev",
				}
			},
			sidecar: "{\n  \"source\": \"x#" + first + "\",\n  \"ref\": \"" + first + "\"\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := &recorder{git: sources.Exec{Env: env}}
			var progress []string
			err := sources.Fetch(context.Background(), osfs.New(), run, []composite.Checkout{tt.c}, func(s string) { progress = append(progress, s) })
			if err != nil {
				t.Fatal(err)
			}
			if got := read(t, filepath.Join(tt.c.Dir, "index.js")); got != tt.index {
				t.Errorf("index.js = %q, want %q", got, tt.index)
			}
			if got := read(t, filepath.Join(tt.c.Dir, "node_modules", ".installed")); got != tt.npm {
				t.Errorf("npm ran with %q, want %q", got, tt.npm)
			}
			if diff := cmp.Diff(tt.commands(tt.c.Dir), run.commands()); diff != "" {
				t.Errorf("commands (-want +got):\n%s", diff)
			}
			if got := read(t, tt.c.Dir+".source.json"); got != tt.sidecar {
				t.Errorf("sidecar = %q, want %q", got, tt.sidecar)
			}
			want := []string{"outfitter: caching extension " + tt.c.Source + "…", "outfitter: installing dependencies for extension " + tt.c.Source + "…"}
			if diff := cmp.Diff(want, progress); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
			// A checkout that exists is left alone.
			if err := sources.Fetch(context.Background(), osfs.New(), run, []composite.Checkout{tt.c}, nil); err != nil || len(run.commands()) != 0 {
				t.Errorf("second Fetch: %v; want nothing run", err)
			}
		})
	}
}

// TestFetchFails checks that a source that cannot be fetched stops the
// fetch with a clear error, leaves no checkout or sidecar behind, and
// fetches nothing after it.
func TestFetchFails(t *testing.T) {
	t.Parallel()
	env := gitEnv(t)
	cache := t.TempDir()
	missing := "file://" + filepath.Join(t.TempDir(), "nowhere.git")
	bad := composite.Checkout{Source: "git+" + missing, URL: missing, Dir: filepath.Join(cache, "extensions", "git", "bad")}
	later := composite.Checkout{Source: "later", URL: missing, Dir: filepath.Join(cache, "extensions", "git", "later")}
	run := &recorder{git: sources.Exec{Env: env}}
	err := sources.Fetch(context.Background(), osfs.New(), run, []composite.Checkout{bad, later}, nil)
	fe, ok := errors.AsType[*sources.FetchError](err)
	if !ok || fe.Source != bad.Source || fe.Dir != bad.Dir {
		t.Fatalf("Fetch error %v, want a *FetchError for %s", err, bad.Source)
	}
	if _, ok := errors.AsType[*sources.CommandError](err); !ok || !strings.Contains(err.Error(), "nowhere.git") {
		t.Errorf("error %q does not carry git's message", err)
	}
	for _, p := range []string{bad.Dir, bad.Dir + ".source.json", later.Dir} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind (%v)", p, err)
		}
	}
	if got := len(run.commands()); got != 1 {
		t.Errorf("%d commands run, want the one failed clone", got)
	}
}

// TestFetchFailsAndCannotClean: when the half-made checkout of a failed
// fetch cannot be removed either, the error says both, git's failure and
// the removal's.
func TestFetchFailsAndCannotClean(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	missing := "file://" + filepath.Join(t.TempDir(), "nowhere.git")
	bad := composite.Checkout{Source: "git+" + missing, URL: missing, Dir: filepath.Join(cache, "extensions", "git", "bad")}
	stuck := errors.New("device busy")
	fsys := faultfs.New(osfs.New(), faultfs.When(func(op faultfs.Op) bool { return op.Kind == faultfs.KindRemoveAll }, stuck))
	err := sources.Fetch(context.Background(), fsys, &recorder{git: sources.Exec{Env: gitEnv(t)}}, []composite.Checkout{bad}, nil)
	if _, ok := errors.AsType[*sources.FetchError](err); !ok || !errors.Is(err, stuck) || !strings.Contains(err.Error(), "nowhere.git") {
		t.Errorf("Fetch error %v, want a *FetchError naming git's failure and %q", err, stuck)
	}
}

// TestFetchRefusesOptionRef refuses a ref git would read as an option.
func TestFetchRefusesOptionRef(t *testing.T) {
	t.Parallel()
	run := &recorder{}
	c := composite.Checkout{Source: "x#--upload-pack=evil", URL: "file:///nowhere", Ref: "--upload-pack=evil", Pinned: true, Dir: filepath.Join(t.TempDir(), "x")}
	err := sources.Fetch(context.Background(), osfs.New(), run, []composite.Checkout{c}, nil)
	if re, ok := errors.AsType[*sources.RefError](err); !ok || re.Error() != "Git ref '--upload-pack=evil' must not start with '-'." {
		t.Errorf("Fetch error %v, want a *RefError", err)
	}
	if cmds := run.commands(); len(cmds) != 0 {
		t.Errorf("ran %q", cmds)
	}
}

// TestRefreshExtensions pulls the branch-tracking caches, leaves pinned
// ones, and reinstalls dependencies when the commit moved.
func TestRefreshExtensions(t *testing.T) {
	t.Parallel()
	env := gitEnv(t)
	r := newRepo(t, env, map[string]string{"index.js": "v1\n", "package.json": "{}\n"})
	r.git(r.work, "tag", "v1")
	r.push()
	cache := t.TempDir()
	root := filepath.Join(cache, "extensions", "git")
	tracking := composite.Checkout{Source: "git+" + r.URL(), URL: r.URL(), Dir: filepath.Join(root, "a-tracking")}
	pinned := composite.Checkout{Source: "git+" + r.URL() + "#v1", URL: r.URL(), Ref: "v1", Pinned: true, Dir: filepath.Join(root, "b-pinned")}
	run := &recorder{git: sources.Exec{Env: env}}
	if err := sources.Fetch(context.Background(), osfs.New(), run, []composite.Checkout{tracking, pinned}, nil); err != nil {
		t.Fatal(err)
	}
	// Caches without a sidecar, or with one that is not theirs, are skipped.
	if err := os.MkdirAll(filepath.Join(root, "c-bare"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "d-junk.source.json"), []byte("[1]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "d-junk"), 0o755); err != nil {
		t.Fatal(err)
	}
	next := r.commit(map[string]string{"index.js": "v2\n"})
	r.push()
	run.commands()
	var progress []string
	got, err := sources.RefreshExtensions(context.Background(), osfs.New(), run, cache, func(s string) { progress = append(progress, s) })
	if err != nil {
		t.Fatal(err)
	}
	want := []sources.ExtensionResult{
		{Source: tracking.Source, Dir: tracking.Dir, Status: sources.ExtensionRefreshed, Message: "updated to " + next},
		{Source: pinned.Source, Dir: pinned.Dir, Status: sources.ExtensionPinned, Message: "pinned to #v1; cache left unchanged"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if read(t, filepath.Join(tracking.Dir, "index.js")) != "v2\n" || read(t, filepath.Join(pinned.Dir, "index.js")) != "v1\n" {
		t.Errorf("checkouts not as refreshed")
	}
	if cmds := run.commands(); len(cmds) != 4 || cmds[3] != tracking.Dir+" npm install --omit=dev" {
		t.Errorf("commands %q, want rev-parse, pull, rev-parse, npm install", cmds)
	}
	wantProgress := []string{"outfitter: refreshing extension " + tracking.Source + "…", "outfitter: installing dependencies for extension " + tracking.Source + "…"}
	if diff := cmp.Diff(wantProgress, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	got, err = sources.RefreshExtensions(context.Background(), osfs.New(), run, cache, nil)
	if err != nil || len(got) != 2 || got[0].Status != sources.ExtensionUnchanged || got[0].Message != "already up to date" {
		t.Errorf("second refresh = %+v, %v; want the tracking cache unchanged", got, err)
	}
	// A cache directory without extensions is no error.
	if got, err := sources.RefreshExtensions(context.Background(), osfs.New(), run, t.TempDir(), nil); err != nil || got != nil {
		t.Errorf("empty cache: %v, %v", got, err)
	}
}
