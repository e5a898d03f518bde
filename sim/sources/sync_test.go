package sources_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

func writeFile(t testing.TB, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSync syncs remote settings and the remote profile sources they and
// the local settings name, from local bare repositories: the remote
// settings that synced are read again before the profile sources are
// listed, so a source that only the remote settings name is synced too,
// while a remote settings entry that failed contributes nothing.
func TestSync(t *testing.T) {
	t.Parallel()
	env := gitEnv(t)
	catalog := newRepo(t, env, map[string]string{
		"profiles/base/profile.yml": "id: base\n",
		"profiles/eng/profile.yml":  "id: eng\ninherits: [base]\n",
	})
	catalog.git(catalog.work, "tag", "v1")
	catalog.push()
	legacy := newRepo(t, env, map[string]string{"solo/profile.yml": "id: solo\n"})
	config := newRepo(t, env, map[string]string{
		"settings.yml": "profile_sources:\n  - uri: " + catalog.URL() + "\n    ref: v1\n    path: profiles\n  - uri: " + legacy.URL() + "\n",
	})
	missing := "file://" + filepath.Join(t.TempDir(), "missing.git")
	home, project := t.TempDir(), t.TempDir()
	writeFile(t, home+"/.outfitter/settings.yml", "remote_settings:\n  - uri: "+config.URL()+"\n    path: settings.yml\n  - uri: "+missing+"\n    path: settings.yml\n")
	run := &recorder{git: sources.Exec{Env: env}}
	var progress []string
	opts := sources.Options{Home: home, Project: project, Runner: run, Progress: func(s string) { progress = append(progress, s) }}
	got, err := sources.Sync(context.Background(), osfs.New(), opts)
	if err != nil {
		t.Fatal(err)
	}
	configDir := resolve.RemoteSettings{URI: config.URL(), Path: "settings.yml"}.CacheDir(home)
	missingDir := resolve.RemoteSettings{URI: missing, Path: "settings.yml"}.CacheDir(home)
	catalogSrc := resolve.Source{URI: catalog.URL(), Ref: "v1", Path: "profiles"}
	legacySrc := resolve.Source{URI: legacy.URL()}
	want := []string{
		"updated: " + config.URL() + ":settings.yml -> " + configDir + " (Remote settings file available at " + configDir + "/settings.yml.)",
		"failed: " + missing + ":settings.yml -> " + missingDir + " (",
		"updated: " + catalog.URL() + "#v1:profiles -> " + catalogSrc.CacheDir(home) + " (2 profiles validated.)",
		"updated: " + legacy.URL() + " -> " + legacySrc.CacheDir(home) + " (1 profile validated.)",
	}
	if len(got.Messages) != len(want) {
		t.Fatalf("messages %q, want %d", got.Messages, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(got.Messages[i], w) {
			t.Errorf("message %d = %q\nwant prefix  %q", i, got.Messages[i], w)
		}
	}
	if !strings.Contains(got.Messages[1], "missing.git") {
		t.Errorf("the failure %q does not carry git's message", got.Messages[1])
	}
	wantProgress := []string{
		"outfitter: cloning catalog " + config.URL() + ":settings.yml…",
		"outfitter: cloning catalog " + missing + ":settings.yml…",
		"outfitter: cloning catalog " + catalog.URL() + "#v1:profiles…",
		"outfitter: cloning catalog " + legacy.URL() + "…",
	}
	if diff := cmp.Diff(wantProgress, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	// The run path now finds the synced profiles.
	res, err := resolve.Load(osfs.New(), resolve.Options{Home: home, Project: project, ProfileID: "eng", Agents: composite.DefaultRegistry().Agents()})
	if err != nil {
		t.Fatalf("resolve after sync: %v", err)
	}
	if len(res.Layers) != 2 {
		t.Errorf("layers %d, want base and eng", len(res.Layers))
	}

	// A second sync updates the caches in place: fetch what the clone
	// tracks at its depth, then move to the new tip or check out the ref.
	catalog.commit(map[string]string{"profiles/ops/profile.yml": "id: ops\n"})
	catalog.git(catalog.work, "tag", "-f", "v1")
	catalog.git(catalog.work, "push", "-q", "-f", "--tags", "origin", "main")
	run.commands()
	progress = nil
	got, err = sources.Sync(context.Background(), osfs.New(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(got.Messages[2], "(3 profiles validated.)") {
		t.Errorf("after an update: %q, want 3 profiles", got.Messages[2])
	}
	catalogDir := catalogSrc.CacheDir(home)
	wantCmds := []string{
		"git -C " + catalogDir + " fetch --no-tags --no-recurse-submodules --depth 1 origin",
		"git -C " + catalogDir + " rev-parse --verify --quiet refs/remotes/origin/v1",
		"git -C " + catalogDir + " checkout v1",
	}
	cmds := run.commands()
	if !containsRun(cmds, wantCmds) {
		t.Errorf("commands %q lack %q", cmds, wantCmds)
	}
	if !strings.HasPrefix(progress[0], "outfitter: updating catalog ") {
		t.Errorf("progress %q, want updating", progress)
	}
}

// containsRun reports whether want occurs in got, in a row.
func containsRun(got, want []string) bool {
	for i := 0; i+len(want) <= len(got); i++ {
		if cmp.Equal(got[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// TestSyncChecks covers upstream's checks and messages with a runner that
// never reaches git: nothing configured, a ref that starts with '-', an
// unsafe path, credentials redacted from a failure, invalid settings; and,
// with a runner that fakes the clone, a missing remote settings file, a
// profile that does not parse, and a ref whose branch clone and then full
// clone (the ref may be a commit) fail without output.
func TestSyncChecks(t *testing.T) {
	t.Parallel()
	failing := runnerFunc(func(_ context.Context, _, name string, args ...string) (string, error) {
		return "", &sources.CommandError{Name: name, Args: args, Stderr: "fatal: could not read from https://user:secret@example.test/x.git\n"}
	})
	// cloning makes the cache directory with files in it, as a clone of
	// a repository holding them would; every other command fails.
	cloning := func(files map[string]string) sources.Runner {
		return runnerFunc(func(_ context.Context, _, name string, args ...string) (string, error) {
			if name != "git" || args[0] != "clone" {
				return "", &sources.CommandError{Name: name, Args: args}
			}
			dir := args[len(args)-1]
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return "", err
			}
			for f, text := range files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
					return "", err
				}
			}
			return "", nil
		})
	}
	acme, err := resolve.NewAgents(resolve.Agent{ID: "pi"}, resolve.Agent{ID: "acme", Block: `{"properties": {"flavor": {"type": "string"}}}`})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, settings string
		runner         sources.Runner
		agents         *resolve.Agents
		want           []string
		err            string
	}{
		{name: "nothing configured", settings: "default_profile: x\n", want: []string{"No URI profile or remote settings sources configured; nothing to sync."}},
		{
			name:     "an option ref",
			settings: "profile_sources:\n  - uri: https://example.test/x.git\n    ref: --upload-pack=evil\n",
			want:     []string{"failed: https://example.test/x.git#--upload-pack=evil -> <cache> (Git ref '--upload-pack=evil' must not start with '-'.)"},
		},
		{
			name:     "credentials redacted",
			settings: "profile_sources:\n  - uri: https://user:secret@example.test/x.git\n",
			want:     []string{"failed: https://REDACTED@example.test/x.git -> <cache> (fatal: could not read from https://REDACTED@example.test/x.git)"},
		},
		{
			name:     "an unsafe remote settings path",
			settings: "remote_settings:\n  - github: acme/config\n    path: ../escape.yml\n",
			want:     []string{"failed: git+https://github.com/acme/config.git:../escape.yml -> <cache> (Remote repository path '../escape.yml' must stay inside the repository.)"},
		},
		{name: "invalid settings", settings: "default_profile: [x]\n", err: "Cannot sync with invalid settings: "},
		{
			name:     "a remote settings file missing",
			settings: "remote_settings:\n  - github: acme/config\n    path: team.yml\n",
			runner:   cloning(map[string]string{"other.yml": "x: 1\n"}),
			want:     []string{"failed: git+https://github.com/acme/config.git:team.yml -> <cache> (Remote settings file not found: <cache>/team.yml)"},
		},
		{
			name:     "an invalid profile",
			settings: "profile_sources:\n  - uri: https://example.test/x.git\n",
			runner:   cloning(map[string]string{"bad.yml": "agents: [\n"}),
			want:     []string{"failed: https://example.test/x.git -> <cache> (Synced source failed profile validation: <cache>/bad.yml#/profile.yml YAMLParseError: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:\n\nagents: [\n\n^\n)"},
		},
		{
			name:     "a profile checked by the caller's agents",
			settings: "profile_sources:\n  - uri: https://example.test/x.git\n",
			runner:   cloning(map[string]string{"mint.yml": "id: mint\ncontrols:\n  acme:\n    flavor: 1\n"}),
			agents:   acme,
			want:     []string{"failed: https://example.test/x.git -> <cache> (Synced source failed profile validation: <cache>/mint.yml#/controls/acme/flavor must be string)"},
		},
		{
			name:     "a commit ref whose clone fails silently",
			settings: "profile_sources:\n  - uri: https://example.test/x.git\n    ref: 0123abc\n",
			runner: runnerFunc(func(_ context.Context, _, name string, args ...string) (string, error) {
				return "", &sources.CommandError{Name: name, Args: args}
			}),
			want: []string{"failed: https://example.test/x.git#0123abc -> <cache> (git clone -- https://example.test/x.git <cache> failed)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			writeFile(t, home+"/.outfitter/settings.yml", tt.settings)
			runner := tt.runner
			if runner == nil {
				runner = failing
			}
			got, err := sources.Sync(context.Background(), osfs.New(), sources.Options{Home: home, Project: t.TempDir(), Runner: runner, Agents: tt.agents})
			if tt.err != "" {
				if _, ok := errors.AsType[*sources.SettingsError](err); !ok || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("Sync error %v, want %s…", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for i, m := range got.Messages {
				if i < len(got.Sources) {
					m = strings.ReplaceAll(m, got.Sources[i].CacheDir, "<cache>")
				}
				msgs = append(msgs, m)
			}
			if diff := cmp.Diff(tt.want, msgs); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// runnerFunc adapts a function to sources.Runner.
type runnerFunc func(ctx context.Context, dir, name string, args ...string) (string, error)

func (f runnerFunc) Run(ctx context.Context, dir, name string, args ...string) (string, error) {
	return f(ctx, dir, name, args...)
}
