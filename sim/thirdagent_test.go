package sim_test

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/writeback"
)

// This file is the proof that the adapters' registry is the one place that
// knows which agents exist: acme, a made-up third agent, is written here as
// any agent outside package composite would be, and runs end to end
// (resolve, composite, writeback, run report) without another file
// knowing about it.

// acme is the adapter of Acme Code, an agent CLI configured by
// $ACME_HOME: a config.json and a history/ directory, profile-owned under
// <profile folder>/cli_specific/acme/ or native under ~/.acme/.
type acme struct{}

func (acme) ID() string { return "acme" }

// BlockSchema lets acme's block take a flavor.
func (acme) BlockSchema() string { return `{"properties": {"flavor": {"type": "string"}}}` }

func (acme) InstallHint() string { return "Install Acme Code from https://acme.invalid." }

func (acme) Declarations() []composite.Declaration {
	s := composite.Strategies()
	return []composite.Declaration{
		{Key: "config.json", Default: composite.StrategySymlink, Allowed: []composite.Strategy{composite.StrategySymlink, composite.StrategyWarn, composite.StrategyError, composite.StrategyPrompt}},
		{Key: "history/", Default: composite.StrategySymlink, Allowed: s},
		{Key: composite.UnknownPath, Default: composite.StrategyWarn, Allowed: s[1:]},
	}
}

func (a acme) Compose(in *composite.Input) (*composite.Composite, []string, error) {
	paths, err := in.StatePaths(a.Declarations(), composite.StateSources{
		Native: func(key string) string { return path.Join(in.Home, ".acme", strings.TrimSuffix(key, "/")) },
	})
	if err != nil {
		return nil, nil, err
	}
	c := &composite.Composite{Root: in.Root, StatePaths: paths, Files: []composite.File{in.ProfileFile()}}
	supported := []string{"model", "system_prompt", "systemPrompt", "args", "environment"}
	return c, in.Unsupported(supported, append(supported, "flavor")), nil
}

func (acme) Launch(in *composite.Input, c *composite.Composite) (composite.LaunchPlan, []string, error) {
	m := in.Controls()
	var args []string
	if m.Model != nil {
		args = append(args, "--model", *m.Model)
	}
	if m.SystemPrompt != nil {
		args = append(args, "--system", *m.SystemPrompt)
	}
	if block := in.Profile.Controls.Agent("acme"); block != nil {
		if flavor, ok := block.Object.Get("flavor"); ok {
			args = append(args, "--flavor", flavor.(string))
		}
	}
	args = append(append(args, m.Args...), in.PassThrough...)
	plan := composite.LaunchPlan{Command: "acme", Args: args, Env: slices.Clone(m.Environment)}
	plan.Setenv("ACME_HOME", c.Root)
	return plan, nil, nil
}

// FinishLaunch leaves a boot file in the root, after the baseline, and
// names it first on the command line.
func (acme) FinishLaunch(fsys composite.FS, _ *composite.Input, c *composite.Composite, plan *composite.LaunchPlan) ([]string, error) {
	boot := c.Abs("outfitter/acme-boot.txt")
	if err := fsys.WriteFile(boot, []byte("booted\n"), 0o644); err != nil {
		return nil, err
	}
	plan.Args = append([]string{"--boot", boot}, plan.Args...)
	return nil, nil
}

// thirdAgentRegistry registers acme after Outfitter's own agents.
func thirdAgentRegistry(t *testing.T) *composite.Registry {
	t.Helper()
	reg, err := composite.NewRegistry(composite.Pi{}, composite.Claude{}, acme{})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// thirdAgentFixture is a machine whose settings pick acme, with a profile
// holding a generic model, an acme block and a pi block.
func thirdAgentFixture(t *testing.T, settings, profile string) *fixtures.Fixture {
	t.Helper()
	return loadFixture(t, `-- README.md --
A machine with Acme Code.
-- home/.outfitter/settings.yml --
`+settings+`profile_sources:
  - path: ./profiles
-- home/.outfitter/profiles/builder/profile.yml --
`+profile+`-- home/.acme/config.json --
{"theme": "native"}
-- home/.outfitter/profiles/builder/cli_specific/acme/history/old.txt --
yesterday
-- project/.keep --
`, "third-agent")
}

const thirdAgentProfile = `id: builder
controls:
  model: generic-model
  environment: {SHARED: generic}
  pi: {model: pi-model}
  acme:
    model: acme-model
    flavor: mint
    args: [--fast]
    system_prompt: Build carefully.
    environment: {ACME_ONLY: "1"}
`

// runThird runs one scenario run (the scenario's JSON) on fx.
func runThird(t *testing.T, fx *fixtures.Fixture, run string, opts sim.Options) *sim.Outcome {
	t.Helper()
	sc := parseScenario(t, `{"name": "third-agent", "runs": [`+run+`]}`, "third-agent.json")
	return runScenario(t, fx, sc, sim.ScenarioOptions{Options: opts})
}

func TestThirdAgentRunsEndToEnd(t *testing.T) {
	t.Parallel()
	fx := thirdAgentFixture(t, "default_profile: builder\ndefault_agent: acme\n", thirdAgentProfile)
	out := runThird(t, fx, `{"ops": [
		{"op": "expect_file", "path": "outfitter/acme-boot.txt", "data": "booted\n"},
		{"op": "write", "path": "config.json", "data": "{\"theme\": \"acme\"}\n"},
		{"op": "mkdir_all", "path": "history/today"},
		{"op": "write", "path": "history/today/log.txt", "data": "built\n"},
		{"op": "write", "path": "scratch.txt", "data": "temporary\n"}
	]}`, sim.Options{Registry: thirdAgentRegistry(t)})
	run := out.Report.Runs[0]
	if run.Error != nil {
		t.Fatalf("run error: %s", *run.Error)
	}
	if run.AgentID != "acme" || run.ProfileID != "builder" {
		t.Errorf("agent %q, profile %q; want acme (settings' default_agent) and builder", run.AgentID, run.ProfileID)
	}
	want := &sim.Launch{
		Command: "acme",
		Args:    []string{"--boot", "<composite-profile>/outfitter/acme-boot.txt", "--model", "acme-model", "--system", "Build carefully.", "--flavor", "mint", "--fast"},
		Env: sim.Env{
			{Name: "SHARED", Value: "generic"}, {Name: "ACME_ONLY", Value: "1"}, {Name: "ACME_HOME", Value: "<composite-profile>"},
		},
	}
	if diff := cmp.Diff(want, run.Launch); diff != "" {
		t.Errorf("launch (-want +got):\n%s", diff)
	}
	wantTargets := map[string]string{"config.json": "<home>/.acme/config.json", "history": "<home>/.outfitter/profiles/builder/cli_specific/acme/history"}
	if diff := cmp.Diff(wantTargets, run.Summary.StateTargets); diff != "" {
		t.Errorf("state targets (-want +got):\n%s", diff)
	}
	var generated struct {
		Controls map[string]json.RawMessage `json:"controls"`
	}
	if err := json.Unmarshal(run.GeneratedProfile, &generated); err != nil {
		t.Fatal(err)
	}
	if got := string(generated.Controls["acme"]); !strings.Contains(got, `"systemPrompt":"Build carefully."`) {
		t.Errorf("generated acme block %s: want the camelCase twin an agent block gets", got)
	}
	wantWarnings := []string{"acme wrote undeclared composite profile state 'scratch.txt' and it was not persisted."}
	if diff := cmp.Diff(wantWarnings, run.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	durable := out.Report.Durable
	if e := durable.Changed["home/.acme/config.json"]; e.After.Text == nil || *e.After.Text != "{\"theme\": \"acme\"}\n" {
		t.Errorf("durable config.json change %+v, want the agent's write", e)
	}
	if e, ok := durable.Added["home/.outfitter/profiles/builder/cli_specific/acme/history/today/log.txt"]; !ok || *e.Text != "built\n" {
		t.Errorf("durable history %+v, want the agent's log", durable.Added)
	}
	for p := range durable.Added {
		if strings.Contains(p, "scratch") {
			t.Errorf("the undeclared write reached %s", p)
		}
	}
}

// TestThirdAgentStateAndStrict runs acme's declarations through writeback:
// an error strategy fails the run with acme's name, and --strict turns its
// unsupported controls into a failure before the launch.
func TestThirdAgentStateAndStrict(t *testing.T) {
	t.Parallel()
	reg := thirdAgentRegistry(t)
	fx := thirdAgentFixture(t, "default_profile: builder\n", "id: builder\nstate_persistence: {config.json: error}\ncontrols: {provider: p, acme: {review: x}}\n")
	out := runThird(t, fx, `{"agent": "acme", "ops": [{"op": "write", "path": "config.json", "data": "{}\n"}]}`, sim.Options{Registry: reg})
	if got, want := errOf(out.Report.Runs[0]), "acme wrote 'config.json' with state_persistence 'error' and it was not persisted."; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	if _, ok := out.Results[0].Err.(*writeback.StateWriteError); !ok {
		t.Errorf("error %T, want a *writeback.StateWriteError", out.Results[0].Err)
	}
	out = runThird(t, fx, `{"agent": "acme", "strict": true}`, sim.Options{Registry: reg})
	want := "Strict failed for acme: acme adapter cannot translate requested control 'provider'.; acme adapter cannot translate requested control 'acme.review'."
	if got := errOf(out.Report.Runs[0]); got != want || out.Report.Runs[0].Launch != nil {
		t.Errorf("strict run: error %q, launched %v; want %q before the launch", got, out.Report.Runs[0].Launch != nil, want)
	}
}

// TestThirdAgentSchemaFromTheRegistry checks that the registered adapter
// decides what its block and default_agent may say.
func TestThirdAgentSchemaFromTheRegistry(t *testing.T) {
	t.Parallel()
	reg := thirdAgentRegistry(t)
	tests := []struct {
		name, settings, profile, run string
		reg                          *composite.Registry
		want                         string
	}{
		{
			name:     "the block's own key is checked",
			settings: "default_profile: builder\n", profile: "id: builder\ncontrols: {acme: {flavor: 3}}\n", run: `{"agent": "acme"}`, reg: reg,
			want: "Cannot run with invalid profiles: <home>/.outfitter/profiles/builder/profile.yml#/controls/acme/flavor must be string",
		},
		{
			name:     "unregistered, acme is no agent",
			settings: "default_profile: builder\n", profile: "id: builder\n", run: `{"agent": "acme"}`,
			want: "Unknown agent 'acme'. Expected one of: pi, claude.",
		},
		{
			name:     "registered, the message lists it",
			settings: "default_profile: builder\n", profile: "id: builder\n", run: `{"agent": "codex"}`, reg: reg,
			want: "Unknown agent 'codex'. Expected one of: pi, claude, acme.",
		},
		{
			name:     "unregistered, default_agent cannot name it",
			settings: "default_profile: builder\ndefault_agent: acme\n", profile: "id: builder\n", run: `{}`,
			want: "Cannot run with invalid settings: <home>/.outfitter/settings.yml#/default_agent must be equal to one of the allowed values",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := runThird(t, thirdAgentFixture(t, tt.settings, tt.profile), tt.run, sim.Options{Registry: tt.reg})
			if got := errOf(out.Report.Runs[0]); got != tt.want {
				t.Errorf("error %q, want %q", got, tt.want)
			}
		})
	}
}

// TestThirdAgentBlockWithoutTheAgent runs pi on the acme profile with
// Outfitter's own registry: the acme block is an unknown control, reported
// as upstream reports one, and nothing of it reaches pi's launch.
func TestThirdAgentBlockWithoutTheAgent(t *testing.T) {
	t.Parallel()
	fx := thirdAgentFixture(t, "default_profile: builder\n", thirdAgentProfile)
	out := runThird(t, fx, `{}`, sim.Options{})
	run := out.Report.Runs[0]
	if run.AgentID != "pi" || run.Launch == nil {
		t.Fatalf("agent %q, error %q; want a pi launch", run.AgentID, errOf(run))
	}
	if diff := cmp.Diff([]string{"pi adapter cannot translate requested control 'acme'."}, run.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	for _, a := range run.Launch.Args {
		if a == "acme-model" || a == "mint" || a == "--fast" {
			t.Errorf("pi's args %q hold the acme block's %s", run.Launch.Args, a)
		}
	}
	if !slices.Contains(run.Launch.Args, "pi-model") {
		t.Errorf("pi's args %q: want its own block's model", run.Launch.Args)
	}
	for _, e := range run.Launch.Env {
		if e.Name == "ACME_ONLY" {
			t.Errorf("pi's env %v holds the acme block's variable", run.Launch.Env)
		}
	}
}

// TestThirdAgentSession checks what the agent process sees of its adapter:
// the session carries it, install hint included.
func TestThirdAgentSession(t *testing.T) {
	t.Parallel()
	fx := thirdAgentFixture(t, "default_profile: builder\ndefault_agent: acme\n", thirdAgentProfile)
	var hint string
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		hint = composite.InstallHint(s.Adapter)
		return writeback.Exit{Exited: true}, nil
	})
	sc := parseScenario(t, `{"name": "session", "runs": [{}]}`, "session.json")
	opts := sim.ScenarioOptions{Options: sim.Options{Registry: thirdAgentRegistry(t)}, Agent: func(fixtures.AgentRun) sim.Agent { return agent }}
	runScenario(t, fx, sc, opts)
	if hint != "Install Acme Code from https://acme.invalid." {
		t.Errorf("the session's adapter hints %q", hint)
	}
}

// errOf returns a run report's error, "" for none.
func errOf(r sim.RunReport) string {
	if r.Error == nil {
		return ""
	}
	return *r.Error
}
