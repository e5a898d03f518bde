package sim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// Options configures the engine. The zero value uses /tmp, crypto/rand,
// time.Now, the embedded Outfitter assets and no prompter.
type Options struct {
	// Clock stamps the stale-root sweep; nil means time.Now.
	Clock func() time.Time
	// Rand supplies the random suffix of composite roots; nil means
	// crypto/rand. Seed it for reproducible roots.
	Rand io.Reader
	// Prompter answers prompt-strategy questions in interactive runs
	// ([Spec].Interactive); without one, prompts are reported and
	// skipped as in a non-interactive run. writeback.NewLinePrompter asks
	// on a terminal as upstream does.
	Prompter writeback.Prompter
	// Observer, when not nil, receives the run's events as they happen:
	// notices, warnings and messages before the launch, the launch
	// summary just before the agent starts, refreshes while it runs, and
	// notices and warnings after it exits (see [Event]). The same lines
	// are in the [Result] at the end.
	Observer Observer
	// Assets holds Outfitter's own files (bundled skill, pi extension); nil
	// means the embedded defaults.
	Assets fs.FS
	// TempDir is where composite roots are created; "" means /tmp. It
	// must be an absolute path of a directory that exists: a run fails
	// with a *resolve.OptionError naming it otherwise.
	TempDir string
	// Env is the process environment the agent inherits, as "NAME=value"
	// strings (os.Environ's form; the last entry of a name wins, as the
	// child sees it). The engine reads DEEPWORK_ADDITIONAL_JOBS_FOLDERS
	// from it; an agent that starts a process (package launch) gives it
	// this environment with the plan's variables set over it
	// ([Session].Env).
	Env []string
	// Cwd stands for the process working directory, against which upstream
	// creates the source of a relative claude session_directory; "" means
	// the project directory.
	Cwd string
	// Cache, when not nil, memoizes parsed settings and profile files
	// across runs (see resolve.Cache); results are the same without it.
	Cache *resolve.Cache
	// Registry holds the agents a run may use; nil means
	// composite.DefaultRegistry.
	Registry *composite.Registry
	// Tools runs git and npm for what a run fetches, on the paths of the
	// run's file system (sources.Exec runs the real tools, on the host's
	// file system): the checkouts the launch plan names that do not exist
	// yet (pi's git extensions, see sources.Fetch), fetched after the
	// baseline and before the launch, and on a first-run onboarding the
	// default profiles. nil fetches nothing: an absent checkout stays
	// absent, and no run onboards.
	Tools sources.Runner
	// Platform is the operating system the engine acts as, spelled as
	// Node's process.platform; "" means Linux. On vfs.PlatformWin32 state
	// paths are materialized as upstream's SafeSymlink does on a Windows
	// that refuses symbolic links (see composite.WriteOptions.Platform).
	// What the file system answers (case folding, name limits) is the
	// file system's own: run on a vfs.MemFS made with the same platform
	// (RunScenario does so).
	Platform vfs.Platform
}

// registry returns the agents of the runs.
func (o Options) registry() *composite.Registry {
	if o.Registry == nil {
		return composite.DefaultRegistry()
	}
	return o.Registry
}

// Spec is one run, as the command line would give it.
type Spec struct {
	// Home and Project are absolute paths in the file system, required:
	// a run without them fails with a *resolve.OptionError naming the
	// field.
	Home, Project string
	// Agent and Profile select the adapter and the profile; empty means the
	// settings defaults (--agent, --profile).
	Agent, Profile string
	// Strict turns warnings into a failure (--strict).
	Strict bool
	// Args are the pass-through arguments.
	Args []string
	// Interactive reports an interactive session (a TTY upstream).
	Interactive bool
	// ForceOnboarding makes the run a first-run onboarding even when the
	// settings file exists (upstream's forceRuntimeOnboarding), the other
	// conditions holding.
	ForceOnboarding bool
	// SetupSource is the setup source a first-run onboarding offers
	// (upstream's setupSourceUri); "" when none.
	SetupSource string
}

// check reports a Spec that no run can start from: a home or project
// directory that is not an absolute path (left out, most often).
func (s Spec) check() error {
	if err := resolve.CheckDir("sim.Spec.Home", s.Home, "the home directory, whose .outfitter/settings.yml is read (os.UserHomeDir() on the host)"); err != nil {
		return err
	}
	return resolve.CheckDir("sim.Spec.Project", s.Project, "the project directory, whose .outfitter/settings.yml is read (the working directory on the host)")
}

// Result is what one run produced. Fields after the launch are set only
// when the run got that far.
type Result struct {
	// ProfileID and AgentID are the resolved ids, when resolution succeeded.
	ProfileID, AgentID string
	// Root is the composite root, when it was created.
	Root string
	// Resolution is what the resolver found (settings, sources, every
	// profile definition and the stack), when resolution succeeded; a
	// report uses it to say where each part of the composite comes from.
	Resolution *resolve.Result
	// Composite is the plan of the composite (generated files with their
	// inputs, state paths with their strategies and the sources
	// considered), when planning succeeded.
	Composite *composite.Composite
	// Launched reports that the agent was started.
	Launched bool
	// Plan is the final launch plan.
	Plan composite.LaunchPlan
	// GeneratedProfile is the content of outfitter/profile.json at launch.
	GeneratedProfile []byte
	// AtLaunch is the composite tree at launch (after the launch-plan files).
	AtLaunch vfs.Tree
	// Exit is how the agent ended.
	Exit writeback.Exit
	// Warnings are the run's warnings in order (pre-launch, then state).
	Warnings []string
	// Messages are the lines upstream prints outside the warnings, in
	// order: the notices ([EventNotice]: the debug root, fetch progress,
	// the /login notice, prompt confirmations) and the messages
	// ([EventMessage]: copy-fallback notices, refresh failures); they are
	// not warnings.
	Messages []string
	// Summary is the launch summary, when the run got as far as the
	// launch.
	Summary *LaunchSummary
	// Issues are the classified post-run issues, sorted.
	Issues []writeback.Issue
	// Writes are the explicit durable writes made by prompt answers.
	Writes []writeback.Write
	// Err is the run's error: resolution, planning, strict, an error
	// strategy, or the agent's own failure.
	Err error
	// ExitCode is the run's exit code (the agent's, 128+signal, or 1 on
	// error).
	ExitCode int

	nativeModels []byte // the agent's models.json read through the composite at launch
}

// FS is what the engine needs from a file system: everything.
type FS = vfs.ReadWriteFS

// Execute runs one Outfitter run on fsys: resolve the profile, plan and
// materialize the composite, take the baseline, build the launch plan, run
// agent, then detect, classify and handle what it changed, in upstream's
// order (§1.8). A refresh requested by the agent re-resolves and rewrites
// the generated files. The composite root is removed at the end unless the
// pass-through args hold --debug. Execute returns the result; a failed run
// has Result.Err set, Execute itself never fails.
func Execute(ctx context.Context, fsys FS, spec Spec, agent Agent, opts Options) *Result {
	if fsys == nil || agent == nil {
		panic("sim: Execute needs a file system and an agent")
	}
	r := &Result{}
	r.Err = quoteError(execute(ctx, fsys, spec, agent, opts, r))
	r.ExitCode = writeback.ExitCode(r.Exit, r.Err)
	return r
}

// quoteError returns err, or, when its message holds control characters
// (a name from a synced repository), err with them quoted
// (resolve.QuoteText); errors.Is and errors.As see err through it.
func quoteError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if q := resolve.QuoteText(msg); q != msg {
		return &QuotedError{Err: err, msg: q}
	}
	return err
}

// QuotedError is a run's error whose message held control characters,
// which a terminal would act on: Error returns the message with them
// quoted (resolve.QuoteText), Unwrap the error itself.
type QuotedError struct {
	// Err is the run's error.
	Err error
	msg string
}

// Error returns the quoted message.
func (e *QuotedError) Error() string { return e.msg }

// Unwrap returns the run's error.
func (e *QuotedError) Unwrap() error { return e.Err }

func resolveOptions(spec Spec, opts Options) resolve.Options {
	return resolve.Options{
		Home: spec.Home, Project: spec.Project, ProfileID: spec.Profile, AgentID: spec.Agent,
		Agents: opts.registry().Agents(), CreateConventionalDirs: true, Cache: opts.Cache,
	}
}

// execution is one run in progress: what each step of [Execute] reads and
// leaves for the next.
type execution struct {
	ctx  context.Context
	fsys FS
	spec Spec
	opts Options
	r    *Result

	res   *resolve.Result
	run   *composite.Run
	paths []composite.StatePath
	// The baseline: on a memory FS a constant-time clone (atBaseline),
	// compared with the machine after the run so that only what changed
	// is visited; a tree snapshot (baseline) elsewhere, or once a refresh
	// has to edit the baseline.
	baseline   vfs.Tree
	atBaseline vfs.FS
	// inUse holds the in-use locks of the state sources while the agent
	// runs (lockSources), in inUseBuf while they fit.
	inUse    []vfs.Unlocker
	inUseBuf [8]vfs.Unlocker
}

// execute runs the steps of one run in upstream's order: resolve and plan,
// materialize, take the baseline, launch, run the agent, detect and handle
// its changes, and remove the composite root at the end. A failure of the
// removal is the run's error when nothing failed before it.
func execute(ctx context.Context, fsys FS, spec Spec, agent Agent, opts Options, r *Result) (err error) {
	if err := spec.check(); err != nil {
		return err
	}
	x := &execution{ctx: ctx, fsys: fsys, spec: spec, opts: opts, r: r}
	if err := x.plan(); err != nil {
		return err
	}
	defer func() {
		if cerr := x.run.Cleanup(); cerr != nil && err == nil {
			err = fmt.Errorf("clean up composite root: %w", cerr)
		}
	}()
	for _, step := range []func() error{x.materialize, x.takeBaseline, x.fetch, x.launch} {
		if err := step(); err != nil {
			return err
		}
	}
	if err := x.runAgent(ctx, agent); err != nil {
		// The agent's own error is the run's, as upstream prints it (a
		// missing CLI, say).
		return err
	}
	return x.handleChanges()
}

// plan resolves the profile, or takes the bootstrap profile of a
// first-run onboarding, and plans the composite.
func (x *execution) plan() error {
	onboarding, onb, err := x.onboarding()
	if err != nil {
		return err
	}
	var res *resolve.Result
	if onboarding != nil {
		res = bootstrapResult(x.spec, onb.ID())
	} else if res, err = x.resolve(); err != nil {
		return err
	}
	x.res = res
	x.r.Resolution = res
	x.r.ProfileID, x.r.AgentID = res.ProfileID, res.AgentID
	// The --debug notice comes as soon as the root exists, before a
	// strict failure, as upstream prints it; the root is known before
	// planning, so a failed plan's error names it by token.
	copts := composite.Options{
		TempDir: x.opts.TempDir, Rand: x.opts.Rand, Clock: x.opts.Clock, Assets: x.opts.Assets, Registry: x.opts.registry(),
		Notify:      func(line string) { x.emit(EventNotice, line) },
		RootCreated: func(root string) { x.r.Root = root },
	}
	req := composite.Request{Result: res, PassThrough: x.spec.Args, Strict: x.spec.Strict, Env: x.opts.Env, Cwd: x.opts.Cwd, Onboarding: onboarding, Platform: x.opts.Platform}
	if x.run, err = composite.Plan(x.fsys, req, copts); err != nil {
		if oe, ok := errors.AsType[*resolve.OptionError](err); ok && oe.Option == "composite.Options.TempDir" {
			oe.Option = "sim.Options.TempDir" // the caller's name for it
		}
		return err
	}
	x.r.Root, x.r.Composite = x.run.Composite.Root, x.run.Composite
	for _, w := range x.run.Warnings {
		x.emit(EventWarning, w)
	}
	x.paths = x.run.Composite.StatePaths
	return nil
}

// resolve loads the run's profile. A run that starts while another
// session syncs a cache it reads waits for the sync to end and reads the
// cache again (see sources.WaitForSyncs): it never plans from a checkout
// half updated. A run without remote sources takes no lock.
func (x *execution) resolve() (*resolve.Result, error) {
	for {
		res, err := resolve.Load(x.fsys, resolveOptions(x.spec, x.opts))
		if err != nil {
			return nil, err
		}
		if !sources.WaitForSyncs(x.fsys, cacheDirs(res)) {
			return res, nil
		}
	}
}

// cacheDirs lists the cache directories a resolution read: those of its
// synced remote profile sources and of its remote settings.
func cacheDirs(res *resolve.Result) []string {
	var dirs []string
	for _, s := range res.Sources {
		if s.Source.Remote() && s.Synced {
			dirs = append(dirs, s.Source.CacheDir(res.Home))
		}
	}
	for _, r := range res.Settings.RemoteSettings {
		dirs = append(dirs, r.CacheDir(res.Home))
	}
	return dirs
}

// emit records a line of the run in its result and tells the observer,
// its control characters quoted (names from synced repositories reach
// the lines).
func (x *execution) emit(kind EventKind, text string) {
	text = resolve.QuoteText(text)
	if kind == EventWarning {
		x.r.Warnings = append(x.r.Warnings, text)
	} else {
		x.r.Messages = append(x.r.Messages, text)
	}
	x.observe(Event{Kind: kind, Text: text})
}

// observe tells the observer, if any.
func (x *execution) observe(e Event) {
	if x.opts.Observer != nil {
		x.opts.Observer.Observe(x.ctx, e)
	}
}

// materialize builds the composite. Copy-fallback notices (a backend
// without links) go where upstream prints them, stderr: they are not the
// run's warnings.
func (x *execution) materialize() error {
	notices, err := x.run.Materialize()
	for _, n := range notices {
		x.emit(EventMessage, n)
	}
	return err
}

// takeBaseline records the composite as the agent will find it.
func (x *execution) takeBaseline() error {
	if m, ok := x.fsys.(*vfs.MemFS); ok {
		x.atBaseline = m.Clone()
		return nil
	}
	var err error
	if x.baseline, err = writeback.Snapshot(x.fsys, x.r.Root, x.paths); err != nil {
		return fmt.Errorf("baseline snapshot: %w", err)
	}
	return nil
}

// fetch makes the checkouts the launch plan names that do not exist yet,
// when the run has tools; a failure fails the run before the launch.
func (x *execution) fetch() error {
	if x.opts.Tools == nil {
		return nil
	}
	return sources.Fetch(x.ctx, x.fsys, x.opts.Tools, x.run.Checkouts(), func(line string) { x.emit(EventNotice, line) })
}

// launch builds the launch plan and records the composite at launch.
func (x *execution) launch() error {
	plan, notices, err := x.run.Launch()
	if err != nil {
		return err
	}
	for _, n := range notices {
		x.emit(EventNotice, n)
	}
	r := x.r
	r.Plan = plan
	if r.AtLaunch, err = vfs.Snapshot(x.fsys, r.Root); err != nil {
		return fmt.Errorf("snapshot at launch: %w", err)
	}
	if e, ok := r.AtLaunch["outfitter/profile.json"]; ok && e.Type == vfs.TypeFile {
		r.GeneratedProfile = e.Data
	}
	r.nativeModels, _ = x.fsys.ReadFile(r.Root + "/models.json")
	r.Summary = SummaryOf(x.res, r.Root)
	if x.opts.Observer != nil { // the text is for an observer only
		x.observe(Event{Kind: EventSummary, Text: strings.Join(r.Summary.Lines(), "\n"), Summary: r.Summary})
	}
	return nil
}

// runAgent starts the agent with its session and records how it ended.
func (x *execution) runAgent(ctx context.Context, agent Agent) error {
	r := x.r
	sess := &Session{AgentID: r.AgentID, Adapter: x.run.Adapter, Plan: r.Plan, Root: r.Root, FS: x.fsys, Interactive: x.spec.Interactive, Env: x.opts.Env}
	sess.refresh = x.refresh
	sess.WatchPaths = x.run.Composite.WatchPaths()
	sess.message = func(text string) { x.emit(EventMessage, text) }
	if err := x.lockSources(); err != nil {
		return err
	}
	r.Launched = true
	exit, err := agent.Run(ctx, sess)
	r.Exit = exit
	if uerr := x.releaseSources(); uerr != nil && err == nil {
		err = fmt.Errorf("release the in-use locks of the state sources: %w", uerr)
	}
	return err
}

// lockSources takes the in-use lock of each durable file that a state
// path links into the composite: a shared lock of the file the link leads
// to ([vfs.LockShared]), held while the agent runs, which the agent's
// writes through the link (a truncation, then the content) happen under.
// Another session's blank-source reset ([composite.EnsureSource]) tries
// the exclusive lock of the file and leaves a file in use as it is: it
// never renames a new file over one the agent is writing. The locks are
// held in x.inUse and released by releaseSources when the agent has
// exited, before the write-back, whose persist may reset a blank source
// itself. Only file state paths linked to their source are locked, by
// the name materialization gave their link, and only when it names a
// regular file, so that the lock never creates one where a link dangles;
// a copy in a link's place (a backend without links) is locked too, which
// changes nothing, as nothing resets a file of the composite. On a file
// system without shared locks nothing is locked.
func (x *execution) lockSources() error {
	if _, ok := x.fsys.(vfs.SharedLockFS); !ok {
		return nil
	}
	x.inUse = x.inUseBuf[:0]
	for i, sp := range x.run.Composite.StatePaths {
		if sp.Strategy != composite.StrategySymlink || sp.Directory || sp.SourcePath == "" {
			continue
		}
		out, ok := x.run.StateOutput(i)
		if !ok {
			continue
		}
		if mode, err := vfs.Probe(x.fsys, out); err != nil || !mode.IsRegular() {
			continue
		}
		u, err := vfs.LockShared(x.fsys, out)
		if errors.Is(err, errors.ErrUnsupported) {
			break
		}
		if err != nil {
			return errors.Join(fmt.Errorf("take the in-use lock of state source '%s': %w", sp.SourcePath, err), x.releaseSources())
		}
		x.inUse = append(x.inUse, u)
	}
	return nil
}

// releaseSources releases the in-use locks lockSources took.
func (x *execution) releaseSources() error {
	var err error
	for _, u := range x.inUse {
		err = errors.Join(err, u.Unlock())
	}
	x.inUse = x.inUse[:0]
	return err
}

// handleChanges detects what the agent changed in the composite,
// classifies it and handles it (persist, warn, prompt, fail).
func (x *execution) handleChanges() error {
	r := x.r
	var issues []writeback.Issue
	var err error
	if x.atBaseline != nil {
		issues, err = writeback.DetectSince(x.atBaseline, x.fsys, r.Root, x.paths)
	} else {
		issues, err = writeback.Detect(x.fsys, r.Root, x.paths, x.baseline)
	}
	if err != nil {
		return fmt.Errorf("detect state writes: %w", err)
	}
	r.Issues = issues
	report, herr := writeback.Handle(x.ctx, x.fsys, r.Root, x.paths, issues, writeback.Options{
		Agent: r.AgentID, Strict: x.spec.Strict, Interactive: x.spec.Interactive, Prompter: x.opts.Prompter,
		Declarations: x.run.Adapter.Declarations(), Profile: writeback.SelectedProfile(x.res),
		Notify: func(line string) { x.emit(EventNotice, line) },
	})
	r.Writes = report.Writes
	if herr != nil {
		return herr
	}
	for _, w := range report.Warnings {
		x.emit(EventWarning, w)
	}
	return nil
}

// refresh re-resolves the run's inputs, exports the system prompt again
// (profile_export) and rewrites the generated files (never through a
// link: writeback.Refresh replaces a link by the file and the path
// becomes discard for the rest of the run). The baseline becomes
// a tree the first time, since the refresh edits it. A failed refresh is a
// message, as upstream's watcher prints it, not an error of the agent.
func (x *execution) refresh(watchPath string) error {
	if x.baseline == nil {
		var err error
		if x.baseline, err = writeback.Snapshot(x.atBaseline, x.r.Root, x.paths); err != nil {
			return fmt.Errorf("baseline snapshot: %w", err)
		}
		x.atBaseline = nil
	}
	generate := func() ([]composite.File, error) {
		res, err := resolve.Load(x.fsys, resolveOptions(x.spec, x.opts))
		if err != nil {
			return nil, err
		}
		// Upstream exports the system prompt again before it plans the
		// composite again.
		notices, err := x.run.Export(res)
		for _, n := range notices {
			x.emit(EventMessage, n)
		}
		if err != nil {
			return nil, err
		}
		return x.run.Regenerate(res)
	}
	out, err := writeback.Refresh(x.fsys, x.r.Root, x.baseline, x.paths, watchPath, generate)
	if err != nil {
		x.emit(EventMessage, err.Error())
		return nil
	}
	x.baseline = out.Baseline
	x.paths = out.StatePaths
	x.observe(Event{Kind: EventRefresh, Files: out.Written})
	return nil
}
