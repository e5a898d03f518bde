package sim

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"strings"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/diff"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/vfs"
)

// ScenarioOptions configures [RunScenario]. The zero value is deterministic: the
// random source is seeded from the scenario's name, the clock is the
// fixtures' load time. Options.Platform, when set, overrides the
// scenario's own platform (fixtures.Scenario.Platform); the scenario then
// runs on a copy of the fixture made as that platform's file system
// (vfs.MemFS.CloneAs).
type ScenarioOptions struct {
	Options
	// Seed, when not zero, seeds the random source instead of the
	// scenario's name.
	Seed uint64
	// Agent, when not nil, replaces the scenario's scripted agent (the
	// scenario's ops are then not run).
	Agent func(run fixtures.AgentRun) Agent
	// Custom runs the ops of an embedding suite (kinds starting with
	// fixtures.CustomPrefix) in the scripted agent; nil fails them.
	Custom fixtures.OpFunc
	// Mount, when not nil, moves the run onto another file system: it gets
	// the fixture's memory FS, after the before ops and with the
	// temporary directory, and returns the FS to run on (typically a copy
	// of /fixture and the temporary directory on a rooted OS backend).
	// When that FS has a Changes method listing what was changed in it
	// since it was made, as a copy-on-write overlay (*overlayfs.FS) has,
	// the durable difference is read from it instead of comparing the
	// whole fixture tree; it must then start as the fixture after the
	// before ops. Nil runs on the memory FS itself.
	Mount func(mem *vfs.MemFS) (FS, error)
}

// Mismatch is one failed expectation of a scenario: a run's (Run ≥ 0) or
// the after checks' (Run = -1).
type Mismatch struct {
	// Scenario is the scenario's name.
	Scenario string
	// Run is the run's index, or -1 for the after checks.
	Run int
	diff.Mismatch
}

// String names the scenario, the run and the field, with the difference.
func (m Mismatch) String() string {
	where := "after"
	if m.Run >= 0 {
		where = fmt.Sprintf("run %d", m.Run)
	}
	return fmt.Sprintf("%s: %s: %s", m.Scenario, where, m.Mismatch.String())
}

// Outcome is the result of running a scenario.
type Outcome struct {
	// Report is the run report.
	Report *Report
	// Results are the engine results, one per run.
	Results []*Result
	// Mismatches are the expectations that did not hold, in order.
	Mismatches []Mismatch
	// FS is the file system the runs used, as the last run left it.
	FS FS
}

// RunScenario runs a scenario on a private clone of the fixture: the before ops,
// every run in order on the same tree (each with the scripted agent of its
// ops), then the after checks; it compares every run with its
// expectations and reports the durable difference. The error is for a
// scenario that cannot be run (a before op that fails, an expected file
// that is missing); failed expectations are mismatches.
func RunScenario(ctx context.Context, fx *fixtures.Fixture, sc *fixtures.Scenario, opts ScenarioOptions) (*Outcome, error) {
	if fx == nil || sc == nil {
		panic("sim: RunScenario needs a fixture and a scenario")
	}
	fsys := fx.Clone()
	o := opts.Options
	if o.Platform == "" {
		o.Platform = sc.Platform
	}
	if o.Platform != "" && o.Platform != vfs.PlatformLinux {
		// The fixture as that platform's file system holds it.
		var err error
		if fsys, err = fsys.CloneAs(o.Platform); err != nil {
			return nil, fmt.Errorf("scenario %s: fixture on %s: %w", sc.Name, o.Platform, err)
		}
	}
	// The simulated machine has a temporary directory, like any machine.
	tmp := opts.TempDir
	if tmp == "" {
		tmp = "/tmp"
	}
	if err := fsys.MkdirAll(tmp, 0o777|fs.ModeSticky); err != nil {
		return nil, fmt.Errorf("scenario %s: create %s: %w", sc.Name, tmp, err)
	}
	if err := sc.ApplyBefore(fsys); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	pristine := fsys.Clone()
	var target FS = fsys
	if opts.Mount != nil {
		var err error
		if target, err = opts.Mount(fsys); err != nil {
			return nil, fmt.Errorf("scenario %s: mount: %w", sc.Name, err)
		}
	}
	if o.Rand == nil {
		seed := opts.Seed
		if seed == 0 {
			h := fnv.New64a()
			h.Write([]byte(sc.Name))
			seed = h.Sum64()
		}
		var key [32]byte
		binary.LittleEndian.PutUint64(key[:], seed)
		o.Rand = rand.NewChaCha8(key)
	}
	if o.Clock == nil {
		o.Clock = fixtures.LoadTime
	}
	out := &Outcome{Report: &Report{Scenario: sc.Name, Runs: []RunReport{}}, FS: target}
	for i, run := range sc.Runs {
		spec := Spec{
			Home: report.HomeRoot, Project: report.ProjectRoot,
			Agent: run.Agent, Profile: run.Profile, Strict: run.Strict,
			Args: run.Args, Interactive: run.Interactive,
		}
		var agent Agent = Script{Ops: run.Ops, Pointer: fmt.Sprintf("/runs/%d/ops", i), Custom: opts.Custom}
		if opts.Agent != nil {
			agent = opts.Agent(run)
		}
		ro := o
		if ro.Prompter == nil && len(run.Answers) > 0 {
			ro.Prompter = scriptedPrompter(run.Answers)
		}
		res := Execute(ctx, target, spec, agent, ro)
		out.Results = append(out.Results, res)
		out.Report.Runs = append(out.Report.Runs, ReportOf(res))
		needSummary := run.Expect != nil && run.Expect.Summary != nil
		ms, err := fx.CheckRun(run.Expect, outcomeOf(res, out.Report.Runs[i], needSummary))
		if err != nil {
			return nil, fmt.Errorf("scenario %s: run %d: %w", sc.Name, i, err)
		}
		for _, m := range ms {
			out.Mismatches = append(out.Mismatches, Mismatch{Scenario: sc.Name, Run: i, Mismatch: m})
		}
	}
	for _, m := range sc.CheckAfter(target, pristine) {
		out.Mismatches = append(out.Mismatches, Mismatch{Scenario: sc.Name, Run: -1, Mismatch: m})
	}
	delta, err := durable(pristine, target)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: durable diff: %w", sc.Name, err)
	}
	out.Report.Durable = report.ProjectDelta(delta, report.Tokens{})
	return out, nil
}

// changer is a file system that knows what was changed in it since it
// was made, as a copy-on-write overlay does.
type changer interface {
	Changes() (vfs.Delta, error)
}

// durable is the durable difference of the fixture tree between pristine
// and target: the changes of target below the fixture root when it knows
// them, which reads nothing of the unchanged fixture, else a comparison of
// the two trees.
func durable(pristine *vfs.MemFS, target FS) (vfs.Delta, error) {
	c, ok := target.(changer)
	if !ok {
		return report.DiffDurable(pristine, target)
	}
	all, err := c.Changes()
	if err != nil {
		return vfs.Delta{}, err
	}
	root := strings.TrimPrefix(report.FixtureRoot, "/") + "/"
	d := vfs.Delta{Added: map[string]vfs.Entry{}, Changed: map[string]vfs.Change{}, Removed: []string{}}
	for p, e := range all.Added {
		if rel, ok := strings.CutPrefix(p, root); ok {
			d.Added[rel] = e
		}
	}
	for p, ch := range all.Changed {
		if rel, ok := strings.CutPrefix(p, root); ok {
			d.Changed[rel] = ch
		}
	}
	for _, p := range all.Removed {
		if rel, ok := strings.CutPrefix(p, root); ok {
			d.Removed = append(d.Removed, rel)
		}
	}
	return d, nil
}

// outcomeOf is the view of a run that expectations compare; the summary's
// plain value is built only when an expectation looks at it.
func outcomeOf(r *Result, rr RunReport, summary bool) fixtures.Outcome {
	o := fixtures.Outcome{ProfileID: r.ProfileID, AgentID: r.AgentID, ExitCode: r.ExitCode, Warnings: rr.Warnings, Messages: rr.Messages}
	switch {
	case r.Err == nil:
	case rr.Error != nil:
		// The report's error is the run's, tokenized as tokenized does:
		// formatted once for both.
		o.Err = tokenError{err: r.Err, text: *rr.Error}
	default:
		o.Err = tokenized(r)
	}
	if summary && rr.Summary != nil {
		o.Summary = rr.Summary.value()
	}
	return o
}

// tokenized returns the run's error with its machine paths written as
// tokens (the composite root as <composite-profile>), as expectations and
// failures show it, or nil when the run succeeded.
func tokenized(r *Result) error {
	if r.Err == nil {
		return nil
	}
	return tokenError{err: r.Err, text: report.Tokens{Composite: r.Root}.Tokenize(r.Err.Error())}
}

// tokenError is an error whose message is written with tokens; it wraps
// the error it rewrites.
type tokenError struct {
	err  error
	text string
}

func (e tokenError) Error() string { return e.text }
func (e tokenError) Unwrap() error { return e.err }

// Passed reports whether every expectation held.
func (o *Outcome) Passed() bool { return len(o.Mismatches) == 0 }

// Failure describes why the scenario failed, for a person to read, or
// returns "" when it passed: run by run, the run's own error first (the
// cause), then its failed expectations (grouped by expected file, long
// values as indented line diffs), then the after checks. vfsim check,
// vfsim run and package simtest all print it.
func (o *Outcome) Failure() string {
	if o.Passed() {
		return ""
	}
	var b strings.Builder
	for i, r := range o.Results {
		var ms []diff.Mismatch
		unexpected := false
		for _, m := range o.Mismatches {
			switch {
			case m.Run != i:
			case m.Path == "/error" && m.Want == "":
				unexpected = true // a failure no expectation asked for: the header says it
			default:
				ms = append(ms, m.Mismatch)
			}
		}
		if len(ms) == 0 && !unexpected {
			continue
		}
		fmt.Fprintf(&b, "run %d", i)
		if r.AgentID != "" || r.ProfileID != "" {
			fmt.Fprintf(&b, " (agent %s, profile %s)", orNone(r.AgentID), orNone(r.ProfileID))
		}
		switch {
		case unexpected:
			fmt.Fprintf(&b, " failed unexpectedly: %s\n", tokenized(r))
		case r.Err != nil:
			fmt.Fprintf(&b, " failed: %s\n", tokenized(r))
		default:
			b.WriteString(":\n")
		}
		b.WriteString(diff.Format(ms, "    "))
	}
	var after []diff.Mismatch
	for _, m := range o.Mismatches {
		if m.Run < 0 {
			after = append(after, m.Mismatch)
		}
	}
	if len(after) > 0 {
		b.WriteString("after the last run:\n")
		b.WriteString(diff.Format(after, "    "))
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
