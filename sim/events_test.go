package sim_test

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// eventsFixture has a profile that inherits one from a synced remote
// source, sets a model for pi and a control pi cannot translate, and
// prompts for mcp.json.
const eventsFixture = `
-- README.md --
Events of a run.
-- home/.outfitter/settings.yml --
default_profile: eng
profile_sources:
  - github: acme/catalog
    ref: v1
    path: profiles
  - path: ./profiles
-- home/.outfitter/profiles/eng/profile.yml --
id: eng
inherits: [base]
controls:
  temperature: 1
  pi:
    model: pi-model
state_persistence:
  mcp.json: prompt
-- project/.keep --
`

// eventsMachine loads eventsFixture and syncs the remote source's cache
// with the base profile.
func eventsMachine(t *testing.T) *vfs.MemFS {
	t.Helper()
	fx := loadFixture(t, eventsFixture, "events")
	m := fx.Clone()
	dir, err := resolve.SourceDirectory(report.HomeRoot, resolve.Source{GitHub: "acme/catalog", Ref: "v1", Path: "profiles"})
	if err != nil {
		t.Fatal(err)
	}
	vfstest.WriteFiles(t, m, "/", map[string]string{
		dir + "/base/profile.yml": "id: base\ncontrols:\n  model: base-model\n",
		"/tmp/.keep":              "",
	})
	return m
}

// TestEventsBeforeLaunch checks that everything upstream prints before
// the agent starts reaches the observer before the agent runs, in
// upstream's order, and the rest after it exits; the result holds the
// same lines.
func TestEventsBeforeLaunch(t *testing.T) {
	t.Parallel()
	m := eventsMachine(t)
	var got []string
	var summary *sim.LaunchSummary
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) {
		if e.Kind == sim.EventSummary {
			summary = e.Summary
		}
		for _, line := range strings.Split(e.Text, "\n") {
			got = append(got, string(e.Kind)+": "+line)
		}
	})
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		got = append(got, "agent starts")
		for name, data := range map[string]string{"mcp.json": "{\"a\":1}\n", "scratch.txt": "x\n"} {
			if err := s.FS.WriteFile(s.Root+"/"+name, []byte(data), 0o644); err != nil {
				return writeback.Exit{}, err
			}
		}
		return writeback.Exit{Exited: true}, nil
	})
	ask := writeback.PrompterFunc(func(_ context.Context, req writeback.PromptRequest) (writeback.Choice, error) {
		got = append(got, "prompt: "+req.Path)
		return writeback.ChoiceDiscard, nil
	})
	spec := sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Args: []string{"--print", "--debug"}, Interactive: true}
	res := sim.Execute(context.Background(), m, spec, agent, sim.Options{Observer: obs, Prompter: ask, TempDir: "/tmp"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	root := res.Root
	cache, _ := resolve.SourceDirectory(report.HomeRoot, resolve.Source{GitHub: "acme/catalog", Ref: "v1", Path: "profiles"})
	want := []string{
		"notice: --debug: keeping composite profile directory " + root,
		"warning: pi adapter cannot translate requested control 'temperature'.",
		"summary: → resolving profile eng",
		"summary: ✓ profile layer base  github:acme/catalog@v1/profiles",
		"summary: ✓ profile layer eng  " + report.HomeRoot + "/.outfitter/profiles/eng",
		"summary: ✓ merged controls  model=pi-model",
		"summary: ✓ prepared composite profile  " + root,
		"summary: ↳ launching pi …",
		"agent starts",
		"prompt: mcp.json",
		"notice: Discarded pi state write to 'mcp.json'.",
		"warning: pi wrote undeclared composite profile state 'scratch.txt' and it was not persisted.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if summary == nil || summary != res.Summary || path.Dir(cache) == "" {
		t.Errorf("the summary event's value %p is not the result's %p", summary, res.Summary)
	}
	var fromResult []string
	for _, w := range res.Warnings {
		fromResult = append(fromResult, "warning: "+w)
	}
	if diff := cmp.Diff([]string{want[1], want[11]}, fromResult); diff != "" {
		t.Errorf("result warnings differ from the events (-events +result):\n%s", diff)
	}
	if diff := cmp.Diff([]string{want[0][len("notice: "):], want[10][len("notice: "):]}, res.Messages); diff != "" {
		t.Errorf("result messages differ from the events (-events +result):\n%s", diff)
	}
}

// TestStrictEmitsNoWarnings checks that a --strict run whose pre-launch
// warnings fail it reports them in its error, not as warning events, and
// never starts the agent.
func TestStrictEmitsNoWarnings(t *testing.T) {
	t.Parallel()
	m := eventsMachine(t)
	var kinds []sim.EventKind
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) { kinds = append(kinds, e.Kind) })
	agent := sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) {
		t.Error("the agent started")
		return writeback.Exit{}, nil
	})
	spec := sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Strict: true}
	res := sim.Execute(context.Background(), m, spec, agent, sim.Options{Observer: obs, TempDir: "/tmp"})
	if res.Err == nil || res.ExitCode != 1 {
		t.Fatalf("strict run: err %v, exit code %d; want a failure", res.Err, res.ExitCode)
	}
	if len(kinds) != 0 {
		t.Errorf("events %v, want none", kinds)
	}
}

// TestDebugNoticeBeforeStrictFailure checks that a --strict run with
// --debug among its arguments reports the --debug notice, as upstream
// prints it as soon as the root exists, before its pre-launch warnings
// fail it; the result holds the notice and the kept root is the one it
// names.
func TestDebugNoticeBeforeStrictFailure(t *testing.T) {
	t.Parallel()
	m := eventsMachine(t)
	var got []string
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) { got = append(got, string(e.Kind)+": "+e.Text) })
	agent := sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) {
		t.Error("the agent started")
		return writeback.Exit{}, nil
	})
	spec := sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Strict: true, Args: []string{"--debug"}}
	res := sim.Execute(context.Background(), m, spec, agent, sim.Options{Observer: obs, TempDir: "/tmp"})
	if _, ok := errors.AsType[*composite.StrictError](res.Err); !ok || res.ExitCode != 1 {
		t.Fatalf("strict run: err %v, exit code %d; want a *composite.StrictError", res.Err, res.ExitCode)
	}
	entries, err := m.ReadDir("/tmp")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "outfitter-") {
			kept = append(kept, "/tmp/"+e.Name())
		}
	}
	if len(kept) != 1 {
		t.Fatalf("roots in /tmp: %q, want the one kept", kept)
	}
	notice := "--debug: keeping composite profile directory " + kept[0]
	if diff := cmp.Diff([]string{"notice: " + notice}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{notice}, res.Messages); diff != "" {
		t.Errorf("result messages (-want +got):\n%s", diff)
	}
}

func TestLaunchSummaryLines(t *testing.T) {
	t.Parallel()
	s := &sim.LaunchSummary{ProfileID: "outfitter-bootstrap", Root: "/tmp/outfitter-outfitter-bootstrap-pi-x", Agent: "pi"}
	want := []string{
		"→ resolving profile outfitter-bootstrap",
		"✓ merged controls",
		"✓ prepared composite profile  /tmp/outfitter-outfitter-bootstrap-pi-x",
		"↳ launching pi …",
	}
	if diff := cmp.Diff(want, s.Lines()); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestExportMessagesBeforeLaunch checks that the messages of the
// system-prompt export reach the observer when upstream prints them: the
// skip notice of a cache-backed profile before the agent starts (after
// the composite is written, before the summary), and again while the
// agent runs when a refresh exports anew; the result holds them too.
func TestExportMessagesBeforeLaunch(t *testing.T) {
	t.Parallel()
	m := newMachine(t, map[string]string{
		"/h/.outfitter/settings.yml":               "default_profile: eng\nprofile_export: true\nprofile_sources:\n  - path: ./cache/mine\n",
		"/h/.outfitter/cache/mine/eng/profile.yml": "id: eng\n",
	})
	var got []string
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) {
		if e.Kind == sim.EventSummary {
			got = append(got, "summary")
			return
		}
		got = append(got, string(e.Kind)+": "+e.Text)
	})
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		got = append(got, "agent starts")
		if err := s.Refresh(); err != nil {
			return writeback.Exit{}, err
		}
		got = append(got, "agent exits")
		return writeback.Exit{Exited: true}, nil
	})
	spec := sim.Spec{Home: "/h", Project: "/p"}
	res := sim.Execute(context.Background(), m, spec, agent, sim.Options{Observer: obs, TempDir: "/tmp"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	skipped := "System prompt export skipped for profile 'eng' because its source is cache-backed. Copy or symlink the profile into a local profile source to export generated prompts."
	login := "Outfitter will ask Pi to open `/login` automatically if Pi reports no available models after startup."
	want := []string{
		"message: " + skipped,
		"notice: " + login,
		"summary",
		"agent starts",
		"message: " + skipped,
		"refresh: ",
		"agent exits",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{skipped, login, skipped}, res.Messages); diff != "" {
		t.Errorf("result messages (-want +got):\n%s", diff)
	}
}

// TestSessionMessageIsAnEvent checks that a message the agent reports
// through its session reaches the observer as a message event, on
// standard error as Stderr says, while notices and summaries are on
// standard output; a session made outside a run drops messages.
func TestSessionMessageIsAnEvent(t *testing.T) {
	t.Parallel()
	m := eventsMachine(t)
	var got []string
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) {
		if e.Kind == sim.EventMessage {
			got = append(got, e.Text)
		}
	})
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		s.Message("Could not watch x: gone")
		return writeback.Exit{}, nil
	})
	spec := sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot}
	res := sim.Execute(context.Background(), m, spec, agent, sim.Options{Observer: obs, TempDir: "/tmp"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if diff := cmp.Diff([]string{"Could not watch x: gone"}, got); diff != "" {
		t.Errorf("message events (-want +got):\n%s", diff)
	}
	for kind, want := range map[sim.EventKind]bool{
		sim.EventWarning: true, sim.EventMessage: true,
		sim.EventNotice: false, sim.EventSummary: false, sim.EventRefresh: false,
	} {
		if kind.Stderr() != want {
			t.Errorf("%s.Stderr() = %v, want %v", kind, !want, want)
		}
	}
	(&sim.Session{}).Message("dropped") // must not panic
}

// TestRefreshRegeneratesTheComposite checks that a refresh while the
// agent runs plans the composite again from the edited profile: the
// refresh event names the regenerated profile document and the composite
// holds the new model.
func TestRefreshRegeneratesTheComposite(t *testing.T) {
	t.Parallel()
	const profile = "/h/.outfitter/profiles/eng/profile.yml"
	m := newMachine(t, map[string]string{
		"/h/.outfitter/settings.yml": "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		profile:                      "id: eng\ncontrols:\n  model: first-model\n",
	})
	var files [][]string
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) {
		if e.Kind == sim.EventRefresh {
			files = append(files, e.Files)
		}
	})
	var written []byte
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		if err := vfs.WriteFile(s.FS, profile, []byte("id: eng\ncontrols:\n  model: second-model\n"), 0o644); err != nil {
			return writeback.Exit{}, err
		}
		if err := s.Refresh(); err != nil {
			return writeback.Exit{}, err
		}
		var err error
		written, err = vfs.ReadFile(s.FS, path.Join(s.Root, "outfitter/profile.json"))
		return writeback.Exit{Exited: true}, err
	})
	res := sim.Execute(context.Background(), m, sim.Spec{Home: "/h", Project: "/p"}, agent, sim.Options{Observer: obs, TempDir: "/tmp"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(files) != 1 || !slices.Contains(files[0], "outfitter/profile.json") {
		t.Errorf("refresh events' files %q, want one refresh that wrote outfitter/profile.json", files)
	}
	if !strings.Contains(string(written), "second-model") {
		t.Errorf("outfitter/profile.json after the refresh:\n%s\nwant the edited model", written)
	}
}
