package composite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// Options configures [Plan]. The zero value uses /tmp, crypto/rand,
// time.Now and the embedded assets.
type Options struct {
	// TempDir is the directory composite roots are created in ("/tmp"
	// when empty), an absolute path of a directory that exists; Plan fails
	// with a *resolve.OptionError naming it otherwise.
	TempDir string
	// Rand supplies the random bytes of the root's suffix; nil means
	// crypto/rand.
	Rand io.Reader
	// Clock is the clock of the stale-root sweep; nil means time.Now.
	Clock func() time.Time
	// MaxAge is the sweep's threshold; zero means [DefaultMaxAge].
	MaxAge time.Duration
	// NoSweep skips the stale-root sweep.
	NoSweep bool
	// Assets holds Outfitter's own files; nil means [DefaultAssets]. An
	// empty FS means "no bundled skill and no pi extension".
	Assets fs.FS
	// Registry holds the adapters; nil means [DefaultRegistry]. It must
	// know the agent of the resolve result, which should have been
	// resolved with its [Registry.Agents].
	Registry *Registry
	// Notify, when not nil, receives each line of [Run].Messages as Plan
	// decides it, before anything can fail: the --debug notice, which
	// upstream prints as soon as the root exists, also when the run then
	// fails (under --strict, say) and Plan returns no Run.
	Notify func(line string)
	// RootCreated, when not nil, is called with the composite root as soon
	// as it exists, before planning; a plan that fails removes the root
	// again (unless --debug keeps it), so this is how a caller learns the
	// name its error messages may hold.
	RootCreated func(root string)
}

// tempDirFix says what a temporary directory option should be.
const tempDirFix = "an existing directory to create composite profiles in: os.TempDir() on the host; a directory made first on a vfs.MemFS"

// Request is one run to plan.
type Request struct {
	// Result is the resolved profile; it is not modified. Its AgentID
	// selects the adapter.
	Result *resolve.Result
	// PassThrough are the arguments appended to the agent's command line.
	PassThrough []string
	// Strict turns pre-launch warnings into a [*StrictError].
	Strict bool
	// Env is the process environment, as "NAME=value" strings (only
	// DeepWork's variable is read; see [Input].Env).
	Env []string
	// Cwd stands for the process working directory; empty means the
	// project directory.
	Cwd string
	// Onboarding, when not nil, makes the run a first-run onboarding
	// launch (upstream's bootstrap run, for an agent that onboards: see
	// [Onboarder]); the adapter's [LaunchFinisher] sees it in
	// [Input].Onboarding.
	Onboarding *Onboarding
	// Platform is the operating system the run acts as, "" meaning Linux:
	// on [vfs.PlatformWin32], state paths are materialized as upstream's
	// SafeSymlink does on Windows (see [WriteOptions].Platform). The file
	// system's own answers (case folding) are the file system's: a
	// vfs.MemFS made with the same platform gives them.
	Platform vfs.Platform
}

// StrictError is the failure of a --strict run that has warnings, before
// the launch (composite's warnings) or after the agent exits (the
// state-write warnings of package writeback).
type StrictError struct {
	// Agent is the adapter id.
	Agent string
	// Warnings are the warnings that made the run fail, in order.
	Warnings []string
}

// Error returns "Strict failed for <agent>: " and the warnings joined
// with "; ", as upstream prints it.
func (e *StrictError) Error() string {
	return "Strict failed for " + e.Agent + ": " + strings.Join(e.Warnings, "; ")
}

// Strict returns a [*StrictError] when strict is set and there are
// warnings, and nil otherwise. Upstream applies it twice: to the warnings
// before the launch and to the state-write warnings after the agent exits.
func Strict(strict bool, agent string, warnings []string) error {
	if !strict || len(warnings) == 0 {
		return nil
	}
	return &StrictError{Agent: agent, Warnings: slices.Clone(warnings)}
}

// Run is a planned run: its composite root exists (holding only catalog
// skill copies) and nothing else has been written.
type Run struct {
	// FS is the file system the run writes to.
	FS FS
	// Adapter is the selected adapter.
	Adapter Adapter
	// Input is what the adapter saw.
	Input *Input
	// Composite is the plan of the composite.
	Composite *Composite
	// Plan is the adapter's launch plan, before run-level augmentation.
	Plan LaunchPlan
	// Warnings are the pre-launch warnings: skill warnings, then the
	// adapter's.
	Warnings []string
	// KeepRoot reports --debug among the pass-through arguments.
	KeepRoot bool
	// Messages are lines upstream prints on stdout.
	Messages []string
	// Swept lists the stale roots removed before planning.
	Swept []string
	// Strict is the request's strict flag.
	Strict bool

	exporter PromptExporter
	export   *export
	// rootLock holds the lock of the composite root for the run's life
	// (nil on a file system without locks).
	rootLock vfs.Unlocker
	// stateOuts are the outputs of Composite.StatePaths that Materialize
	// made, index for index.
	stateOuts []string
}

// Plan sweeps stale roots, selects the adapter, creates the composite root,
// resolves catalog skills (copying them into the root), plans the composite,
// renders its templates and builds the launch plan (§1.8 steps 1–7). Under
// Strict, warnings fail the run with a [*StrictError] before anything but
// skill copies is written. On failure the new root is removed.
func Plan(fsys FS, req Request, opts Options) (*Run, error) {
	if fsys == nil || req.Result == nil {
		panic("composite: Plan needs a file system and a resolve result")
	}
	res := req.Result
	tempDir := opts.TempDir
	if tempDir == "" {
		tempDir = "/tmp"
	}
	if err := resolve.CheckDir("composite.Options.TempDir", tempDir, tempDirFix); err != nil {
		return nil, err
	}
	assets := opts.Assets
	if assets == nil {
		assets = DefaultAssets()
	}
	r := &Run{FS: fsys, Strict: req.Strict}
	if !opts.NoSweep {
		now := time.Now
		if opts.Clock != nil {
			now = opts.Clock
		}
		r.Swept = Sweep(fsys, tempDir, now(), opts.MaxAge)
	}
	registry := opts.Registry
	if registry == nil {
		registry = DefaultRegistry()
	}
	adapter, err := registry.Lookup(res.AgentID)
	if err != nil {
		return nil, err
	}
	r.Adapter = adapter
	root, rootLock, err := createLockedRoot(fsys, tempDir, res.ProfileID, adapter.ID(), opts.Rand)
	if err != nil {
		if _, serr := vfs.Stat(fsys, tempDir); errors.Is(serr, fs.ErrNotExist) {
			return nil, &resolve.OptionError{
				Option:  "composite.Options.TempDir",
				Problem: fmt.Sprintf("is %q, a directory the file system does not hold (\"\" means /tmp)", opts.TempDir),
				Fix:     "give " + tempDirFix,
			}
		}
		return nil, err
	}
	r.rootLock = rootLock
	if opts.RootCreated != nil {
		opts.RootCreated(root)
	}
	r.KeepRoot = slices.Contains(req.PassThrough, "--debug")
	if r.KeepRoot {
		line := "--debug: keeping composite profile directory " + root
		r.Messages = append(r.Messages, line)
		if opts.Notify != nil {
			opts.Notify(line)
		}
	}
	r.exporter = registry.Exporter()
	if err := r.plan(root, req, assets, registry.IDs()); err != nil {
		if !r.KeepRoot {
			_ = Cleanup(fsys, root)
		}
		_ = r.unlockRoot()
		return nil, err
	}
	return r, nil
}

func (r *Run) plan(root string, req Request, assets fs.FS, agents []string) error {
	res := req.Result
	skills, err := resolveSkills(r.FS, res, root, agents)
	if err != nil {
		return err
	}
	in := &Input{
		Agent: r.Adapter.ID(), Agents: agents,
		FS: r.FS, Root: root, Home: res.Home, Project: res.Project, Cache: res.CacheDirectory,
		ProfileFolders: res.ProfileFolders, ProfilePaths: res.ProfilePaths,
		PassThrough: req.PassThrough, Profile: skills.profile, Layers: res.Layers,
		Settings: res.Settings, SettingsPaths: res.SettingsPaths, Assets: assets,
		Cwd: req.Cwd, Env: req.Env, Onboarding: req.Onboarding, Platform: req.Platform,
	}
	r.Input = in
	c, warnings, err := r.Adapter.Compose(in)
	if err != nil {
		return err
	}
	if err := renderTemplates(c, in); err != nil {
		return err
	}
	plan, launchWarnings, err := r.Adapter.Launch(in, c)
	if err != nil {
		return err
	}
	c.candidates = in.candidates
	r.Composite, r.Plan = c, plan
	r.Warnings = append(append(append([]string(nil), skills.warnings...), warnings...), launchWarnings...)
	if err := Strict(req.Strict, r.Adapter.ID(), r.Warnings); err != nil {
		return err
	}
	// Decided now, written after the composite as upstream writes it, so
	// that a path leaving the profile's folder fails the run before
	// anything durable is written.
	r.export, err = planExport(r.FS, res, r.exporter)
	return err
}

// Materialize writes the composite (files, then state paths), then the
// system prompt export when profile_export asks for one, and returns the
// messages upstream prints on standard error on the way: the
// copy-fallback warnings, then the export's skip notices.
func (r *Run) Materialize() ([]string, error) {
	r.stateOuts = nil
	notices, outs, err := write(r.FS, r.Composite, WriteOptions{Cwd: r.Input.cwd(), Platform: r.Input.Platform})
	if err != nil {
		return notices, err
	}
	r.stateOuts = outs
	if r.export != nil {
		notices = append(notices, r.export.notices...)
		if err := writeExport(r.FS, r.export); err != nil {
			return notices, err
		}
	}
	return notices, nil
}

// StateOutput returns the absolute name in the composite root that the
// last successful [Run.Materialize] gave the state path
// r.Composite.StatePaths[i] (a link to its source, a copy of it or a
// directory made for it, as the strategy and the file system allow), and
// whether it made one: not for an unknown state path, nor before
// Materialize succeeded. It is [StateOutput] of the path under the root,
// without making the name again.
func (r *Run) StateOutput(i int) (string, bool) {
	if i < 0 || i >= len(r.stateOuts) || r.stateOuts[i] == "" {
		return "", false
	}
	return r.stateOuts[i], true
}

// Export exports the system prompt of a fresh resolution, as upstream's
// live refresh does before it plans the composite again, and returns the
// export's skip notices. The launch environment keeps the path exported
// at the start.
func (r *Run) Export(res *resolve.Result) ([]string, error) {
	if res == nil {
		panic("composite: Export needs a resolve result")
	}
	e, err := planExport(r.FS, res, r.exporter)
	if err != nil {
		return nil, err
	}
	return e.notices, writeExport(r.FS, e)
}

// ExportPath returns the path the system prompt was exported to, "" when
// the run exports none.
func (r *Run) ExportPath() string {
	if r.export == nil {
		return ""
	}
	return r.export.path
}

// Launch returns the final launch plan: the planned one, completed by the
// adapter when it is a [LaunchFinisher] (pi writes its launch extension
// into the root for an interactive launch), and the notices the adapter
// prints before the launch (pi's /login notice). Call it after the
// baseline snapshot, as upstream does.
func (r *Run) Launch() (LaunchPlan, []string, error) {
	plan := LaunchPlan{Command: r.Plan.Command, Args: slices.Clone(r.Plan.Args), Env: slices.Clone(r.Plan.Env)}
	if p := r.ExportPath(); p != "" {
		plan.Setenv(ExportEnv, p)
	}
	if f, ok := r.Adapter.(LaunchFinisher); ok {
		notices, err := f.FinishLaunch(r.FS, r.Input, r.Composite, &plan)
		if err != nil {
			return LaunchPlan{}, nil, err
		}
		return plan, notices, nil
	}
	return plan, nil, nil
}

// Cleanup removes the composite root unless --debug asked to keep it,
// then releases the root's lock (see [LockRoot]): the run is over, and a
// kept root becomes an ordinary stale root that a later [Sweep] removes
// by age.
func (r *Run) Cleanup() error {
	var err error
	if !r.KeepRoot && r.Composite != nil {
		err = Cleanup(r.FS, r.Composite.Root)
	}
	return errors.Join(err, r.unlockRoot())
}

// unlockRoot releases the root's lock, once.
func (r *Run) unlockRoot() error {
	u := r.rootLock
	if u == nil {
		return nil
	}
	r.rootLock = nil
	return u.Unlock()
}
