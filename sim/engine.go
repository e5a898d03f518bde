package sim

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
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
	// Prompter answers prompt-strategy questions in interactive runs.
	Prompter writeback.Prompter
	// Assets holds Outfitter's own files (bundled skill, pi extension); nil
	// means the embedded defaults.
	Assets fs.FS
	// TempDir is where composite roots are created; "" means /tmp.
	TempDir string
	// Env is the process environment the agent would inherit (only
	// DEEPWORK_ADDITIONAL_JOBS_FOLDERS is read by the engine).
	Env []composite.EnvVar
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
	// Home and Project are absolute paths in the file system.
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
}

// Result is what one run produced. Fields after the launch are set only
// when the run got that far.
type Result struct {
	// ProfileID and AgentID are the resolved ids, when resolution succeeded.
	ProfileID, AgentID string
	// Root is the composite root, when it was created.
	Root string
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
	// Messages are the lines upstream prints outside the warnings (the
	// debug root, prompt confirmations, copy-fallback notices, refresh
	// failures); they are not warnings.
	Messages []string
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
	r.Err = execute(ctx, fsys, spec, agent, opts, r)
	r.ExitCode = writeback.ExitCode(r.Exit, r.Err)
	return r
}

func resolveOptions(spec Spec, opts Options) resolve.Options {
	return resolve.Options{
		Home: spec.Home, Project: spec.Project, ProfileID: spec.Profile, AgentID: spec.Agent,
		Agents: opts.registry().Agents(), CreateConventionalDirs: true, Cache: opts.Cache,
	}
}

func execute(ctx context.Context, fsys FS, spec Spec, agent Agent, opts Options, r *Result) error {
	res, err := resolve.Load(fsys, resolveOptions(spec, opts))
	if err != nil {
		return err
	}
	r.ProfileID, r.AgentID = res.ProfileID, res.AgentID
	copts := composite.Options{TempDir: opts.TempDir, Rand: opts.Rand, Clock: opts.Clock, Assets: opts.Assets, Registry: opts.registry()}
	req := composite.Request{Result: res, PassThrough: spec.Args, Strict: spec.Strict, Env: opts.Env, Cwd: opts.Cwd}
	run, err := composite.Plan(fsys, req, copts)
	if err != nil {
		return err
	}
	r.Root = run.Composite.Root
	r.Messages = append(r.Messages, run.Messages...)
	defer func() {
		if cerr := run.Cleanup(); cerr != nil && r.Err == nil {
			r.Err = fmt.Errorf("clean up composite root: %w", cerr)
		}
	}()
	r.Warnings = append(r.Warnings, run.Warnings...)
	// Copy-fallback notices (a backend without links) go where upstream
	// prints them, stderr: they are not the run's warnings.
	notices, err := run.Materialize()
	r.Messages = append(r.Messages, notices...)
	if err != nil {
		return err
	}
	paths := run.Composite.StatePaths
	// The baseline: on a memory FS a constant-time clone, compared with the
	// machine after the run (only what changed is visited); a tree
	// snapshot elsewhere, or once a refresh has to edit the baseline.
	var baseline vfs.Tree
	var atBaseline vfs.FS
	if m, ok := fsys.(*vfs.MemFS); ok {
		atBaseline = m.Clone()
	} else if baseline, err = writeback.Snapshot(fsys, r.Root, paths); err != nil {
		return fmt.Errorf("baseline snapshot: %w", err)
	}
	plan, err := run.Launch()
	if err != nil {
		return err
	}
	r.Plan = plan
	if r.AtLaunch, err = vfs.Snapshot(fsys, r.Root); err != nil {
		return fmt.Errorf("snapshot at launch: %w", err)
	}
	if e, ok := r.AtLaunch["outfitter/profile.json"]; ok && e.Type == vfs.TypeFile {
		r.GeneratedProfile = e.Data
	}
	r.nativeModels, _ = fsys.ReadFile(r.Root + "/models.json")

	sess := &Session{AgentID: r.AgentID, Adapter: run.Adapter, Plan: plan, Root: r.Root, FS: fsys, Interactive: spec.Interactive}
	sess.refresh = func() error {
		if baseline == nil {
			var err error
			if baseline, err = writeback.Snapshot(atBaseline, r.Root, paths); err != nil {
				return fmt.Errorf("baseline snapshot: %w", err)
			}
			atBaseline = nil
		}
		return refresh(fsys, spec, opts, run, &baseline, &paths, r)
	}
	r.Launched = true
	exit, err := agent.Run(ctx, sess)
	r.Exit = exit
	if err != nil {
		// The agent's own error is the run's, as upstream prints it (a
		// missing CLI, say).
		return err
	}

	var issues []writeback.Issue
	if atBaseline != nil {
		issues, err = writeback.DetectSince(atBaseline, fsys, r.Root, paths)
	} else {
		issues, err = writeback.Detect(fsys, r.Root, paths, baseline)
	}
	if err != nil {
		return fmt.Errorf("detect state writes: %w", err)
	}
	r.Issues = issues
	report, herr := writeback.Handle(fsys, r.Root, paths, issues, writeback.Options{
		Agent: r.AgentID, Strict: spec.Strict, Interactive: spec.Interactive, Prompter: opts.Prompter,
		Declarations: run.Adapter.Declarations(), Profile: selectedProfile(res),
	})
	r.Writes = report.Writes
	r.Messages = append(r.Messages, report.Notices...)
	if herr != nil {
		return herr
	}
	r.Warnings = append(r.Warnings, report.Warnings...)
	return nil
}

// refresh re-resolves the run's inputs and rewrites the generated files
// (never through a link: writeback.Refresh replaces a link by the file and
// the path becomes discard for the rest of the run).
func refresh(fsys FS, spec Spec, opts Options, run *composite.Run, baseline *vfs.Tree, paths *[]composite.StatePath, r *Result) error {
	generate := func() ([]composite.File, error) {
		res, err := resolve.Load(fsys, resolveOptions(spec, opts))
		if err != nil {
			return nil, err
		}
		return run.Regenerate(res)
	}
	out, err := writeback.Refresh(fsys, run.Composite.Root, *baseline, *paths, "", generate)
	if err != nil {
		r.Messages = append(r.Messages, err.Error())
		return nil
	}
	*baseline = out.Baseline
	*paths = out.StatePaths
	return nil
}

// selectedProfile locates the definition a prompt's "always" answer is
// recorded in: the highest-precedence definition of the selected id.
func selectedProfile(res *resolve.Result) writeback.Profile {
	p := writeback.Profile{ID: res.ProfileID}
	for i := len(res.Layers) - 1; i >= 0; i-- {
		l := res.Layers[i]
		if l.ID != res.ProfileID {
			continue
		}
		p.File = l.ProfilePath
		p.Remote = l.Source.Remote()
		break
	}
	return p
}
