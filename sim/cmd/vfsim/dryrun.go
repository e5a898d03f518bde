package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/writeback"
)

func dryRunCommand() *command {
	return &command{
		name:     "dry-run",
		synopsis: "[--home DIR] [--project DIR] [--agent ID] [--profile ID] [--strict] [-- AGENT-ARGS ...]",
		summary:  "show what a real run would do with your home and project, writing nothing",
		about: `
Dry-run resolves and assembles the composite profile of a real home and
project through a copy-on-write overlay, so that nothing is written to
disk, and prints the launch plan, the composite at launch as a tree (each
entry with its kind, link target, strategy and where it comes from), the
warnings and every durable change a real run would make before the agent
starts (native fallback files, cache directories). Arguments after -- are
passed to the agent as a real run would pass them. It exits with 1 when the
run fails.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			home := f.String("home", "", "the home `DIR` (default $HOME)")
			project := f.String("project", "", "the project `DIR` (default the working directory)")
			agent := f.String("agent", "", "the agent `ID`, one of "+agentList()+" (default from the settings)")
			profile := f.String("profile", "", "the profile `ID` (default from the settings)")
			strict := f.Bool("strict", false, "turn warnings into a failure, as a run with --strict does")
			return func(c *cli, args []string) (int, error) {
				return dryRun(c, *home, *project, sim.Spec{Agent: *agent, Profile: *profile, Strict: *strict, Args: args})
			}
		},
	}
}

// dryRun is `vfsim dry-run`: the real resolution and assembly over the
// user's home and project, seen through a copy-on-write overlay so that
// nothing is written to disk. It prints the launch plan, the composite at
// launch, the warnings and the durable changes a real run would make
// before the agent starts.
func dryRun(c *cli, home, project string, spec sim.Spec) (int, error) {
	h, err := hostOf(home, project)
	if err != nil {
		return 0, err
	}
	spec.Home, spec.Project = h.home, h.project
	opts := h.options()
	out := dryRunOn(context.Background(), osfs.New(), spec, opts)
	printDryRun(c.stdout, spec, out)
	if out.Result.Err != nil || out.ChangesErr != nil {
		return 1, nil
	}
	return 0, nil
}

// dryOutcome is what a dry run found.
type dryOutcome struct {
	// Result is the engine's result; the agent did nothing and exited 0.
	Result *sim.Result
	// Durable holds the changes outside the composite root that the run
	// made before the agent started (or by the time it failed, when it
	// never started), keyed by path relative to "/".
	Durable vfs.Delta
	// ChangesErr is the error of listing the changes, if any.
	ChangesErr error
}

// dryRunOn runs spec on an overlay of lower, which it only reads, with an
// agent that records the overlay's changes and exits 0.
func dryRunOn(ctx context.Context, lower vfs.FS, spec sim.Spec, opts sim.Options) *dryOutcome {
	ov := overlayfs.New(lower, overlayfs.Options{Clock: opts.Clock, Umask: 0o022})
	out := &dryOutcome{}
	record := func(root string) {
		d, err := ov.Changes()
		if err != nil {
			out.ChangesErr = err
			return
		}
		out.Durable = outside(d, strings.TrimPrefix(root, "/"))
	}
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		record(s.Root)
		return writeback.Exit{Exited: true, Code: 0}, nil
	})
	out.Result = sim.Execute(ctx, ov, spec, agent, opts)
	if !out.Result.Launched {
		record(out.Result.Root)
	}
	return out
}

// outside returns the changes of d that are not at or below rel.
func outside(d vfs.Delta, rel string) vfs.Delta {
	in := func(p string) bool { return rel != "" && (p == rel || strings.HasPrefix(p, rel+"/")) }
	out := vfs.Delta{Added: map[string]vfs.Entry{}, Changed: map[string]vfs.Change{}, Removed: []string{}}
	for p, e := range d.Added {
		if !in(p) {
			out.Added[p] = e
		}
	}
	for p, c := range d.Changed {
		if !in(p) {
			out.Changed[p] = c
		}
	}
	for _, p := range d.Removed {
		if !in(p) {
			out.Removed = append(out.Removed, p)
		}
	}
	return out
}

// printDryRun writes the dry run's report.
func printDryRun(w io.Writer, spec sim.Spec, out *dryOutcome) {
	r := out.Result
	fmt.Fprintf(w, "dry run: home %s, project %s (nothing is written to disk)\n", spec.Home, spec.Project)
	fmt.Fprintf(w, "\nagent %s, profile %s\n", orNone(r.AgentID), orNone(r.ProfileID))
	if r.Root != "" {
		fmt.Fprintf(w, "  <composite-profile> = %s (created in memory only)\n", r.Root)
	}
	name := prefixNamer(map[string]string{spec.Home: "<home>", spec.Project: "<project>", r.Root: report.TokenComposite})
	printLaunch(w, sim.ReportOf(r), r, name)
	fmt.Fprintf(w, "\ndurable changes before the agent starts:\n")
	if out.ChangesErr != nil {
		fmt.Fprintf(w, "  cannot list them: %v\n", out.ChangesErr)
		return
	}
	printDelta(w, report.ProjectDelta(out.Durable, report.Tokens{}), "/")
}

// printDelta writes the changes of d, one a line: "+" added, "~" changed,
// "-" removed, each path prefixed with prefix.
func printDelta(w io.Writer, d report.Delta, prefix string) {
	if len(d.Added)+len(d.Changed)+len(d.Removed) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	for _, k := range slices.Sorted(maps.Keys(d.Added)) {
		fmt.Fprintf(w, "  + %s%s %s\n", prefix, k, describeEntry(d.Added[k]))
	}
	for _, k := range slices.Sorted(maps.Keys(d.Changed)) {
		c := d.Changed[k]
		fmt.Fprintf(w, "  ~ %s%s %s -> %s\n", prefix, k, describeEntry(c.Before), describeEntry(c.After))
	}
	for _, k := range d.Removed {
		fmt.Fprintf(w, "  - %s%s\n", prefix, k)
	}
}

// printLaunch writes the launch part of a run's report: the launch line
// and environment, the composite at launch as a tree (each entry with its
// kind, link target, strategy and origin), the warnings and the error.
func printLaunch(w io.Writer, r sim.RunReport, res *sim.Result, name namer) {
	if r.Launch != nil {
		fmt.Fprintf(w, "  launch: %s %s\n", r.Launch.Command, quoteArgs(r.Launch.Args))
		for _, v := range r.Launch.Env {
			fmt.Fprintf(w, "    %s=%s\n", v.Name, v.Value)
		}
		fmt.Fprintf(w, "  composite at launch:\n")
		printTree(w, r.CompositeAtLaunch, provenance{res: res.Resolution, plan: res.Composite, name: name}, "    ")
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	if r.Error != nil {
		fmt.Fprintf(w, "  error: %s\n", name(*r.Error))
	}
}

// overlayOptions returns the scenario options of `vfsim run --overlay`:
// the runs happen on an overlay of the fixture directory itself, which is
// only read, instead of on its copy in memory. Without overlay they are
// the defaults.
func overlayOptions(overlay bool, dir string, sc *fixtures.Scenario) (sim.ScenarioOptions, error) {
	if !overlay {
		return sim.ScenarioOptions{}, nil
	}
	if strings.HasSuffix(dir, ".txtar") || !fixtures.IsFixtureDir(dir) {
		return sim.ScenarioOptions{}, usageError{fmt.Errorf("--overlay needs a fixture directory (README.md, home/, project/), not %s", dir)}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return sim.ScenarioOptions{}, err
	}
	mount := func(mem *vfs.MemFS) (sim.FS, error) {
		lower := &fixtureView{dir: osfs.NewRooted(abs), rest: mem}
		opts := overlayfs.Options{Clock: fixtures.LoadTime, Umask: 0o022}
		ov := overlayfs.New(lower, opts)
		// The before ops changed the memory copy, which the view hides:
		// they are played again on the overlay. The runs happen on a
		// second overlay above it, whose changes are the durable
		// difference: nothing of the unchanged fixture is read to find it.
		if err := sc.ApplyBefore(ov); err != nil {
			return nil, err
		}
		return overlayfs.New(ov, opts), nil
	}
	return sim.ScenarioOptions{Mount: mount}, nil
}

// fixtureView is a read-only file system that shows a fixture directory
// of the host at [report.FixtureRoot] and another file system (the
// machine's temporary directory) everywhere else. Entries of the fixture
// directory have the modes and times of a loaded fixture
// (fixtures.LoadDir), so that the view and the loaded copy are equal.
type fixtureView struct {
	dir  *osfs.FS // rooted at the fixture directory
	rest vfs.FS
}

// route returns the file system and name that serve name, and whether
// name lies in the fixture directory.
func (v *fixtureView) route(name string) (vfs.FS, string, bool) {
	if name == report.FixtureRoot {
		return v.dir, "/", true
	}
	if rel, ok := strings.CutPrefix(name, report.FixtureRoot+"/"); ok {
		return v.dir, "/" + rel, true
	}
	return v.rest, name, false
}

// Open opens the named file for reading.
func (v *fixtureView) Open(name string) (fs.File, error) {
	fsys, n, _ := v.route(name)
	f, err := fsys.Open(n)
	return f, renameErr(err, name)
}

// Lstat describes the named entry without following a final link.
func (v *fixtureView) Lstat(name string) (fs.FileInfo, error) {
	fsys, n, inFixture := v.route(name)
	fi, err := vfs.Lstat(fsys, n)
	if err != nil {
		return nil, renameErr(err, name)
	}
	if inFixture {
		fi = loadedInfo{FileInfo: fi, name: path.Base(name)}
	}
	return fi, nil
}

// ReadFile reads the named file.
func (v *fixtureView) ReadFile(name string) ([]byte, error) {
	fsys, n, _ := v.route(name)
	data, err := vfs.ReadFile(fsys, n)
	return data, renameErr(err, name)
}

// ReadLink returns the target of the named link.
func (v *fixtureView) ReadLink(name string) (string, error) {
	fsys, n, _ := v.route(name)
	target, err := vfs.ReadLink(fsys, n)
	return target, renameErr(err, name)
}

// ReadDir lists the named directory.
func (v *fixtureView) ReadDir(name string) ([]fs.DirEntry, error) {
	fsys, n, inFixture := v.route(name)
	list, err := vfs.ReadDir(fsys, n)
	if err != nil {
		return nil, renameErr(err, name)
	}
	if inFixture {
		for i, e := range list {
			list[i] = loadedEntry{e}
		}
	}
	return list, nil
}

// renameErr puts the caller's name back into a path error of the view.
func renameErr(err error, name string) error {
	return vfs.WithNames(err, func(string) string { return name })
}

// loadedInfo is a FileInfo with the mode and time of a loaded fixture.
type loadedInfo struct {
	fs.FileInfo
	name string
}

func (i loadedInfo) Name() string { return i.name }

func (i loadedInfo) Mode() fs.FileMode {
	m := i.FileInfo.Mode()
	switch {
	case m.IsDir():
		return fs.ModeDir | fixtures.DefaultDirMode
	case m.IsRegular():
		return fixtures.DefaultFileMode
	}
	return m
}

func (i loadedInfo) ModTime() time.Time { return fixtures.LoadTime() }

// loadedEntry is a DirEntry whose Info is a [loadedInfo].
type loadedEntry struct{ fs.DirEntry }

func (e loadedEntry) Info() (fs.FileInfo, error) {
	fi, err := e.DirEntry.Info()
	if err != nil {
		return nil, err
	}
	return loadedInfo{FileInfo: fi, name: e.Name()}, nil
}
