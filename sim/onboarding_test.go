package sim_test

import (
	"context"
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// memGit is a Runner that plays git clone on a memory file system: the
// clone's directory gets the files of the repository named by the URL.
// Other git commands succeed; a URL it does not know fails like git.
type memGit struct {
	fsys  *vfs.MemFS
	repos map[string]map[string]string // URL → files
	calls []string
}

func (g *memGit) Run(_ context.Context, dir, name string, args ...string) (string, error) {
	g.calls = append(g.calls, strings.TrimSpace(dir+" "+name+" "+strings.Join(args, " ")))
	if name != "git" || args[0] != "clone" {
		return "", nil
	}
	url, into := args[len(args)-2], args[len(args)-1]
	files, ok := g.repos[url]
	if !ok {
		return "", &sources.CommandError{Name: name, Args: args, Stderr: "fatal: repository '" + url + "' not found\n"}
	}
	for rel, text := range files {
		p := path.Join(into, rel)
		if err := g.fsys.MkdirAll(path.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := g.fsys.WriteFile(p, []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return "", nil
}

var exitZero = sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) {
	return writeback.Exit{Exited: true}, nil
})

// TestFirstRunOnboarding runs pi without settings in an interactive
// session: the default profiles are synced, the bootstrap profile runs,
// quietStartup reaches the durable pi settings, the extension is stamped
// with the synced catalog and opens Outfitter, the /login notice is
// printed, and the summary names the bootstrap profile.
func TestFirstRunOnboarding(t *testing.T) {
	t.Parallel()
	m := newMachine(t, map[string]string{"/h/.pi/agent/settings.json": `{"theme":"dark"}`})
	url := "https://github.com/ai-outfitter/default-profiles.git"
	git := &memGit{fsys: m, repos: map[string]map[string]string{url: {"profiles/engineer/profile.yml": "id: engineer\n"}}}
	var notices []string
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) {
		if e.Kind == sim.EventNotice {
			notices = append(notices, e.Text)
		}
	})
	var ext string
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		data, err := s.FS.ReadFile(s.Root + "/outfitter/outfitter-extension.js")
		ext = string(data)
		return writeback.Exit{Exited: true}, err
	})
	spec := sim.Spec{Home: "/h", Project: "/p", Interactive: true, SetupSource: "file:///setup"}
	res := sim.Execute(context.Background(), m, spec, agent, sim.Options{Tools: git, Observer: obs, TempDir: "/tmp"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.ProfileID != sim.BootstrapProfileID || res.AgentID != "pi" {
		t.Errorf("ran %s with %s, want the bootstrap profile with pi", res.ProfileID, res.AgentID)
	}
	cacheDir := sim.DefaultProfilesSource.CacheDir("/h")
	want := []string{
		"outfitter: cloning catalog git+https://github.com/ai-outfitter/default-profiles.git:profiles…",
		composite.PiLoginNotice,
	}
	if diff := cmp.Diff(want, notices); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
	if got := git.calls; len(got) != 1 || got[0] != "git clone --depth 1 --single-branch -- "+url+" "+cacheDir {
		t.Errorf("git calls %q", got)
	}
	settings, _ := m.ReadFile("/h/.pi/agent/settings.json")
	if string(settings) != "{\n  \"theme\": \"dark\",\n  \"quietStartup\": true\n}\n" {
		t.Errorf("durable pi settings = %q", settings)
	}
	for _, line := range []string{
		`const OUTFITTER_DEFAULT_PROFILES_PATH = "` + cacheDir + `/profiles";`,
		`const OUTFITTER_SETUP_SOURCE_URI = "file:///setup";`,
		`const OUTFITTER_AUTO_OPEN = true;`,
		`const OUTFITTER_PROJECT = "/p";`,
		`const OUTFITTER_ACTIVE_PROFILE = {"id":"outfitter-bootstrap","label":"Outfitter Bootstrap"};`,
	} {
		if !strings.Contains(ext, line) {
			t.Errorf("extension lacks %s", line)
		}
	}
	if got := res.Summary.Lines()[0]; got != "→ resolving profile outfitter-bootstrap" || len(res.Summary.Layers) != 0 {
		t.Errorf("summary %q", res.Summary.Lines())
	}
	if slicesHas(res.Plan.Args, "--model") {
		t.Errorf("onboarding passes a model: %q", res.Plan.Args)
	}
}

func slicesHas(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// TestOnboardingConditions checks upstream's trigger conditions: any one
// missing, the run resolves the settings as usual (and, without them,
// fails for want of a profile) and git is never run.
func TestOnboardingConditions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		spec  sim.Spec
		tools bool
	}{
		{name: "settings exist", files: map[string]string{"/h/.outfitter/settings.yml": "default_agent: pi\n"}, spec: sim.Spec{Interactive: true}, tools: true},
		{name: "not interactive", tools: true},
		{name: "a profile is named", spec: sim.Spec{Interactive: true, Profile: "eng"}, tools: true},
		{name: "another agent", spec: sim.Spec{Interactive: true, Agent: "claude"}, tools: true},
		{name: "non-interactive arguments", spec: sim.Spec{Interactive: true, Args: []string{"--print", "hi"}}, tools: true},
		{name: "no tools", spec: sim.Spec{Interactive: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, tt.files)
			git := &memGit{fsys: m}
			opts := sim.Options{TempDir: "/tmp"}
			if tt.tools {
				opts.Tools = git
			}
			spec := tt.spec
			spec.Home, spec.Project = "/h", "/p"
			res := sim.Execute(context.Background(), m, spec, exitZero, opts)
			_, notFound := errors.AsType[*resolve.ResolveError](res.Err)
			if !errors.Is(res.Err, resolve.ErrNoProfile) && !(notFound && spec.Profile != "") {
				t.Errorf("run error %v, want the usual resolution's", res.Err)
			}
			if len(git.calls) != 0 {
				t.Errorf("git ran: %q", git.calls)
			}
		})
	}
}

// TestOnboardingSyncFails: an onboarding whose default profiles cannot be
// synced fails with upstream's message and starts nothing.
func TestOnboardingSyncFails(t *testing.T) {
	t.Parallel()
	m := newMachine(t, nil)
	git := &memGit{fsys: m}
	res := sim.Execute(context.Background(), m, sim.Spec{Home: "/h", Project: "/p", Interactive: true, ForceOnboarding: true}, exitZero, sim.Options{Tools: git, TempDir: "/tmp"})
	want := "Cannot start Pi-native onboarding because the default profiles source failed to sync: fatal: repository 'https://github.com/ai-outfitter/default-profiles.git' not found. Fix the network/git issue or run `outfitter setup` once the source is reachable."
	if _, ok := errors.AsType[*composite.OnboardingError](res.Err); !ok || res.Err.Error() != want {
		t.Errorf("run error %v\nwant %s", res.Err, want)
	}
	if res.Launched || res.ExitCode != 1 {
		t.Errorf("launched %v, exit code %d", res.Launched, res.ExitCode)
	}
}

// TestFetchBeforeLaunch: a profile's git extension is cached before the
// agent starts, which finds it at the path of its --extension; a source
// that cannot be fetched fails the run before the launch.
func TestFetchBeforeLaunch(t *testing.T) {
	t.Parallel()
	profile := "id: eng\ncontrols:\n  pi:\n    extensions: [\"git+https://example.test/ext.git#v1\"]\n"
	settings := "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n"
	for _, tt := range []struct {
		name  string
		repos map[string]map[string]string
		fail  bool
	}{
		{name: "fetched", repos: map[string]map[string]string{"https://example.test/ext.git": {"index.js": "x\n"}}},
		{name: "fetch fails", fail: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newMachine(t, map[string]string{"/h/.outfitter/settings.yml": settings, "/h/.outfitter/profiles/eng/profile.yml": profile})
			git := &memGit{fsys: m, repos: tt.repos}
			var found error
			agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
				for i, a := range s.Plan.Args {
					if a == "--extension" && strings.Contains(s.Plan.Args[i+1], "/extensions/git/") {
						_, found = s.FS.Stat(s.Plan.Args[i+1] + "/index.js")
					}
				}
				return writeback.Exit{Exited: true}, nil
			})
			res := sim.Execute(context.Background(), m, sim.Spec{Home: "/h", Project: "/p", Args: []string{"-p", "x"}}, agent, sim.Options{Tools: git, TempDir: "/tmp"})
			if tt.fail {
				if _, ok := errors.AsType[*sources.FetchError](res.Err); !ok || res.Launched {
					t.Errorf("run error %v (launched %v), want a FetchError before the launch", res.Err, res.Launched)
				}
				if _, err := m.Lstat(res.Root); err == nil {
					t.Errorf("composite root left behind")
				}
				return
			}
			if res.Err != nil || found != nil {
				t.Errorf("run error %v; the agent's extension: %v", res.Err, found)
			}
			if !slicesHas(res.Messages, "outfitter: caching extension git+https://example.test/ext.git#v1…") {
				t.Errorf("messages %q lack the caching notice", res.Messages)
			}
		})
	}
}
