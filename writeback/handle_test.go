package writeback_test

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

const profileDir = home + "/.outfitter/profiles/default"

// TestWorkedExample is §4.7 end to end: a non-interactive pi run of a
// profile with cache/: warn, mcp.json: prompt and unknown: warn.
func TestWorkedExample(t *testing.T) {
	t.Parallel()
	paths := piPaths(strategies{"cache/": composite.StrategyWarn, "mcp.json": composite.StrategyPrompt, composite.UnknownPath: composite.StrategyWarn})
	settings := profileDir + "/cli_specific/pi/settings.json"
	for i := range paths {
		if paths[i].RelativePath == "settings.json" {
			paths[i].SourcePath = settings
		}
	}
	durable := vfstest.Tree{
		"home/u/.outfitter/profiles/default/profile.yml":                   vfstest.File("state_persistence:\n  cache/: warn\n  mcp.json: prompt\n  unknown: warn\n"),
		"home/u/.outfitter/profiles/default/cli_specific/pi/settings.json": vfstest.File(`{"theme":"dark"}`),
		"home/u/.pi/agent/auth.json":                                       vfstest.File("token"),
	}
	fsys := materialize(t, durable, generated, paths)
	baseline, err := writeback.Snapshot(fsys, root, paths)
	must(t, err)
	for rel, text := range map[string]string{
		"settings.json":   `{"theme":"light"}`,
		"cache/entry.txt": "cached",
		"mcp.json":        `{"mcpServers":{}}`,
		"unexpected.txt":  "x",
	} {
		must(t, vfs.WriteFile(fsys, path.Join(root, rel), []byte(text), 0o644))
	}
	issues, err := writeback.Detect(fsys, root, paths, baseline)
	must(t, err)
	// An injected prompter must not be asked in a non-interactive session.
	ask := writeback.PrompterFunc(func(context.Context, writeback.PromptRequest) (writeback.Choice, error) {
		t.Error("prompter called in a non-interactive session")
		return writeback.ChoiceDiscard, nil
	})
	r, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{Agent: "pi", Prompter: ask})
	must(t, err)
	want := []string{
		"pi wrote 'cache/' with state_persistence 'warn' and it was not persisted.",
		"pi wrote 'mcp.json' with state_persistence 'prompt' and it was not persisted.",
		"state_persistence prompt for 'mcp.json' skipped: non-interactive session.",
		"pi wrote undeclared composite profile state 'unexpected.txt' and it was not persisted.",
	}
	if diff := cmp.Diff(want, r.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if data, err := vfs.ReadFile(fsys, settings); err != nil || string(data) != `{"theme":"light"}` {
		t.Errorf("profile-owned settings.json = %q, %v; want the agent's write", data, err)
	}
	if _, err := vfs.Lstat(fsys, piAgent+"/mcp.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("~/.pi/agent/mcp.json: Lstat error %v, want it not created", err)
	}
	if err := composite.Strict(true, "pi", r.Warnings); errString(err) != "Strict failed for pi: "+strings.Join(want, "; ") {
		t.Errorf("strict error = %v", err)
	}
}

// promptRun is a pi composite in which the agent changed the prompt paths
// mcp.json (file) and plugins/ (directory).
func promptRun(t *testing.T) (*vfs.MemFS, []composite.StatePath, []writeback.Issue) {
	t.Helper()
	paths := piPaths(strategies{"mcp.json": composite.StrategyPrompt, "plugins/": composite.StrategyPrompt})
	durable := vfstest.Tree{
		"home/u/.pi/agent/plugins/kept.txt":        vfstest.File("only in source"),
		"home/u/.pi/agent/plugins/shared.txt":      vfstest.File("old"),
		"home/u/.outfitter/profiles/default.yml":   vfstest.File("# my profile\nid: default # the id\nstate_persistence:\n  mcp.json: prompt # ask me\n"),
		"home/u/.outfitter/profiles/no-block.yml":  vfstest.File("# header\nlabel: X\n"),
		"home/u/.outfitter/profiles/not-a-map.yml": vfstest.File("- a\n"),
	}
	fsys := materialize(t, durable, nil, paths)
	baseline, err := writeback.Snapshot(fsys, root, paths)
	must(t, err)
	put(t, fsys, root, map[string]string{
		"mcp.json":               `{"mcpServers":{"x":{}}}`,
		"plugins/shared.txt":     "new",
		"plugins/nested/a.txt":   "a",
		"plugins/link":           "-> ../elsewhere",
		"outfitter/profile.json": "{}",
	})
	issues, err := writeback.Detect(fsys, root, paths, baseline)
	must(t, err)
	want := []writeback.Issue{
		{Path: "mcp.json", Strategy: composite.StrategyPrompt},
		{Path: "plugins/", Strategy: composite.StrategyPrompt},
	}
	if diff := cmp.Diff(want, issues); diff != "" {
		t.Fatalf("precondition: issues (-want +got):\n%s", diff)
	}
	return fsys, paths, issues
}

// answers returns a prompter that answers from choices by declared key and
// records what it was asked.
func answers(choices map[string]writeback.Choice, asked *[]writeback.PromptRequest) writeback.Prompter {
	return writeback.PrompterFunc(func(_ context.Context, req writeback.PromptRequest) (writeback.Choice, error) {
		*asked = append(*asked, req)
		return choices[req.Path], nil
	})
}

func TestHandlePrompt(t *testing.T) {
	t.Parallel()
	mcp, plugins := piAgent+"/mcp.json", piAgent+"/plugins"
	tests := []struct {
		name, why   string
		choices     map[string]writeback.Choice
		profile     writeback.Profile
		decls       []composite.Declaration
		wantWarn    []string
		wantNotices []string
		wantWrites  []writeback.Write
		wantFiles   map[string]string // durable path -> content ("" = absent)
	}{
		{
			name:        "discard",
			choices:     map[string]writeback.Choice{"mcp.json": writeback.ChoiceDiscard, "plugins/": writeback.ChoiceDiscard},
			wantNotices: []string{"Discarded pi state write to 'mcp.json'.", "Discarded pi state write to 'plugins/'."},
			wantFiles:   map[string]string{mcp: "", plugins + "/shared.txt": "old", plugins + "/nested/a.txt": ""},
		},
		{
			name:        "persist",
			why:         "a directory is merged into its source: files only there are kept",
			choices:     map[string]writeback.Choice{"mcp.json": writeback.ChoicePersist, "plugins/": writeback.ChoicePersist},
			wantNotices: []string{"Persisted pi state write 'mcp.json' to " + mcp + ".", "Persisted pi state write 'plugins/' to " + plugins + "."},
			wantWrites:  []writeback.Write{{Kind: writeback.WritePersist, Path: "mcp.json", Target: mcp}, {Kind: writeback.WritePersist, Path: "plugins/", Target: plugins}},
			wantFiles: map[string]string{
				mcp: `{"mcpServers":{"x":{}}}`, plugins + "/shared.txt": "new", plugins + "/kept.txt": "only in source",
				plugins + "/nested/a.txt": "a", plugins + "/link": "-> ../elsewhere",
			},
		},
		{
			name:        "always, local profile",
			choices:     map[string]writeback.Choice{"mcp.json": writeback.ChoiceAlways, "plugins/": writeback.ChoiceDiscard},
			profile:     writeback.Profile{ID: "default", File: home + "/.outfitter/profiles/default.yml"},
			decls:       []composite.Declaration{{Key: "mcp.json", Allowed: []composite.Strategy{composite.StrategySymlink, composite.StrategyPrompt}}},
			wantNotices: []string{"Persisted pi state write 'mcp.json' to " + mcp + ".", "Discarded pi state write to 'plugins/'."},
			wantWrites:  []writeback.Write{{Kind: writeback.WritePersist, Path: "mcp.json", Target: mcp}, {Kind: writeback.WriteRecord, Path: "mcp.json", Target: home + "/.outfitter/profiles/default.yml"}},
			wantFiles: map[string]string{
				mcp: `{"mcpServers":{"x":{}}}`,
				home + "/.outfitter/profiles/default.yml": "# my profile\nid: default # the id\nstate_persistence:\n  mcp.json: symlink # ask me\n",
			},
		},
		{
			name:        "always, profile without a state_persistence block",
			choices:     map[string]writeback.Choice{"mcp.json": writeback.ChoiceAlways, "plugins/": writeback.ChoiceAlways},
			profile:     writeback.Profile{ID: "no-block", File: home + "/.outfitter/profiles/no-block.yml"},
			decls:       []composite.Declaration{{Key: "mcp.json", Allowed: []composite.Strategy{composite.StrategySymlink}}, {Key: "plugins/", Allowed: []composite.Strategy{composite.StrategySymlink}}},
			wantNotices: []string{"Persisted pi state write 'mcp.json' to " + mcp + ".", "Persisted pi state write 'plugins/' to " + plugins + "."},
			wantWrites: []writeback.Write{
				{Kind: writeback.WritePersist, Path: "mcp.json", Target: mcp}, {Kind: writeback.WriteRecord, Path: "mcp.json", Target: home + "/.outfitter/profiles/no-block.yml"},
				{Kind: writeback.WritePersist, Path: "plugins/", Target: plugins}, {Kind: writeback.WriteRecord, Path: "plugins/", Target: home + "/.outfitter/profiles/no-block.yml"},
			},
			wantFiles: map[string]string{home + "/.outfitter/profiles/no-block.yml": "# header\nlabel: X\nstate_persistence:\n  mcp.json: symlink\n  plugins/: symlink\n"},
		},
		{
			name:        "always, remote profile",
			choices:     map[string]writeback.Choice{"mcp.json": writeback.ChoiceAlways, "plugins/": writeback.ChoiceDiscard},
			profile:     writeback.Profile{ID: "default", File: home + "/.outfitter/profiles/default.yml", Remote: true},
			decls:       []composite.Declaration{{Key: "mcp.json", Allowed: []composite.Strategy{composite.StrategySymlink}}},
			wantWarn:    []string{"Cannot record the always-persist choice for 'mcp.json' because profile 'default' is not a local profile file; the write was persisted once."},
			wantNotices: []string{"Persisted pi state write 'mcp.json' to " + mcp + ".", "Discarded pi state write to 'plugins/'."},
			wantWrites:  []writeback.Write{{Kind: writeback.WritePersist, Path: "mcp.json", Target: mcp}},
			wantFiles:   map[string]string{home + "/.outfitter/profiles/default.yml": "# my profile\nid: default # the id\nstate_persistence:\n  mcp.json: prompt # ask me\n"},
		},
		{
			name:        "always, adapter does not allow symlink",
			choices:     map[string]writeback.Choice{"mcp.json": writeback.ChoiceAlways, "plugins/": writeback.ChoiceDiscard},
			profile:     writeback.Profile{ID: "default", File: home + "/.outfitter/profiles/default.yml"},
			decls:       []composite.Declaration{{Key: "mcp.json", Allowed: []composite.Strategy{composite.StrategyPrompt}}},
			wantWarn:    []string{"Cannot always-persist 'mcp.json': the pi adapter does not allow 'symlink' for it; the write was persisted once."},
			wantNotices: []string{"Persisted pi state write 'mcp.json' to " + mcp + ".", "Discarded pi state write to 'plugins/'."},
			wantWrites:  []writeback.Write{{Kind: writeback.WritePersist, Path: "mcp.json", Target: mcp}},
		},
		{
			name:        "always, profile file not a mapping",
			choices:     map[string]writeback.Choice{"mcp.json": writeback.ChoiceAlways, "plugins/": writeback.ChoiceDiscard},
			profile:     writeback.Profile{ID: "not-a-map", File: home + "/.outfitter/profiles/not-a-map.yml"},
			decls:       []composite.Declaration{{Key: "mcp.json", Allowed: []composite.Strategy{composite.StrategySymlink}}},
			wantWarn:    []string{"Cannot record the always-persist choice for 'mcp.json' in " + home + "/.outfitter/profiles/not-a-map.yml: profile file " + home + "/.outfitter/profiles/not-a-map.yml: top level is not a mapping; the write was persisted once."},
			wantNotices: []string{"Persisted pi state write 'mcp.json' to " + mcp + ".", "Discarded pi state write to 'plugins/'."},
			wantWrites:  []writeback.Write{{Kind: writeback.WritePersist, Path: "mcp.json", Target: mcp}},
			wantFiles:   map[string]string{home + "/.outfitter/profiles/not-a-map.yml": "- a\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys, paths, issues := promptRun(t)
			var asked []writeback.PromptRequest
			r, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{
				Agent: "pi", Interactive: true, Prompter: answers(tt.choices, &asked),
				Profile: tt.profile, Declarations: tt.decls,
			})
			must(t, err)
			wantAsked := []writeback.PromptRequest{{Agent: "pi", Path: "mcp.json", SourcePath: mcp}, {Agent: "pi", Path: "plugins/", SourcePath: plugins}}
			if diff := cmp.Diff(wantAsked, asked); diff != "" {
				t.Errorf("prompts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWarn, r.Warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNotices, r.Notices); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWrites, r.Writes); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			for name, want := range tt.wantFiles {
				if got := describe(fsys, name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

// describe returns the content of a file, "-> target" for a link, or ""
// when nothing is there.
func describe(fsys vfs.FS, name string) string {
	e, err := vfs.EntryOf(fsys, name)
	switch {
	case err != nil:
		return ""
	case e.Type == vfs.TypeSymlink:
		return "-> " + e.Target
	}
	return string(e.Data)
}

func TestHandlePersistFailures(t *testing.T) {
	t.Parallel()
	t.Run("prompt directory deleted by the agent", func(t *testing.T) {
		t.Parallel()
		fsys, paths, issues := promptRun(t)
		must(t, vfs.RemoveAll(fsys, root+"/plugins"))
		r, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{
			Agent: "pi", Interactive: true,
			Prompter: answers(map[string]writeback.Choice{"mcp.json": writeback.ChoiceDiscard, "plugins/": writeback.ChoicePersist}, new([]writeback.PromptRequest)),
		})
		must(t, err)
		want := []string{"Could not persist state path 'plugins/': Error: State path 'plugins/' no longer exists in the composite profile, so it cannot be persisted."}
		if diff := cmp.Diff(want, r.Warnings); diff != "" {
			t.Errorf("warnings (-want +got):\n%s", diff)
		}
		if len(r.Writes) != 0 {
			t.Errorf("writes = %v, want none", r.Writes)
		}
	})
	persistErrors := []struct {
		name string
		sp   composite.StatePath
		want string
	}{
		{"no source path", composite.StatePath{RelativePath: "mcp.json", Strategy: composite.StrategyPrompt},
			"State path 'mcp.json' cannot be persisted without a durable source path."},
		{"escaping key", composite.StatePath{RelativePath: "../outside.txt", SourcePath: "/x"},
			"State path '../outside.txt' must stay under compositeProfile root '" + root + "'."},
		{"directory source for a file", composite.StatePath{RelativePath: "mcp.json", SourcePath: piAgent + "/plugins"},
			"State source path '" + piAgent + "/plugins' must be a file."},
		{"file source for a directory", composite.StatePath{RelativePath: "plugins/", SourcePath: piAgent + "/auth.json", Directory: true},
			"State source path '" + piAgent + "/auth.json' must be a directory."},
	}
	for _, tt := range persistErrors {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys, _, _ := promptRun(t)
			if got := errString(writeback.Persist(fsys, root, tt.sp)); got != tt.want {
				t.Errorf("Persist error = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("directory onto a file", func(t *testing.T) {
		t.Parallel()
		fsys, _, _ := promptRun(t)
		err := writeback.Persist(fsys, root, composite.StatePath{RelativePath: "plugins/", SourcePath: piAgent + "/auth.json"})
		if !errors.Is(err, vfs.ErrNotDir) {
			t.Errorf("Persist error = %v, want ErrNotDir", err)
		}
	})
	t.Run("prompter fails", func(t *testing.T) {
		t.Parallel()
		fsys, paths, issues := promptRun(t)
		boom := errors.New("boom")
		_, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{
			Agent: "pi", Interactive: true,
			Prompter: writeback.PrompterFunc(func(context.Context, writeback.PromptRequest) (writeback.Choice, error) { return "", boom }),
		})
		if !errors.Is(err, boom) {
			t.Errorf("Handle error = %v, want it to wrap the prompter's", err)
		}
	})
	t.Run("invalid choice", func(t *testing.T) {
		t.Parallel()
		fsys, paths, issues := promptRun(t)
		_, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{
			Agent: "pi", Interactive: true,
			Prompter: answers(map[string]writeback.Choice{"mcp.json": "maybe"}, new([]writeback.PromptRequest)),
		})
		if err == nil || !strings.Contains(err.Error(), `invalid choice "maybe"`) {
			t.Errorf("Handle error = %v, want an invalid choice", err)
		}
	})
}

func TestPersistCreatesMissingSource(t *testing.T) {
	t.Parallel()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.Build(t, fsys, root, vfstest.Tree{"models.json": vfstest.File(""), "trust.json": vfstest.File("{\"a\":1}")})
	must(t, writeback.Persist(fsys, root, composite.StatePath{RelativePath: "models.json", SourcePath: home + "/new/models.json"}))
	if data, err := vfs.ReadFile(fsys, home+"/new/models.json"); err != nil || len(data) != 0 {
		t.Errorf("models.json = %q, %v; want the agent's empty file copied over the JSON default", data, err)
	}
}

// TestHandleErrorStops checks that the first error issue stops the
// processing: earlier prompt choices stay applied, later issues are not
// examined.
func TestHandleErrorStops(t *testing.T) {
	t.Parallel()
	fsys, paths, _ := promptRun(t)
	issues := []writeback.Issue{
		{Path: "mcp.json", Strategy: composite.StrategyPrompt},
		{Path: "cache/", Strategy: composite.StrategyWarn},
		{Path: "settings.json", Strategy: composite.StrategyError},
		{Path: "plugins/", Strategy: composite.StrategyPrompt},
		{Path: "z", Strategy: composite.StrategyError, Unknown: true},
	}
	var asked []writeback.PromptRequest
	r, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{
		Agent: "pi", Interactive: true, Strict: true,
		Prompter: answers(map[string]writeback.Choice{"mcp.json": writeback.ChoicePersist, "plugins/": writeback.ChoicePersist}, &asked),
	})
	var se *writeback.StateWriteError
	if !errors.As(err, &se) || se.Issue != issues[2] {
		t.Fatalf("Handle error = %v, want a StateWriteError for settings.json", err)
	}
	if got, want := err.Error(), "pi wrote 'settings.json' with state_persistence 'error' and it was not persisted."; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	if len(asked) != 1 || len(r.Writes) != 1 || describe(fsys, piAgent+"/mcp.json") == "" {
		t.Errorf("asked %v, writes %v: want the mcp.json persist applied and nothing after the error", asked, r.Writes)
	}
}

// TestHandleNotifiesBeforeTheNextPrompt checks that each confirmation
// reaches Notify as it is made, before the next prompt is asked, as
// upstream prints it on the terminal between two questions.
func TestHandleNotifiesBeforeTheNextPrompt(t *testing.T) {
	t.Parallel()
	fsys, paths, _ := promptRun(t)
	issues := []writeback.Issue{
		{Path: "mcp.json", Strategy: composite.StrategyPrompt},
		{Path: "plugins/", Strategy: composite.StrategyPrompt},
	}
	var events []string
	ask := writeback.PrompterFunc(func(_ context.Context, req writeback.PromptRequest) (writeback.Choice, error) {
		events = append(events, "ask "+req.Path)
		if req.Path == "mcp.json" {
			return writeback.ChoiceDiscard, nil
		}
		return writeback.ChoicePersist, nil
	})
	r, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{
		Agent: "pi", Interactive: true, Prompter: ask,
		Notify: func(line string) { events = append(events, "notify "+line) },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ask mcp.json",
		"notify Discarded pi state write to 'mcp.json'.",
		"ask plugins/",
		"notify Persisted pi state write 'plugins/' to " + piAgent + "/plugins.",
	}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("order of prompts and confirmations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(r.Notices, []string{want[1][len("notify "):], want[3][len("notify "):]}); diff != "" {
		t.Errorf("report notices differ from what Notify got (-report +notified):\n%s", diff)
	}
}

func TestHandleStrict(t *testing.T) {
	t.Parallel()
	fsys, paths, _ := promptRun(t)
	_, err := writeback.Handle(context.Background(), fsys, root, paths, []writeback.Issue{{Path: "a", Strategy: composite.StrategyWarn, Unknown: true}, {Path: "cache/", Strategy: composite.StrategySymlink}}, writeback.Options{Agent: "mock-agent", Strict: true})
	want := "Strict failed for mock-agent: mock-agent wrote undeclared composite profile state 'a' and it was not persisted.; mock-agent replaced symlinked state path 'cache/' and the change was not persisted."
	if errString(err) != want {
		t.Errorf("Handle strict error = %q, want %q", errString(err), want)
	}
	if se, ok := errors.AsType[*composite.StrictError](err); !ok || se.Agent != "mock-agent" || len(se.Warnings) != 2 {
		t.Errorf("Handle strict error %#v, want a *composite.StrictError of mock-agent with 2 warnings", err)
	}
}

func TestExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		exit writeback.Exit
		err  error
		want int
	}{
		{name: "code", exit: writeback.Exit{Exited: true, Code: 7}, want: 7},
		{name: "zero", exit: writeback.Exit{Exited: true}, want: 0},
		{name: "SIGINT", exit: writeback.Exit{Signal: "SIGINT"}, want: 130},
		{name: "SIGTERM", exit: writeback.Exit{Signal: "SIGTERM"}, want: 143},
		{name: "SIGHUP", exit: writeback.Exit{Signal: "SIGHUP"}, want: 129},
		{name: "nothing known", want: 1},
		{name: "run failed", exit: writeback.Exit{Exited: true, Code: 7}, err: errors.New("x"), want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := writeback.ExitCode(tt.exit, tt.err); got != tt.want {
				t.Errorf("ExitCode = %d, want %d", got, tt.want)
			}
		})
	}
}
