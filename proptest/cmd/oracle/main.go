// Command oracle runs the differential campaign of vfsim against upstream
// Outfitter: it exports random worlds for the oracle's capture driver,
// compares the captures with vfsim's run reports, classifies every
// divergence by the upstream rule behind it, and packs the regression
// corpus that go test ./sim -run TestOracleCorpus replays. It is test
// support, run by developers (the capture needs Node and the upstream
// build); CI only replays the packed corpus.
//
// Usage, from the module root:
//
//	go run ./proptest/cmd/oracle export -seed 1 -n 600 -out STAGE
//	go run ./proptest/cmd/oracle export -minimal -out STAGE
//	go run ./proptest/cmd/oracle export -catalog fixtures/catalog -out STAGE FIXTURE/SCENARIO...
//	python3 ORACLE/capture.py batch STAGE RESULTS
//	go run ./proptest/cmd/oracle compare -stage STAGE -results RESULTS [-md REPORT.md] [-v]
//	go run ./proptest/cmd/oracle pack -stage STAGE -results RESULTS -out sim/testdata/oracle
//	go run ./proptest/cmd/oracle check -corpus sim/testdata/oracle [-v]
//	go run ./proptest/cmd/oracle stats -seed 1 -n 300
//
// export writes STAGE/<id>/{fixture/,scenario.json,world.txtar} for worlds
// drawn from proptest.UpstreamWorldGen, deterministic from the seed (world
// ids are s<seed>-<index>); with -minimal it writes instead the
// hand-shrunk worlds m-<rule>, one per rule of the divergence table; with
// -catalog, the worlds c-<fixture>--<scenario> of scenarios of the fixture
// catalog (before ops applied, links into the fixture made relative,
// assertions and the ops the driver cannot drive left out).
// capture.py runs each world through upstream
// twice and keeps the byte-identical ones (RESULTS/<id>/{a.json,meta.json}).
// compare replays every kept world with vfsim and prints, per upstream
// rule, whether it is a documented deviation or open, the number of
// worlds it explains and the smallest world showing it, then the
// divergences of every world that diverges by no rule or by an open rule:
// the unexplained ones, zero when every divergence is a documented
// deviation. pack writes the kept worlds
// as the corpus (worlds/<id>.txtar: fixture, scenario and compacted
// capture) and the ledger of known divergences (ledger.txt). check
// replays a packed corpus as the Go test does and prints its figures.
// stats runs the worlds of a seed with vfsim alone and prints how many
// runs launch, how many worlds record an "always" answer in a profile
// file, how many worlds have a run that fails before launch, those runs
// by cause, and the most frequent errors, to calibrate the generator
// without the oracle; -v prints every such run with its world and error.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/sim"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "export":
		err = export(os.Args[2:])
	case "compare":
		err = compare(os.Args[2:], os.Stdout)
	case "pack":
		err = pack(os.Args[2:])
	case "check":
		err = check(os.Args[2:], os.Stdout)
	case "stats":
		err = stats(os.Args[2:], os.Stdout)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: oracle export|compare|pack|check [flags] (see go doc ./proptest/cmd/oracle)")
	os.Exit(2)
}

// export writes the worlds of a seed for the capture driver.
func export(args []string) error {
	fs := flag.NewFlagSet("export", flag.ExitOnError)
	seed := fs.Int("seed", 1, "seed of the campaign")
	n := fs.Int("n", 100, "number of worlds")
	first := fs.Int("first", 0, "index of the first world")
	out := fs.String("out", "", "stage directory (created)")
	sandbox := fs.String("sandbox", sandboxDefault(), "the capture sandbox (CAPTURE_SANDBOX), where absolute session directories point")
	minimal := fs.Bool("minimal", false, "write the hand-shrunk minimal worlds (m-<rule>) instead")
	catalog := fs.String("catalog", "", "write instead the worlds of these catalog scenarios (FIXTURE/SCENARIO arguments) of this fixture catalog")
	refresh := fs.Bool("refresh", false, "with -catalog, keep edit_source and refresh ops (for a driver that drives them)")
	_ = fs.Parse(args)
	if *out == "" {
		return errors.New("export: -out is required")
	}
	if *catalog != "" {
		for _, arg := range fs.Args() {
			if err := exportCatalogWorld(*catalog, *out, arg, *refresh); err != nil {
				return err
			}
		}
		return nil
	}
	if *minimal {
		worlds := minimalWorlds()
		for _, name := range slices.Sorted(maps.Keys(worlds)) {
			w := worlds[name]
			w.Name = "m-" + name
			if err := writeWorld(filepath.Join(*out, w.Name), w, *sandbox+"/"+w.Name+"/abs-sessions"); err != nil {
				return err
			}
		}
		return nil
	}
	gen := proptest.UpstreamWorldGen()
	for i := *first; i < *first+*n; i++ {
		id := fmt.Sprintf("s%d-%04d", *seed, i)
		w := gen.Example(*seed*1_000_000 + i)
		w.Name = id
		if err := writeWorld(filepath.Join(*out, id), w, *sandbox+"/"+id+"/abs-sessions"); err != nil {
			return err
		}
	}
	return nil
}

func sandboxDefault() string {
	if s := os.Getenv("CAPTURE_SANDBOX"); s != "" {
		return s
	}
	return "/srv/worlds-sandbox"
}

// writeWorld writes dir/world.txtar, dir/scenario.json and dir/fixture/
// (the same tree, on disk), with absolute session directories pointing
// into the world's sandbox.
func writeWorld(dir string, w proptest.World, absSessions string) error {
	arch := []byte(strings.ReplaceAll(string(w.Txtar()), proptest.AbsSessions, absSessions))
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	fixture := filepath.Join(dir, "fixture")
	if err := os.MkdirAll(fixture, 0o755); err != nil {
		return err
	}
	a := txtar.Parse(arch)
	sc := bufio.NewScanner(strings.NewReader(string(a.Comment)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "", strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "mkdir "):
			if err := os.MkdirAll(filepath.Join(fixture, strings.TrimPrefix(line, "mkdir ")), 0o755); err != nil {
				return err
			}
		default:
			return fmt.Errorf("world %s: directive %q cannot be exported", w.Name, line)
		}
	}
	for _, f := range a.Files {
		p := filepath.Join(fixture, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "world.txtar"), arch, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "scenario.json"), w.ScenarioJSON(), 0o644)
}

// kept returns the ids of the worlds the capture kept, sorted.
func kept(results string) ([]string, error) {
	ents, err := os.ReadDir(results)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(results, e.Name(), "meta.json"))
		if err != nil {
			continue
		}
		var meta struct {
			Keep bool `json:"keep"`
		}
		if json.Unmarshal(data, &meta) == nil && meta.Keep {
			ids = append(ids, e.Name())
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// stagedWorld loads a staged world with its capture, as the corpus would
// hold it.
func stagedWorld(stage, results, id string) (*proptest.CorpusWorld, []byte, error) {
	arch, err := os.ReadFile(filepath.Join(stage, id, "world.txtar"))
	if err != nil {
		return nil, nil, err
	}
	scenario, err := os.ReadFile(filepath.Join(stage, id, "scenario.json"))
	if err != nil {
		return nil, nil, err
	}
	raw, err := os.ReadFile(filepath.Join(results, id, "a.json"))
	if err != nil {
		return nil, nil, err
	}
	c, err := proptest.ParseCapture(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", id, err)
	}
	c.Compact()
	data, err := proptest.FormatCorpusWorld(arch, scenario, c)
	if err != nil {
		return nil, nil, err
	}
	cw, err := proptest.ParseCorpusWorld(data, id+".txtar")
	return cw, data, err
}

// outcome is one world's comparison.
type outcome struct {
	id    string
	runs  int
	size  int
	rules map[string]bool
	divs  []proptest.Divergence
	// unexplained are the divergences no rule explains.
	unexplained []proptest.Divergence
	// open are the rules behind its divergences that are not documented
	// deviations.
	open []string
}

func compareWorld(id string, cw *proptest.CorpusWorld, size int) (*outcome, error) {
	divs, run, err := proptest.CompareRun(context.Background(), cw.Fixture, cw.Scenario, cw.Capture, sim.ScenarioOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	o := &outcome{id: id, runs: len(cw.Scenario.Runs), size: size, divs: divs, rules: map[string]bool{}}
	e := proptest.Explain(cw, run.Report, divs)
	for r := range e.Rules {
		o.rules[r] = true
	}
	o.unexplained = e.Unexplained
	o.open = e.Open()
	return o, nil
}

// compare replays every kept world and reports divergences by rule.
func compare(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	stage := fs.String("stage", "", "stage directory")
	results := fs.String("results", "", "capture results directory")
	md := fs.String("md", "", "write the divergence table as markdown to this file")
	verbose := fs.Bool("v", false, "print every world's divergences")
	_ = fs.Parse(args)
	ids, err := kept(*results)
	if err != nil {
		return err
	}
	var outs []*outcome
	for _, id := range ids {
		cw, data, err := stagedWorld(*stage, *results, id)
		if err != nil {
			return err
		}
		o, err := compareWorld(id, cw, len(data))
		if err != nil {
			return err
		}
		outs = append(outs, o)
	}
	return summarize(w, outs, *md, *verbose)
}

// summarize prints the figures, the rule table and the unexplained
// divergences.
func summarize(w io.Writer, outs []*outcome, md string, verbose bool) error {
	runs, matching, matchingRuns, deviating, openWorlds, unexplainedWorlds := 0, 0, 0, 0, 0, 0
	byRule := map[string][]*outcome{}
	for _, o := range outs {
		runs += o.runs
		switch {
		case len(o.divs) == 0:
			matching++
			matchingRuns += o.runs
		case len(o.unexplained) > 0 || len(o.open) > 0:
			unexplainedWorlds++
			if len(o.open) > 0 {
				openWorlds++
			}
		default:
			deviating++
		}
		for r := range o.rules {
			byRule[r] = append(byRule[r], o)
		}
	}
	fmt.Fprintf(w, "%d worlds (%d runs); %d worlds (%d runs) match upstream; %d worlds differ by documented deviations only; "+
		"%d worlds with unexplained divergences (%d of them by an open rule, not a documented deviation)\n",
		len(outs), runs, matching, matchingRuns, deviating, unexplainedWorlds, openWorlds)
	rules := slices.Sorted(func(yield func(string) bool) {
		for r := range byRule {
			if !yield(r) {
				return
			}
		}
	})
	var table strings.Builder
	table.WriteString("| rule | kind | upstream | worlds | minimal world | upstream does / vfsim does |\n| --- | --- | --- | ---: | --- | --- |\n")
	for _, r := range rules {
		ws := byRule[r]
		// The hand-shrunk world of the rule, else the smallest world.
		minimal := ws[0]
		for _, o := range ws {
			if o.id == "m-"+r || (minimal.id != "m-"+r && (o.size < minimal.size || (o.size == minimal.size && o.id < minimal.id))) {
				minimal = o
			}
		}
		// Counts are of the random worlds; the hand-shrunk ones are extra.
		random := 0
		for _, o := range ws {
			if !strings.HasPrefix(o.id, "m-") {
				random++
			}
		}
		info := proptest.RuleInfo(r)
		kind := "open"
		if info.Deviation {
			kind = "deviation"
		}
		shrunk := ""
		if n := len(ws) - random; n > 0 {
			shrunk = fmt.Sprintf(" (+%d hand-shrunk)", n)
		}
		fmt.Fprintf(w, "%-34s %-9s %4d worlds%s  minimal %s  (%s)\n", r, kind, random, shrunk, minimal.id, info.Where)
		fmt.Fprintf(&table, "| %s | %s | `%s` | %d | %s | %s |\n", r, kind, info.Where, random, minimal.id, info.What)
	}
	for _, o := range outs {
		if len(o.unexplained) == 0 && len(o.open) == 0 && !verbose {
			continue
		}
		list := o.unexplained
		if verbose || len(o.open) > 0 {
			list = o.divs
		}
		if len(list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (rules %v):\n", o.id, slices.Sorted(func(yield func(string) bool) {
			for r := range o.rules {
				if !yield(r) {
					return
				}
			}
		}))
		for _, d := range list {
			fmt.Fprintf(w, "  %s\n", truncate(d.String(), 600))
		}
	}
	if md != "" {
		return os.WriteFile(md, []byte(table.String()), 0o644)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// pack writes the kept worlds as the corpus and the ledger of their
// divergences.
func pack(args []string) error {
	fs := flag.NewFlagSet("pack", flag.ExitOnError)
	stage := fs.String("stage", "", "stage directory")
	results := fs.String("results", "", "capture results directory")
	out := fs.String("out", "", "corpus directory (worlds/ and ledger.txt are replaced)")
	_ = fs.Parse(args)
	ids, err := kept(*results)
	if err != nil {
		return err
	}
	worlds := filepath.Join(*out, "worlds")
	if err := os.RemoveAll(worlds); err != nil {
		return err
	}
	if err := os.MkdirAll(worlds, 0o755); err != nil {
		return err
	}
	var ledger []string
	for _, id := range ids {
		cw, data, err := stagedWorld(*stage, *results, id)
		if err != nil {
			return err
		}
		o, err := compareWorld(id, cw, len(data))
		if err != nil {
			return err
		}
		if len(o.unexplained) > 0 {
			return fmt.Errorf("%s has divergences no rule explains (first: %s); run compare", id, o.unexplained[0])
		}
		for r := range o.rules {
			ledger = append(ledger, id+" "+r)
		}
		if err := os.WriteFile(filepath.Join(worlds, id+".txtar"), data, 0o644); err != nil {
			return err
		}
	}
	slices.Sort(ledger)
	return proptest.WriteLedger(filepath.Join(*out, "ledger.txt"), ledger)
}

// check replays a packed corpus and prints its figures.
func check(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	corpus := fs.String("corpus", "sim/testdata/oracle", "corpus directory")
	md := fs.String("md", "", "write the divergence table as markdown to this file")
	verbose := fs.Bool("v", false, "print every world's divergences")
	_ = fs.Parse(args)
	files, err := filepath.Glob(filepath.Join(*corpus, "worlds", "*.txtar"))
	if err != nil {
		return err
	}
	var outs []*outcome
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		id := strings.TrimSuffix(filepath.Base(f), ".txtar")
		cw, err := proptest.ParseCorpusWorld(data, filepath.Base(f))
		if err != nil {
			return err
		}
		o, err := compareWorld(id, cw, len(data))
		if err != nil {
			return err
		}
		outs = append(outs, o)
	}
	return summarize(w, outs, *md, *verbose)
}

// stats runs generated worlds with vfsim alone and prints the share of
// runs that launch, the runs that fail before launch by cause and the
// most frequent errors.
func stats(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("stats", flag.ExitOnError)
	seed := fs.Int("seed", 1, "seed of the campaign")
	n := fs.Int("n", 300, "number of worlds")
	verbose := fs.Bool("v", false, "print every run that fails before launch, with its world and whole error")
	_ = fs.Parse(args)
	gen := proptest.UpstreamWorldGen()
	runs, launched, recorded, failing := 0, 0, 0, 0
	errs, causes := map[string]int{}, map[string]int{}
	for i := range *n {
		wd := gen.Example(*seed*1_000_000 + i)
		fx, sc, err := wd.Load()
		if err != nil {
			return err
		}
		out, err := sim.RunScenario(context.Background(), fx, sc, sim.ScenarioOptions{})
		if err != nil {
			return err
		}
		for p := range out.Report.Durable.Changed {
			if strings.HasSuffix(p, ".yml") {
				recorded++
				break
			}
		}
		fails := false
		for k, r := range out.Report.Runs {
			runs++
			if r.Launch != nil {
				launched++
			}
			if r.Error != nil {
				msg := *r.Error
				if r.Launch == nil {
					fails = true
					causes[failureCause(msg)]++
					if *verbose {
						fmt.Fprintf(w, "s%d-%04d run %d: %s\n", *seed, i, k+1, msg)
					}
				}
				if len(msg) > 70 {
					msg = msg[:70]
				}
				errs[msg]++
			}
		}
		if fails {
			failing++
		}
	}
	fmt.Fprintf(w, "%d worlds, %d runs, %d launched (%.0f%%), %d worlds change a profile file\n", *n, runs, launched, 100*float64(launched)/float64(runs), recorded)
	fmt.Fprintf(w, "%d worlds (%.0f%%) have a run that fails before launch\n", failing, 100*float64(failing)/float64(*n))
	fmt.Fprintf(w, "runs that fail before launch, by cause (%d):\n", runs-launched)
	for _, k := range byCount(causes) {
		fmt.Fprintf(w, "%5d  %s\n", causes[k], k)
	}
	fmt.Fprintln(w, "most frequent errors:")
	for i, k := range byCount(errs) {
		if i == 25 {
			break
		}
		fmt.Fprintf(w, "%5d  %s\n", errs[k], k)
	}
	return nil
}

// failureCauses name the causes of a run that fails before launch by a
// fragment of its error, first match wins.
var failureCauses = []struct{ cause, fragment string }{
	{"strict translation", "Strict failed"},
	{"template render", "Outfitter template"},
	{"no profile selected", "without a selected profile"},
	{"inheritance cycle", "inheritance cycle"},
	{"undefined profile or parent", "was not found"},
	{"template profile selected", "is a template profile"},
	{"invalid YAML", "YAMLParseError"},
	{"invalid profile", "invalid profiles"},
	{"invalid settings", "settings"},
	{"missing or invalid skill", "skill"},
	{"missing DeepWork job", "DeepWork"},
	{"undeclared state path", "is not declared by"},
	{"state strategy not allowed", "state_persistence"},
	{"invalid keybindings", "keybindings"},
	{"invalid MCP fragment", "mcp"},
	{"prompt include", "prompt"},
	{"extension", "xtension"},
}

// failureCause returns the cause of a run's error, "other: <error>" if no
// fragment matches.
func failureCause(msg string) string {
	for _, c := range failureCauses {
		if strings.Contains(strings.ToLower(msg), strings.ToLower(c.fragment)) {
			return c.cause
		}
	}
	if len(msg) > 60 {
		msg = msg[:60]
	}
	return "other: " + msg
}

// byCount returns the keys of counts, most frequent first, then by key.
func byCount(counts map[string]int) []string {
	return slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
}
