package launch_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/launch"
	"github.com/outfitter-go/vfsim/sim/simtest"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// e2eFixture has one profile with a model and a native claude settings
// file; both agents get state paths symlinked into the home.
const e2eFixture = simtest.SoloArchive + `-- home/.claude/settings.json --
{"theme": "light"}
`

// agentOp is one thing the agent does, as a scenario op and as a line of
// the fake agent's script.
type agentOp struct {
	op   fixtures.OpKind
	path string
	data string
	code int
}

func scriptOps(ops []agentOp) []fixtures.Op {
	out := make([]fixtures.Op, len(ops))
	for i, o := range ops {
		out[i] = fixtures.Op{Op: o.op, Path: o.path, Data: o.data, Code: o.code}
	}
	return out
}

func fakeScript(ops []agentOp) string {
	var b strings.Builder
	for _, o := range ops {
		switch o.op {
		case fixtures.OpExit:
			b.WriteString("exit " + strconv.Itoa(o.code) + "\n")
		case fixtures.OpMkdir:
			b.WriteString("mkdir " + o.path + "\n")
		default:
			b.WriteString(string(o.op) + " " + o.path + " " + strconv.Quote(o.data) + "\n")
		}
	}
	return b.String()
}

// view is what a run report holds, for comparing a run on the host with
// the same run in memory: tokenized, with machine paths reduced to the
// fixture's.
type view struct {
	ProfileID, AgentID string
	Command            string
	Args               []string
	Env                []composite.EnvVar
	AtLaunch           map[string]report.Entry
	Warnings           []string
	Err                string
	ExitCode           int
	Durable            report.Delta
}

// viewOf projects a result and the durable delta. strip removes the host
// prefix under which the fixture and the temporary directory live ("" in
// memory) from every path before tokenizing.
func viewOf(res *sim.Result, durable vfs.Delta, strip string) view {
	unhost := func(s string) string {
		if strip == "" {
			return s
		}
		return strings.ReplaceAll(s, strip, "")
	}
	tok := report.Tokens{Composite: unhost(res.Root)}
	v := view{ProfileID: res.ProfileID, AgentID: res.AgentID, Command: res.Plan.Command, ExitCode: res.ExitCode}
	for _, a := range res.Plan.Args {
		v.Args = append(v.Args, tok.Tokenize(unhost(a)))
	}
	for _, e := range res.Plan.Env {
		v.Env = append(v.Env, composite.EnvVar{Name: e.Name, Value: tok.Tokenize(unhost(e.Value))})
	}
	for _, w := range res.Warnings {
		v.Warnings = append(v.Warnings, tok.Tokenize(unhost(w)))
	}
	if res.Err != nil {
		v.Err = tok.Tokenize(unhost(res.Err.Error()))
	}
	unhostTree := func(t vfs.Tree) vfs.Tree {
		out := make(vfs.Tree, len(t))
		for p, e := range t {
			e.Target = unhost(e.Target)
			if strip != "" {
				e.Data = bytes.ReplaceAll(e.Data, []byte(strip), nil)
			}
			out[p] = e
		}
		return out
	}
	v.AtLaunch = report.ProjectTree(unhostTree(res.AtLaunch), tok)
	d := vfs.Delta{Added: unhostTree(durable.Added), Changed: map[string]vfs.Change{}, Removed: durable.Removed}
	for p, c := range durable.Changed {
		both := unhostTree(vfs.Tree{"b": c.Before, "a": c.After})
		d.Changed[p] = vfs.Change{Before: both["b"], After: both["a"]}
	}
	v.Durable = report.ProjectDelta(d, report.Tokens{})
	return v
}

// e2eFixtureFS loads the end-to-end fixture.
func e2eFixtureFS(t *testing.T) *fixtures.Fixture {
	t.Helper()
	fx, err := fixtures.LoadTxtar([]byte(e2eFixture), "e2e")
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

// onHost copies the fixture's tree under a temporary directory of the
// host, with a tmp directory beside it, and returns that directory and
// the host's file system.
func onHost(t *testing.T, fx *fixtures.Fixture) (string, sim.FS) {
	t.Helper()
	host := t.TempDir()
	hostFS := osfs.New()
	if err := vfs.CopyTree(hostFS, host+report.FixtureRoot, fx.Clone(), report.FixtureRoot); err != nil {
		t.Fatal(err)
	}
	if err := hostFS.Mkdir(host+"/tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	return host, hostFS
}

// seeded returns the options both runs share: the same random suffix of
// the composite root and the fixtures' clock.
func seeded(tempDir string) sim.Options {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], 8)
	return sim.Options{Rand: rand.NewChaCha8(key), Clock: fixtures.LoadTime, TempDir: tempDir}
}

// TestEndToEndMatchesMemory runs the same run twice: once on the host with
// the fake agent as a real child process (fixture copied under a temporary
// directory), once in memory with a scripted agent doing the same, and
// compares the reports and the durable differences.
func TestEndToEndMatchesMemory(t *testing.T) {
	bin := fakeAgent(t)
	fx := e2eFixtureFS(t)
	tests := []struct {
		name  string
		agent string
		args  []string
		ops   []agentOp
	}{
		{
			name:  "pi",
			agent: "pi",
			ops: []agentOp{
				{op: fixtures.OpWrite, path: "settings.json", data: "{\"theme\":\"dark\"}\n"},
				{op: fixtures.OpAppend, path: "auth.json", data: "{}\n"},
				{op: fixtures.OpWrite, path: "scratch.txt", data: "temporary\n"},
				{op: fixtures.OpMkdir, path: "unknown-dir"},
				{op: fixtures.OpExit, code: 3},
			},
		},
		{
			name:  "claude",
			agent: "claude",
			args:  []string{"--verbose"},
			ops: []agentOp{
				{op: fixtures.OpWrite, path: "settings.json", data: "{\"theme\":\"dark\"}\n"},
				{op: fixtures.OpWrite, path: "notes.md", data: "unknown\n"},
				{op: fixtures.OpExit, code: 0},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec := sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Agent: tt.agent, Args: tt.args}

			// In memory.
			mem := fx.Clone()
			if err := mem.MkdirAll("/tmp", 0o777); err != nil {
				t.Fatal(err)
			}
			memBefore := durableSnapshot(t, mem)
			memRes := sim.Execute(context.Background(), mem, spec, sim.Script{Ops: scriptOps(tt.ops)}, seeded("/tmp"))
			memView := viewOf(memRes, vfs.Diff(memBefore, durableSnapshot(t, mem)), "")

			// On the host, with a real process.
			host, hostFS := onHost(t, fx)
			rooted := osfs.NewRooted(host)
			hostBefore := durableSnapshot(t, rooted)
			hostSpec := spec
			hostSpec.Home, hostSpec.Project = host+report.HomeRoot, host+report.ProjectRoot
			opts := seeded(host + "/tmp")
			opts.Cwd = host + report.ProjectRoot
			opts.Env = []string{"FAKEAGENT_SCRIPT=" + fakeScript(tt.ops)}
			agent := launch.New(launch.Options{
				Commands: map[string]launch.Command{tt.agent: {Path: bin}},
				Stdout:   io.Discard, Stderr: io.Discard,
			})
			hostRes := sim.Execute(context.Background(), hostFS, hostSpec, agent, opts)
			hostView := viewOf(hostRes, vfs.Diff(hostBefore, durableSnapshot(t, rooted)), host)

			if !memRes.Launched || !hostRes.Launched {
				t.Fatalf("precondition: both runs launch (memory: %v, host: %v)", memRes.Err, hostRes.Err)
			}
			if diff := cmp.Diff(memView, hostView); diff != "" {
				t.Errorf("host run differs from the memory run (-memory +host):\n%s", diff)
			}
			if len(hostView.Durable.Added)+len(hostView.Durable.Changed) == 0 {
				t.Errorf("precondition: the agent's write through the state link reached durable storage; durable delta is empty")
			}
			if len(hostView.Warnings) == 0 {
				t.Errorf("precondition: the unknown write is warned about")
			}
			if _, err := hostFS.Lstat(hostRes.Root); err == nil {
				t.Errorf("composite root %s left behind", path.Base(hostRes.Root))
			}
		})
	}
}

func durableSnapshot(t *testing.T, fsys vfs.FS) vfs.Tree {
	t.Helper()
	tree, err := report.SnapshotDurable(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestExecuteMissingCLI runs the engine with an agent CLI that is not on
// PATH: the run fails with upstream's message and hint, exit code 1, and
// the composite root is removed.
func TestExecuteMissingCLI(t *testing.T) {
	t.Parallel()
	host, hostFS := onHost(t, e2eFixtureFS(t))
	spec := sim.Spec{Home: host + report.HomeRoot, Project: host + report.ProjectRoot, Agent: "claude"}
	opts := seeded(host + "/tmp")
	opts.Env = []string{"PATH=" + host + "/tmp"}
	res := sim.Execute(context.Background(), hostFS, spec, launch.New(launch.Options{}), opts)
	nf, ok := errors.AsType[*launch.NotFoundError](res.Err)
	if !ok {
		t.Fatalf("run error %v, want a *launch.NotFoundError", res.Err)
	}
	want := "Could not launch the 'claude' agent CLI: 'claude' is not installed or not on your PATH. Install Claude Code from https://claude.com/claude-code, then rerun with `--agent claude`."
	if got := nf.Error(); got != want {
		t.Errorf("message %q\nwant    %q", got, want)
	}
	if res.ExitCode != 1 {
		t.Errorf("exit code %d, want 1", res.ExitCode)
	}
	if _, err := hostFS.Lstat(res.Root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("composite root left behind (%v)", err)
	}
}

// TestLiveRefresh runs a real child that edits the profile file while it
// runs and waits until the composite's generated profile shows the edit:
// the watch saw the change and refreshed the composite, which the child
// then reads; nothing blames the agent for the regenerated file.
func TestLiveRefresh(t *testing.T) {
	t.Parallel()
	host, hostFS := onHost(t, e2eFixtureFS(t))
	profile := host + report.HomeRoot + "/.outfitter/profiles/solo/profile.yml"
	script := strings.Join([]string{
		"waitfor outfitter/profile.json " + strconv.Quote("solo-model"),
		"edit " + profile + " " + strconv.Quote("id: solo\ncontrols:\n  model: edited-model\n"),
		"waitfor outfitter/profile.json " + strconv.Quote("edited-model"),
		"exit 0",
	}, "\n")
	run := runLive(t, host, hostFS, script, 20*time.Millisecond, nil)
	res, out, refreshes, messages := run.res, run.out, run.refreshes, run.messages
	if want := "saw outfitter/profile.json\nsaw outfitter/profile.json\n"; out != want {
		t.Errorf("agent output %q, want %q", out, want)
	}
	if len(refreshes) == 0 || !slices.Contains(refreshes[0], "outfitter/profile.json") {
		t.Errorf("refreshes %q, want one writing outfitter/profile.json", refreshes)
	}
	if len(messages) != 0 || len(res.Warnings) != 0 {
		t.Errorf("messages %q, warnings %q; want none", messages, res.Warnings)
	}
}

// TestLiveRefreshDebounce edits two inputs within the debounce set, the
// one the refresh cannot use second: the two changes make one refresh,
// which fails, and the failure names the input that changed first. A
// test observer tells the agent the message came.
func TestLiveRefreshDebounce(t *testing.T) {
	t.Parallel()
	host, hostFS := onHost(t, e2eFixtureFS(t))
	keys := host + report.HomeRoot + "/.pi/agent/keybindings.json"
	if err := vfs.MkdirAll(hostFS, path.Dir(keys), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := vfs.WriteFileString(hostFS, keys, "{}\n", 0o644); err != nil {
		t.Fatal(err)
	}
	profile := host + report.HomeRoot + "/.outfitter/profiles/solo/profile.yml"
	marker := host + "/tmp/refreshed"
	script := strings.Join([]string{
		"edit " + keys + " " + strconv.Quote("{}\n"),
		"sleep 300ms",
		"edit " + profile + " " + strconv.Quote("id: solo\ncontrols: [\n"),
		"waitfor " + marker + " " + strconv.Quote("message"),
		"exit 0",
	}, "\n")
	run := runLive(t, host, hostFS, script, 2*time.Second, func() {
		if err := os.WriteFile(marker, []byte("message"), 0o644); err != nil {
			t.Error(err)
		}
	})
	messages, refreshes := run.messages, run.refreshes
	want := "Could not safely update compositeProfile from " + keys + ": Cannot run with invalid profiles: " + profile
	if len(messages) != 1 || !strings.HasPrefix(messages[0], want) || len(refreshes) != 0 {
		t.Errorf("messages %q, refreshes %q; want one failed refresh, %q…", messages, refreshes, want)
	}
}

// liveRun is what runLive observed of a run.
type liveRun struct {
	res       *sim.Result
	out       string     // the agent's output
	refreshes [][]string // the files of each refresh
	messages  []string
}

// runLive runs the fixture on the host with the fake agent playing
// script and the watch debounced as given, calling onMessage (when set)
// at each message; a run that fails or exits non-zero fails the test.
func runLive(t *testing.T, host string, hostFS sim.FS, script string, debounce time.Duration, onMessage func()) liveRun {
	t.Helper()
	bin := fakeAgent(t)
	var out strings.Builder
	var run liveRun
	opts := seeded(host + "/tmp")
	opts.Env = []string{"FAKEAGENT_SCRIPT=" + script}
	opts.Observer = sim.ObserverFunc(func(_ context.Context, e sim.Event) {
		switch e.Kind {
		case sim.EventRefresh:
			run.refreshes = append(run.refreshes, e.Files)
		case sim.EventMessage:
			run.messages = append(run.messages, e.Text)
			if onMessage != nil {
				onMessage()
			}
		}
	})
	agent := launch.New(launch.Options{Commands: map[string]launch.Command{"pi": {Path: bin}}, Stdout: &out, Stderr: &out, Debounce: debounce})
	spec := sim.Spec{Home: host + report.HomeRoot, Project: host + report.ProjectRoot, Args: []string{"--print", "x"}}
	run.res = sim.Execute(context.Background(), hostFS, spec, agent, opts)
	run.out = out.String()
	if run.res.Err != nil || run.res.ExitCode != 0 {
		t.Fatalf("run: %v (exit code %d)\nagent output:\n%s", run.res.Err, run.res.ExitCode, run.out)
	}
	return run
}
