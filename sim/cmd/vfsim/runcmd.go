package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
)

func runCommand() *command {
	return &command{
		name:     "run",
		synopsis: "--fixture DIR|FILE.txtar [--scenario NAME|FILE] [--json] [--overlay] [--platform linux|darwin|win32]",
		summary:  "run one scenario and print its report",
		about: `
Run runs one scenario of a fixture and prints what happened: for each run
the launch (command, arguments, environment), the composite profile at
launch as a tree, the warnings and the error; then the durable changes of
the fixture and the expectations that did not hold. With --json it prints
the run report (the format scenarios and captures share) instead, and the
failed expectations on standard error. It exits with 1 when an
expectation failed.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			fixture := f.String("fixture", "", "`PATH` of the fixture, a directory or a .txtar archive (required)")
			scenario := f.String("scenario", "", "the scenario to run: its `NAME`, its file inside the fixture (scenarios/x.json) or a scenario file elsewhere; default the fixture's only scenario")
			asJSON := f.Bool("json", false, "print the run report as JSON")
			overlay := f.Bool("overlay", false, "run on a copy-on-write overlay of the fixture directory, read in place, instead of a copy in memory")
			platform := platformFlag(f)
			return func(c *cli, args []string) (int, error) {
				if *fixture == "" || len(args) > 0 {
					return 0, usageError{errors.New("want --fixture and no other argument")}
				}
				p, err := vfs.ParsePlatform(*platform)
				if err != nil {
					return 0, usageError{err}
				}
				if *overlay && *platform != "" && p != vfs.PlatformLinux {
					return 0, usageError{fmt.Errorf("--overlay runs on this machine's file system, which cannot act as %s: drop one of them", p)}
				}
				return runOne(c, *fixture, *scenario, *asJSON, *overlay, *platform)
			}
		},
	}
}

func runOne(c *cli, fixture, scenario string, asJSON, overlay bool, platform string) (int, error) {
	fx, err := fixtures.Load(fixture)
	if err != nil {
		return 0, err
	}
	sc, err := pickScenario(fx, scenario)
	if err != nil {
		return 0, err
	}
	opts, err := overlayOptions(overlay, fixture, sc)
	if err != nil {
		return 0, err
	}
	if platform != "" {
		opts.Platform = vfs.Platform(platform)
	}
	out, err := sim.RunScenario(context.Background(), fx, sc, opts)
	if err != nil {
		return 0, err
	}
	if asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out.Report); err != nil {
			return 0, err
		}
		fmt.Fprint(c.stderr, out.Failure())
	} else {
		printReport(c.stdout, out)
	}
	if !out.Passed() {
		return 1, nil
	}
	return 0, nil
}

// pickScenario returns the scenario ref names in fx: a scenario's name, its
// file inside the fixture (scenarios/x.json), or a scenario file on disk,
// inside the fixture directory or elsewhere, which is the same scenario as
// the fixture's own when it is one of them; with ref empty, the fixture's
// only scenario.
func pickScenario(fx *fixtures.Fixture, ref string) (*fixtures.Scenario, error) {
	if ref == "" {
		if scs := fx.Scenarios(); len(scs) == 1 {
			return scs[0], nil
		}
		return nil, usageError{fmt.Errorf("fixture %s has %d scenarios (%s): name one with --scenario", fx.Name(), len(fx.Scenarios()), scenarioNames(fx))}
	}
	if sc, ok := fx.Scenario(ref); ok {
		return sc, nil
	}
	if !strings.HasSuffix(ref, ".json") {
		return nil, usageError{fmt.Errorf("fixture %s has no scenario %q (it has %s)", fx.Name(), ref, scenarioNames(fx))}
	}
	return readScenario(ref)
}

func scenarioNames(fx *fixtures.Fixture) string {
	var names []string
	for _, sc := range fx.Scenarios() {
		names = append(names, sc.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// printReport writes the human-readable report: per run the launch line,
// the composite tree with link targets, warnings and error; then the
// durable changes and any failed expectation.
func printReport(w io.Writer, out *sim.Outcome) {
	rep := out.Report
	fmt.Fprintf(w, "scenario %s\n", rep.Scenario)
	for i, r := range rep.Runs {
		fmt.Fprintf(w, "\nrun %d: agent %s, profile %s, exit code %d\n", i, orNone(r.AgentID), orNone(r.ProfileID), r.ExitCode)
		res := out.Results[i]
		printLaunch(w, r, res, report.Tokens{Composite: res.Root}.Tokenize)
	}
	fmt.Fprintf(w, "\ndurable changes (relative to <fixture>):\n")
	printDelta(w, rep.Durable, "")
	if !out.Passed() {
		fmt.Fprintf(w, "\nfailed expectations:\n%s", indent(out.Failure(), "  "))
	}
}

func describeEntry(e report.Entry) string {
	switch e.Type {
	case vfs.TypeDir:
		return "(dir)"
	case vfs.TypeSymlink:
		return "-> " + e.Target
	}
	if e.Text != nil {
		t := *e.Text
		if len(t) > 60 {
			cut := 60
			for !utf8.RuneStart(t[cut]) {
				cut-- // not inside a character
			}
			t = t[:cut] + "…"
		}
		return fmt.Sprintf("%q", t)
	}
	return fmt.Sprintf("(%d bytes, sha256 %s)", size(e), e.SHA256)
}

func size(e report.Entry) int64 {
	if e.Size != nil {
		return *e.Size
	}
	return 0
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = fmt.Sprintf("%q", a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
