package proptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/diff"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
)

// Capture is what the differential comparison reads of a capture of the
// upstream implementation (the oracle's capture.json, the shape of the
// reference captures): per run the launch plan, the composite at launch,
// the result or the error; then the durable difference of the fixture at
// cleanup. Fields the comparison does not use are dropped when decoding.
type Capture struct {
	// Runs holds one capture per run, in order.
	Runs []CaptureRun `json:"runs"`
	// FixtureAtCleanup is the durable difference of the fixture, from
	// the fixture as copied to the end of the last run.
	FixtureAtCleanup report.Delta `json:"fixtureAtCleanup"`
}

// CaptureRun is one run of a [Capture]. LaunchPlan and CompositeAtLaunch
// are present when upstream launched the agent; Result or Error says how
// the run ended.
type CaptureRun struct {
	// LaunchPlan is the tokenized launch plan.
	LaunchPlan *CapturePlan `json:"launchPlan,omitempty"`
	// CompositeAtLaunch is every entry of the composite root at launch.
	CompositeAtLaunch map[string]report.Entry `json:"compositeAtLaunch,omitempty"`
	// Result is the result of a run that did not fail.
	Result *CaptureResult `json:"result,omitempty"`
	// Error is the tokenized error of a run that failed.
	Error *string `json:"error,omitempty"`
}

// CapturePlan is upstream's tokenized launch plan.
type CapturePlan struct {
	// Command is the agent's command (pi, claude).
	Command string `json:"command"`
	// Args are the arguments, tokenized.
	Args []string `json:"args"`
	// Env is the environment the plan sets, tokenized.
	Env map[string]string `json:"env"`
}

// CaptureResult is upstream's result of a run that did not fail.
type CaptureResult struct {
	// ProfileID and AgentID are the resolved ids.
	ProfileID string `json:"profileId"`
	AgentID   string `json:"agentId"`
	// ExitCode is the agent's exit code.
	ExitCode int `json:"exitCode"`
	// Warnings are the run's warnings, tokenized, in order.
	Warnings []string `json:"warnings"`
}

// ParseCapture decodes a capture.
func ParseCapture(data []byte) (*Capture, error) {
	var c Capture
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("parse capture: %w", err)
	}
	return &c, nil
}

// Compact drops what the comparison does not read: composite entries it
// skips, the hash of files that carry their text, and the before side of
// changed durable entries. The comparison of the result is unchanged.
func (c *Capture) Compact() {
	for i := range c.Runs {
		r := &c.Runs[i]
		for p, e := range r.CompositeAtLaunch {
			switch CompositeCheck(p) {
			case CheckSkip:
				delete(r.CompositeAtLaunch, p)
			case CheckPresence:
				r.CompositeAtLaunch[p] = report.Entry{Type: e.Type}
			default:
				r.CompositeAtLaunch[p] = compactEntry(e)
			}
		}
	}
	for p, e := range c.FixtureAtCleanup.Added {
		c.FixtureAtCleanup.Added[p] = compactEntry(e)
	}
	for p, ch := range c.FixtureAtCleanup.Changed {
		c.FixtureAtCleanup.Changed[p] = report.Change{Before: report.Entry{Type: ch.Before.Type}, After: compactEntry(ch.After)}
	}
}

func compactEntry(e report.Entry) report.Entry {
	if e.Text != nil {
		e.SHA256 = ""
	}
	return e
}

// Check says how a composite entry is compared with a capture.
type Check int

// The ways composite entries are compared.
const (
	// CheckFull compares type, link target, size, text or hash.
	CheckFull Check = iota
	// CheckPresence compares that the entry exists, with its type.
	CheckPresence
	// CheckSkip leaves the entry out.
	CheckSkip
)

// CompositeCheck says how the composite entry at p (relative to the root)
// is compared. Outfitter's own assets under outfitter/ (the bundled skill,
// the pi launch extension and its support files) are ours by design and
// embed machine paths: the launch extension is compared by presence, the
// other assets not at all. outfitter/profile.json, the plugin manifest
// and the catalog skills copied under outfitter/skills/ are compared in
// full, like everything outside outfitter/.
func CompositeCheck(p string) Check {
	switch {
	case p == "outfitter/profile.json", p == "outfitter/plugin/.claude-plugin/plugin.json",
		p == "outfitter/skills", strings.HasPrefix(p, "outfitter/skills/"):
		return CheckFull
	case p == "outfitter/outfitter-extension.js":
		return CheckPresence
	case p == "outfitter", strings.HasPrefix(p, "outfitter/"):
		return CheckSkip
	}
	return CheckFull
}

// Divergence is one difference between a capture of upstream and vfsim's
// run report of the same world.
type Divergence struct {
	// Run is the run's index, or -1 for the durable difference.
	Run int `json:"run"`
	// Field names what differs: launched, command, args, env, composite,
	// warnings, error, exitCode or durable.
	Field string `json:"field"`
	// Key locates the difference within the field: the variable of env,
	// the composite path and entry field of composite, the fixture path
	// and change kind of durable.
	Key string `json:"key,omitempty"`
	// Upstream and Ours are the JSON texts of both sides ("" when absent).
	Upstream string `json:"upstream,omitempty"`
	Ours     string `json:"ours,omitempty"`
}

// String formats the divergence on one line.
func (d Divergence) String() string {
	where := "durable"
	if d.Run >= 0 {
		where = fmt.Sprintf("run %d %s", d.Run, d.Field)
	}
	if d.Key != "" {
		where += " " + d.Key
	}
	return fmt.Sprintf("%s: upstream %s, ours %s", where, orNone(d.Upstream), orNone(d.Ours))
}

func orNone(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// jsonText returns the compact JSON of v, without HTML escaping.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "<" + err.Error() + ">"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// CompareCapture compares a capture with vfsim's report of the same
// scenario and returns every divergence, in a stable order: per run
// whether it launched, the command, the arguments, the environment, the
// composite at launch (see [CompositeCheck]), the warnings of a run that
// succeeded, the error and the exit code; then the durable difference
// of the fixture, against durable (the difference from the fixture as
// loaded, before any before ops, to the end of the last run).
func CompareCapture(c *Capture, rep *sim.Report, durable report.Delta) []Divergence {
	var out []Divergence
	add := func(run int, field, key string, up, ours any) {
		d := Divergence{Run: run, Field: field, Key: key}
		if up != nil {
			d.Upstream = jsonText(up)
		}
		if ours != nil {
			d.Ours = jsonText(ours)
		}
		out = append(out, d)
	}
	if len(c.Runs) != len(rep.Runs) {
		add(-1, "runs", "", len(c.Runs), len(rep.Runs))
		return out
	}
	for i, cr := range c.Runs {
		rr := rep.Runs[i]
		switch {
		case cr.LaunchPlan == nil && rr.Launch != nil:
			add(i, "launched", "", false, true)
		case cr.LaunchPlan != nil && rr.Launch == nil:
			add(i, "launched", "", true, false)
		case cr.LaunchPlan != nil:
			out = append(out, compareLaunch(i, cr, rr)...)
		}
		var upErr, ourErr any
		if cr.Error != nil {
			upErr = *cr.Error
		}
		if rr.Error != nil {
			ourErr = *rr.Error
		}
		if upErr != ourErr {
			add(i, "error", "", upErr, ourErr)
		}
		if cr.Result != nil && rr.Error == nil {
			out = append(out, compareWarnings(i, cr.Result.Warnings, rr.Warnings)...)
			if cr.Result.ExitCode != rr.ExitCode {
				add(i, "exitCode", "", cr.Result.ExitCode, rr.ExitCode)
			}
		}
	}
	out = append(out, compareDurable(c.FixtureAtCleanup, durable)...)
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func compareLaunch(i int, cr CaptureRun, rr sim.RunReport) []Divergence {
	var out []Divergence
	add := func(field, key string, up, ours any) {
		d := Divergence{Run: i, Field: field, Key: key}
		if up != nil {
			d.Upstream = jsonText(up)
		}
		if ours != nil {
			d.Ours = jsonText(ours)
		}
		out = append(out, d)
	}
	if cr.LaunchPlan.Command != rr.Launch.Command {
		add("command", "", cr.LaunchPlan.Command, rr.Launch.Command)
	}
	out = append(out, compareArgs(i, cr.LaunchPlan.Args, rr.Launch.Args)...)
	env := map[string]string{}
	for _, v := range rr.Launch.Env {
		env[v.Name] = v.Value
	}
	for _, k := range slices.Sorted(maps.Keys(cr.LaunchPlan.Env)) {
		if g, ok := env[k]; !ok {
			add("env", k, cr.LaunchPlan.Env[k], nil)
		} else if g != cr.LaunchPlan.Env[k] {
			add("env", k, cr.LaunchPlan.Env[k], g)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if _, ok := cr.LaunchPlan.Env[k]; !ok {
			add("env", k, nil, env[k])
		}
	}
	for _, p := range slices.Sorted(maps.Keys(cr.CompositeAtLaunch)) {
		want := cr.CompositeAtLaunch[p]
		check := CompositeCheck(p)
		if check == CheckSkip {
			continue
		}
		got, ok := rr.CompositeAtLaunch[p]
		if !ok {
			add("composite", p, want, nil)
			continue
		}
		if check == CheckPresence {
			if want.Type != got.Type {
				add("composite", p+"/type", want.Type, got.Type)
			}
			continue
		}
		out = append(out, compareEntry(i, "composite", p, want, got)...)
	}
	for _, p := range slices.Sorted(maps.Keys(rr.CompositeAtLaunch)) {
		if _, ok := cr.CompositeAtLaunch[p]; !ok && CompositeCheck(p) != CheckSkip {
			add("composite", p, nil, rr.CompositeAtLaunch[p])
		}
	}
	return out
}

// compareDurable compares the durable differences: the added, changed
// and removed paths, and the added entries and the changed entries' after
// side on the fields both carry.
func compareDurable(want, got report.Delta) []Divergence {
	var out []Divergence
	add := func(key string, up, ours any) {
		d := Divergence{Run: -1, Field: "durable", Key: key}
		if up != nil {
			d.Upstream = jsonText(up)
		}
		if ours != nil {
			d.Ours = jsonText(ours)
		}
		out = append(out, d)
	}
	entries := func(kind string, w, g map[string]report.Entry) {
		for _, p := range slices.Sorted(maps.Keys(w)) {
			ge, ok := g[p]
			if !ok {
				add(p+" "+kind, w[p], nil)
				continue
			}
			out = append(out, compareEntry(-1, "durable", p+" "+kind, w[p], ge)...)
		}
		for _, p := range slices.Sorted(maps.Keys(g)) {
			if _, ok := w[p]; !ok {
				add(p+" "+kind, nil, g[p])
			}
		}
	}
	entries("added", want.Added, got.Added)
	after := func(m map[string]report.Change) map[string]report.Entry {
		out := make(map[string]report.Entry, len(m))
		for p, c := range m {
			out[p] = c.After
		}
		return out
	}
	entries("changed", after(want.Changed), after(got.Changed))
	removed := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, p := range list {
			m[p] = true
		}
		return m
	}
	wr, gr := removed(want.Removed), removed(got.Removed)
	for _, p := range slices.Sorted(maps.Keys(wr)) {
		if !gr[p] {
			add(p+" removed", true, nil)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(gr)) {
		if !wr[p] {
			add(p+" removed", nil, true)
		}
	}
	return out
}

// The names of a corpus world's own files inside its archive, next to
// the fixture's files.
const (
	CorpusScenario = "scenario.json"
	CorpusCapture  = "capture.json"
)

// FormatCorpusWorld writes one world of the oracle corpus: the world's
// fixture archive (as [World.Txtar] renders it, comment directives
// included) with the scenario and the compacted capture as two more files
// in front.
func FormatCorpusWorld(fixture, scenario []byte, c *Capture) ([]byte, error) {
	a := txtar.Parse(fixture)
	var capture bytes.Buffer
	enc := json.NewEncoder(&capture)
	enc.SetEscapeHTML(false) // tokens such as <home> stay readable
	enc.SetIndent("", " ")
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("encode capture: %w", err)
	}
	files := []txtar.File{{Name: CorpusScenario, Data: scenario}, {Name: CorpusCapture, Data: capture.Bytes()}}
	a.Files = append(files, a.Files...)
	return txtar.Format(a), nil
}

// CorpusWorld is one world of the oracle corpus, loaded.
type CorpusWorld struct {
	// Fixture is the world's fixture, loaded.
	Fixture *fixtures.Fixture
	// Scenario is the world's scenario.
	Scenario *fixtures.Scenario
	// Capture is upstream's capture of the scenario.
	Capture *Capture
	// Files are the fixture's files as the archive holds them, by path
	// relative to the fixture root.
	Files map[string]string
}

// ParseCorpusWorld loads a world written by [FormatCorpusWorld]; name
// names the archive in errors.
func ParseCorpusWorld(data []byte, name string) (*CorpusWorld, error) {
	a := txtar.Parse(data)
	var scenario, capture []byte
	rest := a.Files[:0:0]
	files := map[string]string{}
	for _, f := range a.Files {
		switch f.Name {
		case CorpusScenario:
			scenario = f.Data
		case CorpusCapture:
			capture = f.Data
		default:
			rest = append(rest, f)
			files[f.Name] = string(f.Data)
		}
	}
	if scenario == nil || capture == nil {
		return nil, fmt.Errorf("%s: want %s and %s in the archive", name, CorpusScenario, CorpusCapture)
	}
	a.Files = rest
	fx, err := fixtures.LoadTxtar(txtar.Format(a), name)
	if err != nil {
		return nil, err
	}
	sc, err := fixtures.ParseScenario(scenario, name+"/"+CorpusScenario)
	if err != nil {
		return nil, err
	}
	c, err := ParseCapture(capture)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &CorpusWorld{Fixture: fx, Scenario: sc, Capture: c, Files: files}, nil
}

// CompareRun runs a scenario on a fixture with vfsim (sim.Run with opts)
// and compares the outcome with upstream's capture of the same world
// ([CompareCapture]). The durable difference is taken from the fixture as
// loaded, as a capture's is. The error is for a scenario that cannot run.
func CompareRun(ctx context.Context, fx *fixtures.Fixture, sc *fixtures.Scenario, c *Capture, opts sim.ScenarioOptions) ([]Divergence, *sim.Outcome, error) {
	out, err := sim.RunScenario(ctx, fx, sc, opts)
	if err != nil {
		return nil, nil, err
	}
	before, err := report.SnapshotDurable(fx.Clone())
	if err != nil {
		return nil, nil, err
	}
	after, err := report.SnapshotDurable(out.FS)
	if err != nil {
		return nil, nil, err
	}
	durable := report.ProjectDelta(vfs.Diff(before, after), report.Tokens{})
	return CompareCapture(c, out.Report, durable), out, nil
}

// valueFlags are the agent flags that take a value, whose values
// [compareArgs] compares flag by flag.
var valueFlags = map[string]bool{
	"--model": true, "--provider": true, "--thinking": true, "--effort": true, "--session-dir": true,
	"--prompt-template": true, "--system-prompt": true, "--append-system-prompt": true,
	"--extension": true, "--skill": true, "--plugin-dir": true,
}

// compareArgs compares two argument lists flag by flag: for each flag
// that takes a value, the list of its values (key: the flag); the other
// arguments as one list (key: "other"); and, when all of these agree, the
// order (key: "order").
func compareArgs(run int, up, ours []string) []Divergence {
	if slices.Equal(up, ours) {
		return nil
	}
	group := func(args []string) (map[string][]string, []string) {
		m := map[string][]string{}
		var other []string
		for j := 0; j < len(args); j++ {
			if valueFlags[args[j]] && j+1 < len(args) {
				m[args[j]] = append(m[args[j]], args[j+1])
				j++
				continue
			}
			other = append(other, args[j])
		}
		return m, other
	}
	um, uo := group(up)
	om, oo := group(ours)
	var out []Divergence
	flags := map[string]bool{}
	for f := range um {
		flags[f] = true
	}
	for f := range om {
		flags[f] = true
	}
	for _, f := range slices.Sorted(maps.Keys(flags)) {
		if !slices.Equal(um[f], om[f]) {
			out = append(out, Divergence{Run: run, Field: "args", Key: f, Upstream: listText(um[f]), Ours: listText(om[f])})
		}
	}
	if !slices.Equal(uo, oo) {
		out = append(out, Divergence{Run: run, Field: "args", Key: "other", Upstream: listText(uo), Ours: listText(oo)})
	}
	if len(out) == 0 {
		out = append(out, Divergence{Run: run, Field: "args", Key: "order", Upstream: jsonText(up), Ours: jsonText(ours)})
	}
	return out
}

// listText is the JSON of a list, or "" for an empty one (absent).
func listText(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return jsonText(l)
}

// compareWarnings compares two warning lists as multisets, one
// divergence per missing (key "missing") or extra ("extra") message; when
// both hold the same messages in another order, one divergence with key
// "order" and both lists.
func compareWarnings(run int, up, ours []string) []Divergence {
	if slices.Equal(up, ours) {
		return nil
	}
	var out []Divergence
	count := map[string]int{}
	for _, w := range ours {
		count[w]++
	}
	for _, w := range up {
		if count[w] > 0 {
			count[w]--
			continue
		}
		out = append(out, Divergence{Run: run, Field: "warnings", Key: "missing", Upstream: jsonText(w)})
	}
	count = map[string]int{}
	for _, w := range up {
		count[w]++
	}
	for _, w := range ours {
		if count[w] > 0 {
			count[w]--
			continue
		}
		out = append(out, Divergence{Run: run, Field: "warnings", Key: "extra", Ours: jsonText(w)})
	}
	if len(out) == 0 {
		out = append(out, Divergence{Run: run, Field: "warnings", Key: "order", Upstream: jsonText(up), Ours: jsonText(ours)})
	}
	return out
}

// compareEntry compares two entries (fixtures.CompareEntry); a text
// difference of two JSON documents is broken down into the JSON pointers
// that differ (key "<path>#<pointer>"), or "<path>#order" when only the
// key order or the formatting differs.
func compareEntry(run int, field, key string, want, got report.Entry) []Divergence {
	var out []Divergence
	for _, m := range diff.Entry("", want, got) {
		if m.Path == "/size" && want.Text != nil && got.Text != nil {
			continue // the text says more
		}
		if m.Path == "/text" {
			w, werr := diff.Decode([]byte(*want.Text))
			g, gerr := diff.Decode([]byte(*got.Text))
			if werr == nil && gerr == nil {
				leaves := diff.JSON("", w, g)
				for _, l := range leaves {
					out = append(out, Divergence{Run: run, Field: field, Key: key + "#" + l.Path, Upstream: l.Want, Ours: l.Got})
				}
				if len(leaves) == 0 {
					out = append(out, Divergence{Run: run, Field: field, Key: key + "#order", Upstream: m.Want, Ours: m.Got})
				}
				continue
			}
		}
		out = append(out, Divergence{Run: run, Field: field, Key: key + m.Path, Upstream: m.Want, Ours: m.Got})
	}
	return out
}
