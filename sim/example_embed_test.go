package sim_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// exampleMachine is a home with one profile that asks about mcp.json and
// sets a control pi cannot translate, and a project.
func exampleMachine() *vfs.MemFS {
	m := vfs.NewMemFS(vfs.MemOptions{})
	for name, text := range map[string]string{
		"/h/.outfitter/settings.yml":             "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		"/h/.outfitter/profiles/eng/profile.yml": "id: eng\ncontrols:\n  model: eng-model\n  temperature: 1\nstate_persistence:\n  mcp.json: prompt\n",
		"/p/README.md":                           "A project.\n",
		"/tmp/.keep":                             "",
	} {
		_ = m.MkdirAll(path.Dir(name), 0o755)
		_ = m.WriteFile(name, []byte(text), 0o644)
	}
	return m
}

// The one-call path: Execute runs the whole of an outfitter run. The
// observer gets everything upstream prints, as it happens: the warning
// and the launch summary before the agent starts, the confirmation of a
// prompt answer and the state warnings after it exits. The prompter
// answers the prompt about mcp.json (writeback.NewLinePrompter asks on a
// terminal). A strict run fails before the launch with a typed error, as
// does a profile that does not exist.
func ExampleExecute() {
	m := exampleMachine()
	obs := sim.ObserverFunc(func(_ context.Context, e sim.Event) {
		fmt.Printf("[%s] %s\n", e.Kind, e.Text)
	})
	ask := writeback.PrompterFunc(func(_ context.Context, req writeback.PromptRequest) (writeback.Choice, error) {
		fmt.Printf("[prompt] %s %s\n", req.Agent, req.Path)
		return writeback.ChoicePersist, nil
	})
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		fmt.Println("[agent] runs with", s.Plan.Args[:2])
		_ = s.FS.WriteFile(s.Root+"/mcp.json", []byte(`{"mcpServers":{}}`), 0o644)
		_ = s.FS.WriteFile(s.Root+"/scratch.txt", []byte("x"), 0o644)
		return writeback.Exit{Exited: true, Code: 0}, nil
	})
	opts := sim.Options{Observer: obs, Prompter: ask, TempDir: "/tmp", Rand: rand.NewChaCha8([32]byte{1})}
	spec := sim.Spec{Home: "/h", Project: "/p", Args: []string{"-p", "hello"}, Interactive: true}
	res := sim.Execute(context.Background(), m, spec, agent, opts)
	fmt.Println("exit code:", res.ExitCode)
	data, _ := m.ReadFile("/h/.pi/agent/mcp.json")
	fmt.Printf("durable mcp.json: %s\n", data)

	spec.Strict = true
	res = sim.Execute(context.Background(), m, spec, agent, sim.Options{TempDir: "/tmp"})
	if se, ok := errors.AsType[*composite.StrictError](res.Err); ok {
		fmt.Println("strict:", se.Agent, len(se.Warnings), "warning(s); exit code", res.ExitCode, "launched", res.Launched)
	}
	spec.Strict, spec.Profile = false, "nope"
	res = sim.Execute(context.Background(), m, spec, agent, sim.Options{TempDir: "/tmp"})
	if re, ok := errors.AsType[*resolve.ResolveError](res.Err); ok {
		fmt.Println("resolve:", re.ID, "-", re.Issues[0].Message)
	}
	// Output:
	// [warning] pi adapter cannot translate requested control 'temperature'.
	// [summary] → resolving profile eng
	// ✓ profile layer eng  /h/.outfitter/profiles/eng
	// ✓ merged controls  model=eng-model
	// ✓ prepared composite profile  /tmp/outfitter-eng-pi-ss6BRD
	// ↳ launching pi …
	// [agent] runs with [--model eng-model]
	// [prompt] pi mcp.json
	// [notice] Persisted pi state write 'mcp.json' to /h/.pi/agent/mcp.json.
	// [warning] pi wrote undeclared composite profile state 'scratch.txt' and it was not persisted.
	// exit code: 0
	// durable mcp.json: {"mcpServers":{}}
	// strict: pi 1 warning(s); exit code 1 launched false
	// resolve: nope - Profile 'nope' was not found.
}

// The step-by-step path: the packages the one-call path is made of, in
// upstream's order, for a program that runs the steps itself. It needs
// nothing of sim but the summary's wording (SummaryOf).
func Example_stepByStep() {
	ctx := context.Background()
	m := exampleMachine()
	registry := composite.DefaultRegistry()
	load := func() (*resolve.Result, error) {
		return resolve.Load(m, resolve.Options{Home: "/h", Project: "/p", Agents: registry.Agents(), CreateConventionalDirs: true})
	}

	// Resolve and plan; pre-launch warnings, or a *composite.StrictError
	// under Strict.
	res, err := load()
	if err != nil {
		fmt.Println(err)
		return
	}
	// Notify prints the --debug notice (with --debug among the
	// pass-through arguments) as soon as the root exists, before a
	// strict failure, as upstream does.
	run, err := composite.Plan(m, composite.Request{Result: res, PassThrough: []string{"-p", "hello"}}, composite.Options{
		Registry: registry, Rand: rand.NewChaCha8([32]byte{1}), Notify: func(line string) { fmt.Println(line) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer run.Cleanup()
	for _, w := range run.Warnings {
		fmt.Println("warning:", w)
	}

	// Materialize, take the baseline, (fetch run.Checkouts() with
	// sources.Fetch when the plan names any), finish the launch plan,
	// print the summary.
	if _, err := run.Materialize(); err != nil {
		fmt.Println(err)
		return
	}
	root, paths := run.Composite.Root, run.Composite.StatePaths
	baseline, err := writeback.Snapshot(m, root, paths)
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, notices, err := run.Launch()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range append(notices, sim.SummaryOf(res, root).Lines()...) {
		fmt.Println(strings.ReplaceAll(n, root, "<root>"))
	}

	// The agent runs (here: two writes and an edit of the profile, which
	// a watch of run.Composite.WatchPaths() follows with a refresh).
	fmt.Println("agent:", plan.Command, strings.ReplaceAll(strings.Join(plan.Args, " "), root, "<root>"))
	_ = m.WriteFile(root+"/mcp.json", []byte(`{"mcpServers":{}}`), 0o644)
	_ = m.WriteFile(root+"/scratch.txt", []byte("x"), 0o644)
	_ = m.WriteFile("/h/.outfitter/profiles/eng/profile.yml", []byte("id: eng\ncontrols:\n  model: edited\nstate_persistence:\n  mcp.json: prompt\n"), 0o644)
	refreshed, err := writeback.Refresh(m, root, baseline, paths, "/h/.outfitter/profiles/eng/profile.yml", func() ([]composite.File, error) {
		res, err := load()
		if err != nil {
			return nil, err
		}
		return run.Regenerate(res)
	})
	if err != nil {
		fmt.Println(err) // a *writeback.RefreshError: upstream prints it and the agent goes on
	} else {
		baseline, paths = refreshed.Baseline, refreshed.StatePaths
		fmt.Println("refreshed:", refreshed.Written)
	}

	// Detect and handle what the agent changed: persist the prompt path,
	// warn about the rest; a *writeback.StateWriteError for an error
	// strategy, a *composite.StrictError under Strict.
	issues, err := writeback.Detect(m, root, paths, baseline)
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := writeback.Handle(ctx, m, root, paths, issues, writeback.Options{
		Agent: res.AgentID, Interactive: true, Declarations: run.Adapter.Declarations(), Profile: writeback.SelectedProfile(res),
		Prompter: writeback.PrompterFunc(func(context.Context, writeback.PromptRequest) (writeback.Choice, error) {
			return writeback.ChoicePersist, nil
		}),
		Notify: func(line string) { fmt.Println(line) },
	})
	if _, ok := errors.AsType[*writeback.StateWriteError](err); ok {
		fmt.Println("failed:", err)
		return
	}
	for _, w := range report.Warnings {
		fmt.Println("warning:", w)
	}
	// Output:
	// warning: pi adapter cannot translate requested control 'temperature'.
	// → resolving profile eng
	// ✓ profile layer eng  /h/.outfitter/profiles/eng
	// ✓ merged controls  model=eng-model
	// ✓ prepared composite profile  <root>
	// ↳ launching pi …
	// agent: pi --model eng-model --skill <root>/outfitter/plugin/skills/outfitter -p hello
	// refreshed: [outfitter/profile.json keybindings.json outfitter/plugin/.claude-plugin/plugin.json outfitter/plugin/skills/outfitter/SKILL.md outfitter/plugin/skills/outfitter/references/composite.md]
	// Persisted pi state write 'mcp.json' to /h/.pi/agent/mcp.json.
	// warning: pi wrote undeclared composite profile state 'scratch.txt' and it was not persisted.
}
