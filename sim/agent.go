package sim

import (
	"context"
	"errors"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// An Agent stands for the agent process of one run. It is started after
// the composite is materialized and the baseline taken, with the final
// launch plan, and returns how it ended. An Agent that returns an error
// fails the run (the error becomes the run's error).
type Agent interface {
	Run(ctx context.Context, s *Session) (writeback.Exit, error)
}

// AgentFunc adapts a function to [Agent].
type AgentFunc func(ctx context.Context, s *Session) (writeback.Exit, error)

// Run calls f.
func (f AgentFunc) Run(ctx context.Context, s *Session) (writeback.Exit, error) { return f(ctx, s) }

// Session is what an [Agent] sees of its run.
type Session struct {
	// AgentID is the adapter id ("pi", "claude").
	AgentID string
	// Adapter is the agent's adapter.
	Adapter composite.Adapter
	// Plan is the final launch plan (env and args as the process gets them).
	Plan composite.LaunchPlan
	// Root is the composite root, the agent's config directory.
	Root string
	// FS is the machine's file system. Writes follow symbolic links as a
	// process's would: a write through a symlinked state path lands in
	// its durable source.
	FS vfs.ReadWriteFS
	// Interactive reports an interactive session.
	Interactive bool
	// Env is the caller's process environment ([Options].Env), which a
	// process of the agent inherits with the plan's variables set over it.
	Env []string
	// WatchPaths are the inputs of the composite's generated files that
	// are files of the machine, in first-seen order: upstream's watch
	// plan. An agent that runs while
	// they may change (a real process) watches them and calls
	// [Session.RefreshAfter] when one changes.
	WatchPaths []string

	refresh func(watchPath string) error
	message func(text string)
}

// Message reports a line upstream prints on standard error that is not a
// warning ([EventMessage]), such as an input that cannot be watched. It
// follows the rules of [Session.RefreshAfter] on concurrency.
func (s *Session) Message(text string) {
	if s.message != nil {
		s.message(text)
	}
}

// Path returns the absolute name of a path relative to the composite root,
// as an op path of a scenario names it ([fixtures.Machine.Path]). It
// refuses names that are absolute or climb out of the root lexically.
func (s *Session) Path(rel string) (string, error) {
	return fixtures.Machine{Root: s.Root}.Path(rel)
}

// Refresh re-generates the composite's generated files from their current
// inputs, as upstream's live-update watcher does after an edit; state
// paths are not re-materialized. It fails when the run has no refresh.
func (s *Session) Refresh() error { return s.RefreshAfter("") }

// RefreshAfter is [Session.Refresh] after a change of the input
// watchPath, which a failed refresh names in its message, as upstream's
// watcher does. A refresh that fails is not an error of the agent: the
// composite keeps its contents and the failure is the run's message
// ([EventMessage]). RefreshAfter must not be called concurrently with
// itself, nor after the agent's Run has returned.
func (s *Session) RefreshAfter(watchPath string) error {
	if s.refresh == nil {
		return errors.New("refresh: not available in this run")
	}
	return s.refresh(watchPath)
}

// Script is the [Agent] of scenario files: it applies the in-run ops of a
// scenario ([fixtures.Op]) in order through the scenarios' one op
// interpreter, [fixtures.Machine]. File ops act on paths relative to the
// composite root and follow links; edit_source writes a durable input (a
// token path) and refresh re-generates files from it; exit and signal end
// the agent; expect_* ops check the composite while the agent runs, and a
// failed check ends the run with a *[fixtures.ExpectError]. Without an
// exit or a signal op the agent exits with code 0.
type Script struct {
	// Ops are the run's ops, in order.
	Ops []fixtures.Op
	// Pointer locates Ops in their scenario ("/runs/0/ops") for errors;
	// "" means "/ops".
	Pointer string
	// Custom runs the ops of an embedding suite (kinds starting with
	// fixtures.CustomPrefix); nil fails them.
	Custom fixtures.OpFunc
}

// Run applies the ops.
func (sc Script) Run(ctx context.Context, s *Session) (writeback.Exit, error) {
	ptr := sc.Pointer
	if ptr == "" {
		ptr = "/ops"
	}
	m := fixtures.Machine{FS: s.FS, Root: s.Root, Getenv: s.Plan.Getenv, Refresh: s.Refresh, Custom: sc.Custom}
	end, err := m.Run(ctx, ptr, sc.Ops)
	switch {
	case err != nil:
		return writeback.Exit{}, err
	case end == nil:
		return writeback.Exit{Exited: true, Code: 0}, nil
	case end.Signal != "":
		return writeback.Exit{Signal: end.Signal}, nil
	}
	return writeback.Exit{Exited: true, Code: end.Code}, nil
}
