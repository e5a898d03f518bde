package composite

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// DeclarationError reports a state_persistence entry of the profile that
// the adapter rejects; the run stops before anything is written.
type DeclarationError struct {
	// Adapter is the adapter id.
	Adapter string
	// Key is the state_persistence key.
	Key string
	// Strategy is the requested strategy; empty for an undeclared key or a
	// missing strategy.
	Strategy Strategy
	// Undeclared reports that the adapter declares no such key.
	Undeclared bool
}

// Error returns upstream's message for the condition.
func (e *DeclarationError) Error() string {
	switch {
	case e.Undeclared:
		return fmt.Sprintf("state_persistence path '%s' is not declared by the %s adapter", e.Key, e.Adapter)
	case e.Strategy == "":
		return fmt.Sprintf("missing state_persistence strategy for %q", e.Key)
	}
	return fmt.Sprintf("state_persistence strategy '%s' is not allowed for \"%s\"", e.Strategy, e.Key)
}

// decl builds a declaration.
func decl(key string, def Strategy, allowed ...Strategy) Declaration {
	return Declaration{Key: key, Default: def, Allowed: allowed}
}

// unknownDeclaration is the pseudo-path of both adapters.
func unknownDeclaration() Declaration {
	return decl(UnknownPath, StrategyWarn, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt)
}

// StateSources says where an agent's declared state paths have their
// durable sources (see [Input.StatePaths]).
type StateSources struct {
	// Override, when not nil, returns a source that wins over the
	// profile-owned one, or "" for none (pi's shared utilities/, Claude's
	// projects/ following session_directory).
	Override func(key string) string
	// Native returns the source when nothing else gives one: the agent's
	// own directory under the home.
	Native func(key string) string
}

// nativeSources returns a [StateSources].Native that gives, for a key of
// decls, path.Join(dir, rel, key without its trailing slash), as a plan
// asks for most of them: all of them are made at once, as parts of one
// string, when dir is clean and absolute and rel and the keys are plain
// names; any other key, or any other input, is joined when asked.
func nativeSources(dir, rel string, decls []Declaration) func(key string) string {
	join := func(key string) string { return vfs.Join(dir, rel, strings.TrimSuffix(key, "/")) }
	// Which inputs take the fast path changes no result, as both give
	// path.Join's (a test checks): a mutant moving a bound here is
	// equivalent.
	if len(decls) > maxNativeSources || len(dir) < 2 || dir[0] != '/' || !vfs.PlainRel(dir[1:]) || !vfs.PlainRel(rel) {
		return join
	}
	// ends[i] is where the source of decls[i] ends in all; 0 when it is
	// joined when asked.
	var ends [maxNativeSources]int
	n := 0
	for _, d := range decls {
		if name := strings.TrimSuffix(d.Key, "/"); vfs.PlainRel(name) {
			n += len(dir) + 1 + len(rel) + 1 + len(name) // a capacity only
		}
	}
	var b strings.Builder
	b.Grow(n)
	for i, d := range decls {
		if name := strings.TrimSuffix(d.Key, "/"); vfs.PlainRel(name) {
			b.WriteString(dir)
			b.WriteByte('/')
			b.WriteString(rel)
			b.WriteByte('/')
			b.WriteString(name)
			ends[i] = b.Len()
		}
	}
	all := b.String()
	return func(key string) string {
		start := 0
		for i, d := range decls {
			if ends[i] == 0 {
				continue
			}
			if d.Key == key {
				return all[start:ends[i]]
			}
			start = ends[i]
		}
		return join(key)
	}
}

// maxNativeSources bounds the declarations nativeSources makes at once.
const maxNativeSources = 32

// StatePaths checks the profile's state_persistence overrides against
// decls, the agent's declarations, and resolves each declared path
// (upstream's createDeclaredStatePaths): its strategy is the override or
// the default and must be allowed (else a [*DeclarationError]); a symlink
// or prompt path other than [UnknownPath] gets its durable source, the
// first of sources.Override, the profile-owned source
// (<folder>/cli_specific/<agent>/<key> of the highest-precedence profile
// folder that has it; a [*SourceLinkError] when it leads out of a synced
// repository) and sources.Native. A profile-owned source records its
// folder.
func (in *Input) StatePaths(decls []Declaration, sources StateSources) ([]StatePath, error) {
	overrides := in.statePersistence()
	for _, k := range overrides.Keys() {
		if !slices.ContainsFunc(decls, func(d Declaration) bool { return d.Key == k }) {
			return nil, &DeclarationError{Adapter: in.Agent, Key: k, Undeclared: true}
		}
	}
	owned := stateFolders(in, in.Agent)
	out := make([]StatePath, 0, len(decls))
	for _, d := range decls {
		strategy := strategyOf(d, overrides)
		if strategy == "" {
			return nil, &DeclarationError{Adapter: in.Agent, Key: d.Key}
		}
		if !slices.Contains(d.Allowed, strategy) {
			return nil, &DeclarationError{Adapter: in.Agent, Key: d.Key, Strategy: strategy}
		}
		sp := StatePath{RelativePath: d.Key, Strategy: strategy, Directory: d.Directory()}
		if (strategy == StrategySymlink || strategy == StrategyPrompt) && d.Key != UnknownPath {
			src, origin, err := stateSource(d.Key, sources, owned)
			if err != nil {
				return nil, err
			}
			sp.SourcePath, sp.Origin, sp.Folder = src, origin, owned.folderOf(src)
			if origin == SourceProfile && owned.synced(src) {
				// The agent never writes into a checkout.
				sp.Seed, sp.SourcePath, sp.Folder = src, resolve.SyncedState(in.Home, src), resolve.SyncedState(in.Home, sp.Folder)
			}
		}
		out = append(out, sp)
	}
	in.candidates = stateCandidates{decls: decls, overrides: overrides, sources: sources, owned: owned}
	return out, nil
}

// strategyOf returns the strategy of d: its state_persistence override
// when that is a string, else its default.
func strategyOf(d Declaration, overrides *resolve.Object) Strategy {
	if v, ok := overrides.Get(d.Key); ok {
		if s, ok := v.(string); ok {
			return Strategy(s)
		}
	}
	return d.Default
}

// stateCandidates is what StatePaths chose the durable sources from, kept
// so that [Composite.Candidates] lists them only when asked.
type stateCandidates struct {
	decls     []Declaration
	overrides *resolve.Object
	sources   StateSources
	owned     stateDirs
}

// of returns the candidates of the state path key, nil for one without a
// durable source (or when StatePaths did not run).
func (c stateCandidates) of(key string) []string {
	if key == UnknownPath {
		return nil
	}
	for _, d := range c.decls {
		if d.Key != key {
			continue
		}
		if s := strategyOf(d, c.overrides); s == StrategySymlink || s == StrategyPrompt {
			return candidates(key, c.sources, c.owned)
		}
		return nil
	}
	return nil
}

// stateSource returns the durable source of key and its origin: the
// override, the profile-owned source or the native one.
func stateSource(key string, sources StateSources, owned stateDirs) (string, SourceOrigin, error) {
	if sources.Override != nil {
		if src := sources.Override(key); src != "" {
			return src, SourceAdapter, nil
		}
	}
	if src, err := owned.source(key); err != nil || src != "" {
		return src, SourceProfile, err
	}
	return sources.Native(key), SourceNative, nil
}

// candidates lists the sources stateSource chooses among, in its order
// of preference (see [Composite.Candidates]).
func candidates(key string, sources StateSources, owned stateDirs) []string {
	if sources.Override != nil {
		if src := sources.Override(key); src != "" {
			return []string{src}
		}
	}
	name := strings.TrimSuffix(key, "/")
	out := make([]string, 0, len(owned.dirs)+1) // a capacity only
	for _, d := range slices.Backward(owned.dirs) {
		out = append(out, vfs.Join(d.dir, name))
	}
	return append(out, sources.Native(key))
}

// stateDir is a <folder>/cli_specific/<adapter> directory, which can hold
// profile-owned sources.
type stateDir struct {
	// dir is <folder>/cli_specific/<adapter>.
	dir string
	// folder is the profile folder.
	folder string
	// checkout is the repository checkout holding the folder when it was
	// loaded from a synced (remote) profile source, else "".
	checkout string
}

// stateDirs are the state directories of a run, lowest precedence first.
type stateDirs struct {
	fsys vfs.FS
	dirs []stateDir
}

// stateFolders returns the <folder>/cli_specific/<adapter> directories of
// the run's profile folders that exist, lowest precedence first; only
// they can hold a profile-owned source, so a plan looks each folder up
// once rather than once per key.
func stateFolders(in *Input, adapter string) stateDirs {
	out := stateDirs{fsys: in.FS}
	for _, f := range in.ProfileFolders {
		d := vfs.Join(f, "cli_specific", adapter)
		if mode, err := vfs.Probe(in.FS, d); err == nil && mode.IsDir() {
			out.dirs = append(out.dirs, stateDir{dir: d, folder: f, checkout: checkoutOf(in.Layers, in.Home, f)})
		}
	}
	return out
}

// checkoutOf returns the repository checkout of the layer whose profile
// folder is folder when it arrived by sync ([resolve.Layer.Checkout]),
// or "" for a local one.
func checkoutOf(layers []resolve.Layer, home, folder string) string {
	for _, l := range layers {
		if l.ResourceRoot == folder {
			if c := l.Checkout(home); c != "" {
				return c
			}
		}
	}
	return ""
}

// source returns the highest-precedence <dir>/<key> that exists, or "".
// One found in a synced repository's checkout must stay in it: a source
// whose real path leaves the checkout is a [*SourceLinkError].
func (o stateDirs) source(key string) (string, error) {
	name := strings.TrimSuffix(key, "/")
	for _, d := range slices.Backward(o.dirs) {
		p := vfs.Join(d.dir, name)
		if _, err := vfs.Stat(o.fsys, p); err != nil {
			continue
		}
		if d.checkout != "" {
			if err := confined(o.fsys, p, d.checkout); err != nil {
				return "", err
			}
		}
		return p, nil
	}
	return "", nil
}

// synced reports whether src, found by source, lies in the checkout of a
// profile that arrived by sync.
func (o stateDirs) synced(src string) bool {
	for _, d := range slices.Backward(o.dirs) {
		if under(src, d.dir) {
			return d.checkout != ""
		}
	}
	return false
}

// folderOf returns the profile folder of a source found by source, or "".
func (o stateDirs) folderOf(src string) string {
	for _, d := range slices.Backward(o.dirs) {
		if under(src, d.dir) {
			return d.folder
		}
	}
	return ""
}

// SourceLinkError reports a durable state source found in a synced
// (cache-backed) profile repository that leads out of the repository's
// checkout through a symbolic link. It is refused before anything is
// written: the agent's writes through the state path would otherwise land
// wherever the repository's author pointed the link (~/.ssh/config, say).
type SourceLinkError struct {
	// Source is the state source path found in the profile folder.
	Source string
	// Checkout is the repository checkout it lies in.
	Checkout string
	// Link is the first link on the way that leads out, and Target its
	// target, verbatim.
	Link, Target string
	// Resolved is where Source really leads.
	Resolved string
}

// Error names the source, the link and where it points.
func (e *SourceLinkError) Error() string {
	return fmt.Sprintf("state source path %s leaves the synced profile repository %s: the symbolic link %s points to %s (%s); links in a synced repository are never followed out of it",
		e.Source, e.Checkout, e.Link, e.Target, e.Resolved)
}

// confined checks that name stays in checkout, links resolved, by the
// rule of synced content ([resolve.Confine]).
func confined(fsys vfs.FS, name, checkout string) error {
	err := resolve.Confine(fsys, name, checkout)
	if e, ok := errors.AsType[*resolve.EscapeError](err); ok {
		return &SourceLinkError{Source: name, Checkout: checkout, Link: e.Link, Target: e.Target, Resolved: e.Resolved}
	}
	if err != nil {
		return &WriteError{Step: "check source", Path: name, Err: err}
	}
	return nil
}

// realPath is [vfs.EvalSymlinks]; on a file system that cannot hold
// links, the name itself.
func realPath(fsys vfs.FS, name string) (string, error) {
	real, err := vfs.EvalSymlinks(fsys, name)
	if errors.Is(err, errors.ErrUnsupported) {
		if _, ok := fsys.(vfs.SymlinkFS); !ok {
			return path.Clean(name), nil
		}
	}
	return real, err
}
