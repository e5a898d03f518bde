package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
)

// usage returns the command's usage text; the agents are the registry's.
func usage() string {
	return `usage:
  vfsim check [--scenarios DIR] [DIR ...]
  vfsim run --fixture DIR|FILE.txtar --scenario FILE [--json] [--overlay]
  vfsim dry-run [--home DIR] [--project DIR] [--agent ` + strings.Join(composite.DefaultRegistry().IDs(), "|") + `] [--profile ID] [--strict] [-- args]
  vfsim update [DIR ...]
  vfsim list [DIR ...]
`
}

// run is the command; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	var err error
	code := 0
	switch args[0] {
	case "check":
		code, err = check(args[1:], stdout)
	case "run":
		code, err = runOne(args[1:], stdout)
	case "dry-run":
		code, err = dryRun(args[1:], stdout)
	case "update":
		code, err = update(args[1:], stdout)
	case "list":
		code, err = list(args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	default:
		fmt.Fprintf(stderr, "vfsim: unknown command %q\n%s", args[0], usage())
		return 2
	}
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "vfsim %s: %v\n%s", args[0], err, usage())
			return 2
		}
		fmt.Fprintf(stderr, "vfsim %s: %v\n", args[0], err)
		return 1
	}
	return code
}

type usageError struct{ error }

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// job is one scenario to run on one fixture.
type job struct {
	fx *fixtures.Fixture
	sc *fixtures.Scenario
}

// loadFixtures loads the fixtures named by dirs (a fixture, or a folder of
// fixtures), or the embedded catalog when dirs is empty.
func loadFixtures(dirs []string) ([]*fixtures.Fixture, error) {
	if len(dirs) == 0 {
		return fixtures.LoadCatalog()
	}
	var out []*fixtures.Fixture
	for _, d := range dirs {
		if strings.HasSuffix(d, ".txtar") {
			fx, err := fixtures.LoadTxtarFile(d)
			if err != nil {
				return nil, err
			}
			out = append(out, fx)
			continue
		}
		if isFixture(d) {
			fx, err := fixtures.LoadDir(d)
			if err != nil {
				return nil, err
			}
			out = append(out, fx)
			continue
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			return nil, err
		}
		found := 0
		for _, e := range entries {
			sub := filepath.Join(d, e.Name())
			if e.IsDir() && isFixture(sub) {
				fx, err := fixtures.LoadDir(sub)
				if err != nil {
					return nil, err
				}
				out = append(out, fx)
				found++
			}
		}
		if found == 0 {
			return nil, fmt.Errorf("%s: neither a fixture (README.md, home/, project/) nor a folder of fixtures", d)
		}
	}
	return out, nil
}

func isFixture(dir string) bool {
	for _, n := range []string{"README.md", "home", "project"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			return false
		}
	}
	return true
}

// jobsOf pairs fixtures with their scenarios, or with the scenario files
// of scenarioDir when it is set.
func jobsOf(fxs []*fixtures.Fixture, scenarioDir string) ([]job, error) {
	var jobs []job
	if scenarioDir == "" {
		for _, fx := range fxs {
			for _, sc := range fx.Scenarios() {
				jobs = append(jobs, job{fx, sc})
			}
		}
		return jobs, nil
	}
	byName := map[string]*fixtures.Fixture{}
	for _, fx := range fxs {
		byName[fx.Name()] = fx
	}
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		sc, err := readScenario(f)
		if err != nil {
			return nil, err
		}
		fx, ok := byName[sc.Fixture]
		if !ok {
			return nil, fmt.Errorf("%s: fixture %q not among the fixtures given", f, sc.Fixture)
		}
		jobs = append(jobs, job{fx, sc})
	}
	return jobs, nil
}

func readScenario(file string) (*fixtures.Scenario, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return fixtures.ParseScenario(data, file)
}

func check(args []string, stdout io.Writer) (int, error) {
	f := newFlags("check")
	scenarios := f.String("scenarios", "", "run the scenario files of this folder")
	if err := f.Parse(args); err != nil {
		return 0, usageError{err}
	}
	fxs, err := loadFixtures(f.Args())
	if err != nil {
		return 0, err
	}
	jobs, err := jobsOf(fxs, *scenarios)
	if err != nil {
		return 0, err
	}
	if len(jobs) == 0 {
		return 0, errors.New("no scenario to run")
	}
	failed := 0
	start := time.Now()
	opts := sim.ScenarioOptions{Options: sim.Options{Cache: resolve.NewCache()}}
	for _, j := range jobs {
		t0 := time.Now()
		out, err := sim.RunScenario(context.Background(), j.fx, j.sc, opts)
		took := time.Since(t0)
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(stdout, "FAIL %s/%s (%s)\n    %v\n", j.fx.Name(), j.sc.Name, round(took), err)
		case !out.Passed():
			failed++
			fmt.Fprintf(stdout, "FAIL %s/%s (%s)\n", j.fx.Name(), j.sc.Name, round(took))
			for _, m := range out.Mismatches {
				fmt.Fprintf(stdout, "    %s\n", strings.ReplaceAll(m.String(), "\n", "\n    "))
			}
		default:
			fmt.Fprintf(stdout, "PASS %s/%s (%s)\n", j.fx.Name(), j.sc.Name, round(took))
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed (%s)\n", len(jobs)-failed, failed, round(time.Since(start)))
	if failed > 0 {
		return 1, nil
	}
	return 0, nil
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	}
	return d
}

func runOne(args []string, stdout io.Writer) (int, error) {
	f := newFlags("run")
	fixture := f.String("fixture", "", "fixture directory or .txtar file")
	scenario := f.String("scenario", "", "scenario file (default: the fixture's only scenario)")
	asJSON := f.Bool("json", false, "print the run report as JSON")
	overlay := f.Bool("overlay", false, "run on an overlay of the fixture directory instead of a copy")
	if err := f.Parse(args); err != nil {
		return 0, usageError{err}
	}
	if *fixture == "" || f.NArg() > 0 {
		return 0, usageError{errors.New("want --fixture and no other argument")}
	}
	var fx *fixtures.Fixture
	var err error
	if strings.HasSuffix(*fixture, ".txtar") {
		fx, err = fixtures.LoadTxtarFile(*fixture)
	} else {
		fx, err = fixtures.LoadDir(*fixture)
	}
	if err != nil {
		return 0, err
	}
	var sc *fixtures.Scenario
	switch {
	case *scenario != "":
		if sc, err = readScenario(*scenario); err != nil {
			return 0, err
		}
	case len(fx.Scenarios()) == 1:
		sc = fx.Scenarios()[0]
	default:
		return 0, usageError{fmt.Errorf("fixture %s has %d scenarios: name one with --scenario", fx.Name(), len(fx.Scenarios()))}
	}
	opts, err := overlayOptions(*overlay, *fixture, sc)
	if err != nil {
		return 0, err
	}
	out, err := sim.RunScenario(context.Background(), fx, sc, opts)
	if err != nil {
		return 0, err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out.Report); err != nil {
			return 0, err
		}
	} else {
		printReport(stdout, out)
	}
	if !out.Passed() {
		if *asJSON {
			fmt.Fprint(os.Stderr, out.Failure())
		}
		return 1, nil
	}
	return 0, nil
}

// printReport writes the human-readable report: per run the launch line,
// the composite tree with link targets, warnings and error; then the
// durable changes and any failed expectation.
func printReport(w io.Writer, out *sim.Outcome) {
	rep := out.Report
	fmt.Fprintf(w, "scenario %s\n", rep.Scenario)
	for i, r := range rep.Runs {
		fmt.Fprintf(w, "\nrun %d: agent %s, profile %s, exit code %d\n", i, orNone(r.AgentID), orNone(r.ProfileID), r.ExitCode)
		printLaunch(w, r)
	}
	fmt.Fprintf(w, "\ndurable changes (relative to <fixture>):\n")
	printDelta(w, rep.Durable, "")
	if !out.Passed() {
		fmt.Fprintf(w, "\nfailed expectations:\n")
		for _, m := range out.Mismatches {
			fmt.Fprintf(w, "  %s\n", m.String())
		}
	}
}

func sortedKeys(m map[string]report.Entry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
			t = t[:60] + "…"
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

func list(args []string, stdout io.Writer) (int, error) {
	f := newFlags("list")
	if err := f.Parse(args); err != nil {
		return 0, usageError{err}
	}
	fxs, err := loadFixtures(f.Args())
	if err != nil {
		return 0, err
	}
	for _, fx := range fxs {
		fmt.Fprintf(stdout, "%s\n", fx.Name())
		for _, sc := range fx.Scenarios() {
			fmt.Fprintf(stdout, "  %s: %s\n", sc.Name, sc.Why)
		}
	}
	return 0, nil
}
