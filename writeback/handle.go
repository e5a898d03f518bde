package writeback

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// Choice is an answer to a prompt about a state path with strategy prompt.
type Choice string

// The three answers a [Prompter] may give.
const (
	// ChoicePersist copies the composite path to its durable source once.
	ChoicePersist Choice = "persist"
	// ChoiceDiscard drops the change.
	ChoiceDiscard Choice = "discard"
	// ChoiceAlways persists once and records state_persistence.<key>: symlink in
	// the selected profile file, so later runs link the path.
	ChoiceAlways Choice = "always"
)

// PromptRequest is what a [Prompter] is asked about.
type PromptRequest struct {
	// Agent is the adapter id.
	Agent string
	// Path is the declared key ("mcp.json", "plugins/").
	Path string
	// SourcePath is the durable source the change would be copied to.
	SourcePath string
}

// Prompter asks the user what to do with a change to a prompt path.
type Prompter interface {
	// Prompt returns the user's choice; an error fails the run. A
	// prompter that waits for an answer returns ctx's error when ctx is
	// done first.
	Prompt(ctx context.Context, req PromptRequest) (Choice, error)
}

// PrompterFunc adapts a function to [Prompter].
type PrompterFunc func(ctx context.Context, req PromptRequest) (Choice, error)

// Prompt calls f.
func (f PrompterFunc) Prompt(ctx context.Context, req PromptRequest) (Choice, error) {
	return f(ctx, req)
}

// Profile locates the selected profile's highest-precedence definition,
// where a [ChoiceAlways] answer is recorded.
type Profile struct {
	// ID is the selected profile id.
	ID string
	// File is the definition's YAML file (profile.yml or <id>.yml); empty
	// when there is none.
	File string
	// Remote reports a definition that arrived by sync (see
	// resolve.SyncedCheckout), which is never edited.
	Remote bool
}

// Options configures [Handle]: Agent is required, the rest may be left
// out for a non-interactive, non-strict run.
type Options struct {
	// Agent is the adapter id that names the agent in messages, required:
	// Handle fails with a *resolve.OptionError naming it when it is
	// empty.
	Agent string
	// Strict turns the warnings into a [*composite.StrictError].
	Strict bool
	// Interactive reports an interactive session. Prompter is asked only
	// when it is set; otherwise prompt paths are reported and skipped.
	Interactive bool
	// Prompter answers prompts in interactive sessions.
	Prompter Prompter
	// Declarations are the adapter's state path declarations; a [ChoiceAlways]
	// choice is recorded only for a key whose declaration allows symlink.
	// An interactive run needs them: an "always" answer with nil
	// Declarations fails Handle with a *resolve.OptionError naming them
	// (after the write is persisted once).
	Declarations []composite.Declaration
	// Profile is where a [ChoiceAlways] answer is recorded, as
	// [SelectedProfile] gives it; an "always" answer with the zero Profile
	// fails Handle as nil Declarations do.
	Profile Profile
	// Notify, when not nil, is called with each confirmation (the lines
	// of [Report].Notices) as it is made, so that a terminal shows it
	// before the next prompt, as upstream prints it.
	Notify func(line string)
}

// WriteKind names a durable write made by [Handle].
type WriteKind string

// The durable writes [Handle] can make; there are no others.
const (
	// WritePersist is a copy of a composite path to its durable source.
	WritePersist WriteKind = "persist"
	// WriteRecord is state_persistence.<key>: symlink written into a
	// profile file.
	WriteRecord WriteKind = "record"
)

// Write is one durable write made by [Handle].
type Write struct {
	// Kind says what was written.
	Kind WriteKind
	// Path is the declared key concerned.
	Path string
	// Target is the absolute path written: the durable source or the
	// profile file.
	Target string
}

// Report is the outcome of [Handle].
type Report struct {
	// Issues are the issues handled, in order.
	Issues []Issue
	// Warnings are the warning lines (stderr and result.warnings upstream).
	Warnings []string
	// Notices are the confirmations printed on stdout (persisted,
	// discarded); they are not warnings.
	Notices []string
	// Writes are the durable writes made, in order.
	Writes []Write
}

// Handle processes issues in order, as upstream does after the agent
// exits: a warn or symlink issue yields its warning, a prompt issue is
// reported, or asked about and applied (§5.4), and the first error issue
// stops the processing with a [*StateWriteError]; warnings gathered before
// it are then not to be printed, while prompt choices already applied stay
// applied. When opts.Strict is set and there are warnings, the error is a
// [*composite.StrictError] and the warnings are not to be printed
// separately.
//
// paths are the composite's declared state paths below root; fsys is
// written only by [Persist] and [Record], for prompt answers.
//
// ctx is handed to the [Prompter]; Handle does not check it otherwise.
func Handle(ctx context.Context, fsys PersistFS, root string, paths []composite.StatePath, issues []Issue, opts Options) (Report, error) {
	if err := opts.checkAgent(); err != nil {
		return Report{}, err
	}
	r := Report{Issues: slices.Clone(issues)}
	for _, is := range issues {
		switch is.Strategy {
		case composite.StrategyError:
			return r, &StateWriteError{Agent: opts.Agent, Issue: is}
		case composite.StrategyPrompt:
			if err := r.prompt(ctx, fsys, root, paths, is, opts); err != nil {
				return r, err
			}
		default:
			r.Warnings = append(r.Warnings, is.Message(opts.Agent))
		}
	}
	return r, composite.Strict(opts.Strict, opts.Agent, r.Warnings)
}

func (r *Report) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// notice records a confirmation and tells opts.Notify.
func (r *Report) notice(opts Options, line string) {
	r.Notices = append(r.Notices, line)
	if opts.Notify != nil {
		opts.Notify(line)
	}
}

func (r *Report) prompt(ctx context.Context, fsys PersistFS, root string, paths []composite.StatePath, is Issue, opts Options) error {
	if is.Unknown {
		r.Warnings = append(r.Warnings, is.Message(opts.Agent))
		r.warn("state_persistence 'prompt' cannot persist undeclared writes; '%s' was reported instead.", is.Path)
		return nil
	}
	if !opts.Interactive || opts.Prompter == nil {
		r.Warnings = append(r.Warnings, is.Message(opts.Agent))
		r.warn("state_persistence prompt for '%s' skipped: non-interactive session.", is.Path)
		return nil
	}
	sp := statePath(paths, is.Path)
	choice, err := opts.Prompter.Prompt(ctx, PromptRequest{Agent: opts.Agent, Path: is.Path, SourcePath: sp.SourcePath})
	if err != nil {
		return fmt.Errorf("prompt for state path %q: %w", is.Path, err)
	}
	switch choice {
	case ChoiceDiscard:
		r.notice(opts, fmt.Sprintf("Discarded %s state write to '%s'.", opts.Agent, is.Path))
		return nil
	case ChoicePersist, ChoiceAlways:
	default:
		return fmt.Errorf("prompt for state path %q: invalid choice %q", is.Path, choice)
	}
	if err := Persist(fsys, root, sp); err != nil {
		r.warn("Could not persist state path '%s': Error: %v", is.Path, err)
		return nil
	}
	r.notice(opts, fmt.Sprintf("Persisted %s state write '%s' to %s.", opts.Agent, is.Path, sp.SourcePath))
	r.Writes = append(r.Writes, Write{Kind: WritePersist, Path: is.Path, Target: sp.SourcePath})
	if choice == ChoiceAlways {
		if err := opts.checkAlways(); err != nil {
			return err
		}
		r.always(fsys, is.Path, opts)
	}
	return nil
}

// checkAgent reports an Options without the agent's id, which every
// message names.
func (o Options) checkAgent() error {
	if o.Agent != "" {
		return nil
	}
	return &resolve.OptionError{
		Option:  "writeback.Options.Agent",
		Problem: "is empty, so no message could name the agent",
		Fix:     "give the run's agent id, the AgentID of its resolve.Result",
	}
}

// checkAlways reports an Options that cannot record an "always" answer
// for a reason of its own making: the declarations or the profile left
// out (an adapter always declares its state paths, and a selected
// profile always has an id).
func (o Options) checkAlways() error {
	switch {
	case o.Declarations == nil:
		return &resolve.OptionError{
			Option:  "writeback.Options.Declarations",
			Problem: `is nil, so an "always" answer cannot be checked against the adapter`,
			Fix:     "give the adapter's declarations, Declarations() of the run's composite.Adapter",
		}
	case o.Profile == (Profile{}):
		return &resolve.OptionError{
			Option:  "writeback.Options.Profile",
			Problem: `is empty, so an "always" answer has no profile to be recorded in`,
			Fix:     "give the selected profile, writeback.SelectedProfile of the run's resolve.Result",
		}
	}
	return nil
}

// always records an always choice, or warns why it cannot.
func (r *Report) always(fsys PersistFS, key string, opts Options) {
	i := slices.IndexFunc(opts.Declarations, func(d composite.Declaration) bool { return d.Key == key })
	if i < 0 || !slices.Contains(opts.Declarations[i].Allowed, composite.StrategySymlink) {
		r.warn("Cannot always-persist '%s': the %s adapter does not allow 'symlink' for it; the write was persisted once.", key, opts.Agent)
		return
	}
	if opts.Profile.File == "" || opts.Profile.Remote {
		r.warn("Cannot record the always-persist choice for '%s' because profile '%s' is not a local profile file; the write was persisted once.", key, opts.Profile.ID)
		return
	}
	if err := Record(fsys, opts.Profile.File, key); err != nil {
		r.warn("Cannot record the always-persist choice for '%s' in %s: %v; the write was persisted once.", key, opts.Profile.File, err)
		return
	}
	r.Writes = append(r.Writes, Write{Kind: WriteRecord, Path: key, Target: opts.Profile.File})
}

// statePath returns the declared state path with the given key; a key
// that is not declared yields a path without a source.
func statePath(paths []composite.StatePath, key string) composite.StatePath {
	for _, p := range paths {
		if p.RelativePath == key {
			return p
		}
	}
	return composite.StatePath{RelativePath: key, Strategy: composite.StrategyPrompt, Directory: strings.HasSuffix(key, "/")}
}

// PersistFS is what [Handle], [Persist] and [Record] need of a file
// system: reading with Lstat semantics; creating, writing and removing
// files, directories and links; and, for durable files replaced
// atomically ([vfs.ReplaceFile]), exclusive creation, chmod and rename.
type PersistFS interface {
	vfs.StatFS
	vfs.LstatFS
	vfs.ReadFileFS
	vfs.ReadDirFS
	vfs.ReadLinkFS
	vfs.WriteFileFS
	vfs.OpenFileFS
	vfs.MkdirFS
	vfs.MkdirAllFS
	vfs.RemoveFS
	vfs.RenameFS
	vfs.SymlinkFS
	vfs.ChmodFS
}
