package proptest_test

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/sim"
)

// oracleWorld is a small world with a skill, a prompt include, an unknown
// control and a write through a state link.
func oracleWorld() proptest.World {
	return proptest.World{
		Name: "oracle",
		User: &proptest.Settings{DefaultProfile: "a", DeclaresSources: true, Sources: []proptest.SourceRef{{Loc: proptest.LocHome}}},
		Profiles: []proptest.Profile{{
			Loc: proptest.LocHome, ID: "a",
			Controls: proptest.Controls{Extra: []proptest.Entry{
				{Key: "model", Value: `"m1"`}, {Key: "environment", Value: `{A: "x"}`}, {Key: "args", Value: `["--flag"]`},
			}},
		}},
		Files: []proptest.File{{Path: "home/.pi/agent/settings.json", Data: "{}\n"}},
		Runs: []proptest.Run{{Agent: "pi", Ops: []proptest.Op{
			{Op: fixtures.Op{Op: fixtures.OpWrite, Path: "settings.json", Data: "{\"x\":1}\n"}},
			{Op: fixtures.Op{Op: fixtures.OpWrite, Path: "u.txt", Data: "v1\n"}},
		}}},
	}
}

// selfCapture runs a world with vfsim and returns the capture upstream
// would have written if it behaved exactly like vfsim, tokenized as a
// capture is.
func selfCapture(t *testing.T, w proptest.World) (*fixtures.Fixture, *fixtures.Scenario, *proptest.Capture) {
	t.Helper()
	fx, sc, err := w.Load()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sim.RunScenario(context.Background(), fx, sc, sim.ScenarioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := &proptest.Capture{FixtureAtCleanup: out.Report.Durable}
	for _, r := range out.Report.Runs {
		cr := proptest.CaptureRun{Error: r.Error}
		if r.Launch != nil {
			env := map[string]string{}
			for _, v := range r.Launch.Env {
				env[v.Name] = v.Value
			}
			cr.LaunchPlan = &proptest.CapturePlan{Command: r.Launch.Command, Args: slices.Clone(r.Launch.Args), Env: env}
			cr.CompositeAtLaunch = maps.Clone(r.CompositeAtLaunch)
		}
		if r.Error == nil {
			cr.Result = &proptest.CaptureResult{ProfileID: r.ProfileID, AgentID: r.AgentID, ExitCode: r.ExitCode, Warnings: slices.Clone(r.Warnings)}
		}
		c.Runs = append(c.Runs, cr)
	}
	return fx, sc, c
}

func TestCompareCapture(t *testing.T) {
	t.Parallel()
	text := func(s string) *string { return &s }
	cases := []struct {
		name   string
		change func(c *proptest.Capture)
		want   []proptest.Divergence
	}{
		{"same", func(*proptest.Capture) {}, nil},
		{"flag value", func(c *proptest.Capture) { c.Runs[0].LaunchPlan.Args = replace(c.Runs[0].LaunchPlan.Args, "m1", "m2") },
			[]proptest.Divergence{{Run: 0, Field: "args", Key: "--model", Upstream: `["m2"]`, Ours: `["m1"]`}}},
		{"other args", func(c *proptest.Capture) {
			c.Runs[0].LaunchPlan.Args = replace(c.Runs[0].LaunchPlan.Args, "--flag", "--other")
		},
			[]proptest.Divergence{{Run: 0, Field: "args", Key: "other", Upstream: `["--other"]`, Ours: `["--flag"]`}}},
		{"env", func(c *proptest.Capture) { c.Runs[0].LaunchPlan.Env["A"] = "y"; c.Runs[0].LaunchPlan.Env["B"] = "z" },
			[]proptest.Divergence{{Run: 0, Field: "env", Key: "A", Upstream: `"y"`, Ours: `"x"`}, {Run: 0, Field: "env", Key: "B", Upstream: `"z"`}}},
		{"composite link", func(c *proptest.Capture) {
			e := c.Runs[0].CompositeAtLaunch["auth.json"]
			e.Target = "<home>/elsewhere"
			c.Runs[0].CompositeAtLaunch["auth.json"] = e
		}, []proptest.Divergence{{Run: 0, Field: "composite", Key: "auth.json/target", Upstream: `"<home>/elsewhere"`, Ours: `"<home>/.pi/agent/auth.json"`}}},
		{"generated JSON", func(c *proptest.Capture) {
			e := c.Runs[0].CompositeAtLaunch["outfitter/profile.json"]
			e.Text = text(strings.Replace(*e.Text, `"m1"`, `"m9"`, 1))
			c.Runs[0].CompositeAtLaunch["outfitter/profile.json"] = e
		}, []proptest.Divergence{{Run: 0, Field: "composite", Key: "outfitter/profile.json#/controls/model", Upstream: `"m9"`, Ours: `"m1"`}}},
		{"skipped asset", func(c *proptest.Capture) {
			c.Runs[0].CompositeAtLaunch["outfitter/plugin/skills/outfitter/SKILL.md"] = report.Entry{Type: "file", Text: text("other")}
		}, nil},
		{"missing warning", func(c *proptest.Capture) {
			c.Runs[0].Result.Warnings = append([]string{"w"}, c.Runs[0].Result.Warnings...)
		}, []proptest.Divergence{{Run: 0, Field: "warnings", Key: "missing", Upstream: `"w"`}}},
		{"error", func(c *proptest.Capture) { c.Runs[0].Error, c.Runs[0].Result = text("boom"), nil },
			[]proptest.Divergence{{Run: 0, Field: "error", Upstream: `"boom"`}}},
		{"exit code", func(c *proptest.Capture) { c.Runs[0].Result.ExitCode = 3 },
			[]proptest.Divergence{{Run: 0, Field: "exitCode", Upstream: "3", Ours: "0"}}},
		{"not launched", func(c *proptest.Capture) { c.Runs[0].LaunchPlan, c.Runs[0].CompositeAtLaunch = nil, nil },
			[]proptest.Divergence{{Run: 0, Field: "launched", Upstream: "false", Ours: "true"}}},
		{"durable", func(c *proptest.Capture) {
			delete(c.FixtureAtCleanup.Changed, "home/.pi/agent/settings.json")
			c.FixtureAtCleanup.Removed = append(c.FixtureAtCleanup.Removed, "home/decoy.txt")
		}, []proptest.Divergence{
			{Run: -1, Field: "durable", Key: "home/.pi/agent/settings.json changed", Ours: `{"type":"file","size":8,"text":"{\"x\":1}\n"}`},
			{Run: -1, Field: "durable", Key: "home/decoy.txt removed", Upstream: "true"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fx, sc, c := selfCapture(t, oracleWorld())
			tc.change(c)
			got, _, err := proptest.CompareRun(context.Background(), fx, sc, c, sim.ScenarioOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("divergences (-want +got):\n%s", d)
			}
		})
	}
}

func replace(list []string, old, new string) []string {
	out := slices.Clone(list)
	for i, s := range out {
		if s == old {
			out[i] = new
		}
	}
	return out
}

func TestCompareWarningsOrder(t *testing.T) {
	t.Parallel()
	fx, sc, c := selfCapture(t, oracleWorld())
	c.Runs[0].Result.Warnings = []string{"b", "a"}
	out, err := sim.RunScenario(context.Background(), fx, sc, sim.ScenarioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out.Report.Runs[0].Warnings = []string{"a", "b"}
	got := proptest.CompareCapture(c, out.Report, c.FixtureAtCleanup)
	want := []proptest.Divergence{{Run: 0, Field: "warnings", Key: "order", Upstream: `["b","a"]`, Ours: `["a","b"]`}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("divergences (-want +got):\n%s", d)
	}
}

func TestCorpusWorldRoundTrip(t *testing.T) {
	t.Parallel()
	w := oracleWorld()
	_, _, c := selfCapture(t, w)
	c.Compact()
	data, err := proptest.FormatCorpusWorld(w.Txtar(), w.ScenarioJSON(), c)
	if err != nil {
		t.Fatal(err)
	}
	cw, err := proptest.ParseCorpusWorld(data, "oracle.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cw.Capture, c) {
		t.Errorf("capture changed in the round trip:\n%s", cmp.Diff(c, cw.Capture))
	}
	divs, out, err := proptest.CompareRun(context.Background(), cw.Fixture, cw.Scenario, cw.Capture, sim.ScenarioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(divs) != 0 {
		t.Errorf("a world compared with its own capture diverges: %v", divs)
	}
	if e := proptest.Explain(cw, out.Report, divs); len(e.Rules) != 0 || len(e.Unexplained) != 0 {
		t.Errorf("explanation of no divergence: %+v", e)
	}
	if _, err := proptest.ParseCorpusWorld([]byte("-- home/x --\n"), "bad.txtar"); err == nil {
		t.Error("an archive without scenario and capture parsed")
	}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	w := oracleWorld()
	w.Profiles[0].Controls.Extra = append(w.Profiles[0].Controls.Extra, proptest.Entry{Key: "systemPrompt", Value: `"S"`})
	// The rules of the campaign's start that are fixed since (camelCase
	// aliases, unsupported-control warnings, DeepWork jobs) explain nothing
	// any more.
	fx, sc, c := selfCapture(t, w)
	cw := &proptest.CorpusWorld{Fixture: fx, Scenario: sc, Capture: c, Files: map[string]string{}}
	for _, f := range w.FixtureFiles() {
		cw.Files[f.Path] = f.Data
	}
	rep := &sim.Report{Runs: []sim.RunReport{{Warnings: []string{"pi adapter cannot translate requested control 'pi.x'."}}}}
	cases := []struct {
		name        string
		divs        []proptest.Divergence
		rules       []string
		unexplained int
	}{
		{"a raw path is no tokenization", []proptest.Divergence{
			{Run: 0, Field: "warnings", Key: "missing", Upstream: `"Pi MCP config '<home>/x' must contain a JSON object."`},
			{Run: 0, Field: "warnings", Key: "extra", Ours: `"Pi MCP config '/fixture/home/x' must contain a JSON object."`},
		}, nil, 2},
		{"a fixed rule no longer explains", []proptest.Divergence{{Run: 0, Field: "args", Key: "--system-prompt", Ours: `["S"]`}}, nil, 1},
		{"strict messages", []proptest.Divergence{{Run: 0, Field: "error",
			Upstream: `"Strict failed for pi: Skill ID 'r' is supplied by home skills ('<home>/s/r') and shadows '<project>/s/r'."`,
			Ours:     `"Strict failed for pi: pi adapter cannot translate requested control 'pi.x'."`}},
			[]string{"skill-shadowing-warning"}, 1},
		{"strict on one side", []proptest.Divergence{
			{Run: 0, Field: "error", Upstream: `"Strict failed for pi: Skill ID 'r' is supplied by home skills ('<home>/s/r') and shadows '<project>/s/r'."`},
			{Run: 0, Field: "launched", Upstream: "false", Ours: "true"},
			{Run: -1, Field: "durable", Key: "home/.pi/agent/auth.json added", Ours: `{"type":"file"}`},
		}, []string{"skill-shadowing-warning"}, 0},
		{"messages that hold a semicolon", []proptest.Divergence{{Run: 0, Field: "error",
			Upstream: `"Strict failed for pi: pi Raw append_system_prompt entry looks like a file path; use { file: 'a/b.md' }. (<home>/p.yml#/x); Skill ID 'r' is supplied by home skills ('<home>/s/r') and shadows '<project>/s/r'."`,
			Ours:     `"Strict failed for pi: pi Raw append_system_prompt entry looks like a file path; use { file: 'a/b.md' }. (<home>/p.yml#/x)"`}},
			[]string{"skill-shadowing-warning"}, 0},
		{"unknown", []proptest.Divergence{{Run: 0, Field: "env", Key: "X", Upstream: `"1"`}}, nil, 1},
		{"a profile file printed otherwise", []proptest.Divergence{{Run: -1, Field: "durable", Key: "home/p.yml changed/text",
			Upstream: `"id: a\nenv: { A: \"x\" }\nstate_persistence:\n  mcp.json: symlink\n"`,
			Ours:     `"id: a\nenv: {A: \"x\"}\nstate_persistence:\n  mcp.json: symlink\n"`}},
			[]string{"always-answer-yaml"}, 0},
		{"a profile file that says otherwise", []proptest.Divergence{{Run: -1, Field: "durable", Key: "home/p.yml changed/text",
			Upstream: `"id: a\nenv: { A: \"x\" }\nstate_persistence:\n  mcp.json: symlink\n"`,
			Ours:     `"id: a\nenv: {A: \"x\"}\nstate_persistence:\n  mcp.json: prompt\n"`}},
			nil, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := proptest.Explain(cw, rep, tc.divs)
			if d := cmp.Diff(tc.rules, e.RuleNames()); d != "" {
				t.Errorf("rules (-want +got):\n%s", d)
			}
			if len(e.Unexplained) != tc.unexplained {
				t.Errorf("unexplained %v, want %d", e.Unexplained, tc.unexplained)
			}
		})
	}
}

func TestReadLedger(t *testing.T) {
	t.Parallel()
	got, err := proptest.ReadLedger([]byte("# comment\n\nw1 r1\nw1 r2\nw2 r1\n"), "ledger.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]bool{"w1": {"r1": true, "r2": true}, "w2": {"r1": true}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ledger (-want +got):\n%s", d)
	}
	for _, bad := range []string{"w1\n", "w1 r1 extra\n", "w1 r1\nw1 r1\n"} {
		if _, err := proptest.ReadLedger([]byte(bad), "ledger.txt"); err == nil || !strings.Contains(err.Error(), "ledger.txt:") {
			t.Errorf("ReadLedger(%q) = %v, want an error naming the line", bad, err)
		}
	}
}
