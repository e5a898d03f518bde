package composite

import (
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
)

// Strategy is what happens to a declared state path: how it is
// materialized before the launch and how a change to it is treated after
// the agent exits.
type Strategy string

// The complete set of state path strategies.
const (
	// StrategySymlink links the path to its durable source; writes through
	// the link are durable.
	StrategySymlink Strategy = "symlink"
	// StrategyDiscard starts the path empty and silently drops changes.
	StrategyDiscard Strategy = "discard"
	// StrategyWarn starts the path empty and warns about changes.
	StrategyWarn Strategy = "warn"
	// StrategyError starts the path empty and fails the run on changes.
	StrategyError Strategy = "error"
	// StrategyPrompt starts the path empty and asks whether to persist a
	// change to the resolved source.
	StrategyPrompt Strategy = "prompt"
)

// Strategies lists every strategy in the order of the specification.
func Strategies() []Strategy {
	return []Strategy{StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt}
}

// Valid reports whether s is one of the five strategies.
func (s Strategy) Valid() bool {
	switch s {
	case StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt:
		return true
	}
	return false
}

// UnknownPath is the relative path of the pseudo state path that governs
// every change the agent makes outside files and declared state paths.
const UnknownPath = "unknown"

// SourceOrigin says which rule chose the durable source of a state path.
type SourceOrigin string

// The origins of a durable source, in the order they are tried.
const (
	// SourceAdapter is the adapter's own source for the key (pi's shared
	// utilities/ in the cache directory, Claude's projects/ following
	// session_directory).
	SourceAdapter SourceOrigin = "adapter"
	// SourceProfile is a profile-owned source,
	// <folder>/cli_specific/<agent>/<key> of the highest profile folder
	// that has it.
	SourceProfile SourceOrigin = "profile"
	// SourceNative is the agent's own state under the home.
	SourceNative SourceOrigin = "native"
)

// StatePath is a declared state path of a composite with its resolved
// strategy.
type StatePath struct {
	// RelativePath is the declared key, verbatim: a directory key keeps its
	// trailing slash ("plugins/"); the pseudo-path is [UnknownPath].
	RelativePath string
	// Strategy is the effective strategy after profile overrides and
	// adapter-internal rewrites.
	Strategy Strategy
	// SourcePath is the durable source, absolute in practice; it is set
	// only for the symlink and prompt strategies and is empty otherwise.
	SourcePath string
	// Directory reports whether the key denotes a directory (ends with "/").
	Directory bool
	// Folder is the profile folder a profile-owned source was found in
	// (its cli_specific/<agent> holds SourcePath); empty for native and
	// cache sources. The blank-source reset of [EnsureSource] never writes
	// through a link whose real path leaves it.
	Folder string
	// Origin says which rule chose SourcePath; empty when there is none.
	Origin SourceOrigin
	// Seed is, for a profile-owned source of a profile that arrived by
	// sync, the source as its checkout holds it: the agent never writes
	// into a checkout, so SourcePath is the source's state copy
	// (resolve.SyncedState) and Folder its state folder, and a missing
	// SourcePath is made as a copy of Seed when Seed exists; "" for every
	// other source.
	Seed string
}

// Name returns the relative path without a trailing slash ("plugins").
func (s StatePath) Name() string { return strings.TrimSuffix(s.RelativePath, "/") }

// IsUnknown reports whether s is the unknown pseudo-path.
func (s StatePath) IsUnknown() bool { return s.RelativePath == UnknownPath }

// FileStrategy describes how a generated file's content was derived. It is
// metadata only: every generated file is written the same way.
type FileStrategy string

// The file strategies. FileCopy exists for completeness; no adapter uses it.
const (
	FileCopy      FileStrategy = "copy"
	FileMerge     FileStrategy = "merge"
	FileTransform FileStrategy = "transform"
	FileGenerate  FileStrategy = "generate"
)

// File is a generated file of a composite. Generated files are never
// copied back anywhere.
type File struct {
	// RelativePath is the slash-separated path below the composite root.
	RelativePath string
	// Content is the file's content.
	Content string
	// SourceInputs lists the durable files the content was derived from, in
	// order; they drive live updates.
	SourceInputs []string
	// Strategy describes how the content was derived; empty means
	// [FileGenerate].
	Strategy FileStrategy
}

// Composite is the plan of a composite profile: a temporary configuration
// directory for one resolved profile and one agent.
type Composite struct {
	// Root is the absolute composite root directory.
	Root string
	// Files are the generated files, in write order.
	Files []File
	// StatePaths are the declared state paths in declaration order; the
	// last one is the [UnknownPath] pseudo-path.
	StatePaths []StatePath

	candidates stateCandidates // see Candidates
}

// Candidates returns the durable sources considered for the state path
// key (its RelativePath), in order of preference: the adapter's own source
// when it has one for the key (pi's shared utilities/, Claude's projects/
// following session_directory) and nothing else; otherwise the
// profile-owned <folder>/cli_specific/<agent>/<key> of each profile folder
// holding a cli_specific/<agent> directory, highest precedence first, then
// the native source. The state path's SourcePath is the first profile-owned
// candidate that exists, else the native one; the others lost. It returns
// nil for a path without a durable source, and for a composite that
// [Plan] did not make.
func (c *Composite) Candidates(key string) []string {
	return c.candidates.of(key)
}

// StatePath returns the state path whose RelativePath or normalized name
// equals rel, and whether there is one.
func (c *Composite) StatePath(rel string) (StatePath, bool) {
	rel = strings.TrimSuffix(rel, "/")
	for _, s := range c.StatePaths {
		if s.Name() == rel {
			return s, true
		}
	}
	return StatePath{}, false
}

// Unknown returns the strategy of the unknown pseudo-path, or
// [StrategyWarn] (the default of both adapters) when it is absent.
func (c *Composite) Unknown() Strategy {
	if s, ok := c.StatePath(UnknownPath); ok {
		return s.Strategy
	}
	return StrategyWarn
}

// WatchPaths returns upstream's watch plan: the inputs of the generated
// files, each once, in first-seen order, without Outfitter's own assets
// (relative names in [Options].Assets, not files of the machine). A
// change to one of them is what a live refresh follows.
func (c *Composite) WatchPaths() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range c.Files {
		for _, in := range f.SourceInputs {
			if path.IsAbs(in) && !seen[in] {
				seen[in] = true
				out = append(out, in)
			}
		}
	}
	return out
}

// Abs returns the absolute path of the relative path rel below the root.
func (c *Composite) Abs(rel string) string { return vfs.Join(c.Root, rel) }

// Declaration is an adapter's declaration of one state path.
type Declaration struct {
	// Key is the declared relative path; a trailing slash marks a directory.
	Key string
	// Default is the strategy used when the profile does not override it.
	Default Strategy
	// Allowed lists the strategies a profile may choose, in the order of the
	// specification.
	Allowed []Strategy
}

// Directory reports whether the declaration denotes a directory.
func (d Declaration) Directory() bool { return strings.HasSuffix(d.Key, "/") }

// EnvVar is one environment variable of a [LaunchPlan].
type EnvVar struct {
	// Name is the variable's name.
	Name string
	// Value is the variable's value.
	Value string
}

// LookupEnv returns the value of the named variable in env, a process
// environment of "NAME=value" strings, and whether it is set. The last
// entry of a name wins, as os/exec keeps it for the child and the child
// sees it.
func LookupEnv(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if n, v, ok := strings.Cut(env[i], "="); ok && n == name {
			return v, true
		}
	}
	return "", false
}

// LaunchPlan is the logical command line of an agent launch. Env is
// ordered, as upstream's object key order is observable in the captures.
type LaunchPlan struct {
	// Command is the logical command (the agent CLI's name).
	Command string
	// Args are the arguments after the command.
	Args []string
	// Env holds the variables the plan sets, in insertion order, each name
	// once.
	Env []EnvVar
}

// Getenv returns the value of the named variable and whether it is set.
func (p *LaunchPlan) Getenv(name string) (string, bool) {
	for _, e := range p.Env {
		if e.Name == name {
			return e.Value, true
		}
	}
	return "", false
}

// Setenv sets a variable like a JavaScript object assignment: an existing
// name keeps its position and takes the new value, a new name is appended.
func (p *LaunchPlan) Setenv(name, value string) {
	for i, e := range p.Env {
		if e.Name == name {
			p.Env[i].Value = value
			return
		}
	}
	p.Env = append(p.Env, EnvVar{Name: name, Value: value})
}

// EnvMap returns the environment as a map.
func (p *LaunchPlan) EnvMap() map[string]string {
	m := make(map[string]string, len(p.Env))
	for _, e := range p.Env {
		m[e.Name] = e.Value
	}
	return m
}

// Adapter turns a resolved profile into a composite plan and a launch plan
// for one agent CLI. Adding an agent means writing one Adapter and adding
// it to the registry ([DefaultRegistry], or a [Registry] of one's own); an
// adapter builds on what [Input] offers every agent. What only some agents
// need are optional interfaces: [BlockSchemaAdapter], [LaunchFinisher] and
// [InstallHinter].
type Adapter interface {
	// ID returns the adapter id ("pi", "claude"): the --agent value, the
	// key of the agent's controls block, the cli_specific/<id> folder of
	// profile-owned state, and the agent's name in messages and in the
	// composite root's name.
	ID() string
	// Declarations returns the declared state paths in declaration order,
	// ending with the [UnknownPath] pseudo-path.
	Declarations() []Declaration
	// Compose plans the composite (generated files and state paths) and
	// returns the adapter's warnings. It never writes to the file system.
	Compose(in *Input) (*Composite, []string, error)
	// Launch builds the launch plan for a planned composite and returns the
	// adapter's warnings (controls it cannot translate).
	Launch(in *Input, c *Composite) (LaunchPlan, []string, error)
}

// A BlockSchemaAdapter is an [Adapter] whose controls block
// (controls.<id>) takes keys beyond the controls every agent block takes.
type BlockSchemaAdapter interface {
	Adapter
	// BlockSchema returns a JSON Schema object for the block's own keys
	// (see [resolve.Agent].Block).
	BlockSchema() string
}

// A LaunchFinisher is an [Adapter] whose launch writes into the composite
// root after the baseline snapshot, as pi's launch extension is written.
type LaunchFinisher interface {
	Adapter
	// FinishLaunch completes plan, a copy of the planned launch plan, for
	// the planned composite c; it may write below c.Root (and through
	// its links). It returns the notices to print before the launch.
	// [Run.Launch] calls it.
	FinishLaunch(fsys FS, in *Input, c *Composite, plan *LaunchPlan) ([]string, error)
}

// An Onboarder is an [Adapter] whose agent onboards a new user itself: a
// run with no settings file yet, no --profile, in an interactive session
// whose arguments are interactive for the agent, starts it with the
// bootstrap profile and an [Onboarding] (upstream's pi-native first-run
// onboarding).
type Onboarder interface {
	Adapter
	// Interactive reports whether args (the profile's and the
	// pass-through arguments) make an interactive session of the agent.
	Interactive(args []string) bool
	// OnboardingSyncError returns the error of an onboarding whose
	// default profiles failed to sync with message.
	OnboardingSyncError(message string) error
}

// An InstallHinter is an [Adapter] whose agent CLI has an install hint,
// which follows the message of a launch that cannot find the CLI.
type InstallHinter interface {
	Adapter
	// InstallHint returns upstream's hint, one sentence or more.
	InstallHint() string
}

// InstallHint returns the install hint of a's agent CLI, or "" when it
// has none.
func InstallHint(a Adapter) string {
	if h, ok := a.(InstallHinter); ok {
		return h.InstallHint()
	}
	return ""
}
