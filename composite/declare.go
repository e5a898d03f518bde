package composite

import (
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

const (
	sy = StrategySymlink
	di = StrategyDiscard
	wa = StrategyWarn
	er = StrategyError
	pr = StrategyPrompt
)

// unknownDeclaration is the pseudo-path shared by both adapters.
func unknownDeclaration() Declaration { return decl(UnknownPath, wa, di, wa, er, pr) }

// sourceResolver returns the durable source of a declared key.
type sourceResolver func(key string, directory bool) (string, error)

// declaredStatePaths validates the profile's state_persistence overrides
// against decls and resolves each state path (createDeclaredStatePaths).
func declaredStatePaths(adapter string, decls []Declaration, overrides *resolve.Object, resolveSource sourceResolver) ([]StatePath, error) {
	for _, k := range overrides.Keys() {
		if !slices.ContainsFunc(decls, func(d Declaration) bool { return d.Key == k }) {
			return nil, &DeclarationError{Adapter: adapter, Key: k, Undeclared: true}
		}
	}
	out := make([]StatePath, 0, len(decls))
	for _, d := range decls {
		strategy := d.Default
		if v, ok := overrides.Get(d.Key); ok {
			if s, ok := v.(string); ok {
				strategy = Strategy(s)
			}
		}
		if strategy == "" {
			return nil, &DeclarationError{Adapter: adapter, Key: d.Key}
		}
		if !slices.Contains(d.Allowed, strategy) {
			return nil, &DeclarationError{Adapter: adapter, Key: d.Key, Strategy: strategy}
		}
		sp := StatePath{RelativePath: d.Key, Strategy: strategy, Directory: d.Directory()}
		if (strategy == StrategySymlink || strategy == StrategyPrompt) && d.Key != UnknownPath {
			src, err := resolveSource(d.Key, sp.Directory)
			if err != nil {
				return nil, err
			}
			sp.SourcePath = src
		}
		out = append(out, sp)
	}
	return out, nil
}

// stateFolders returns the <folder>/cli_specific/<adapter> directories that
// exist, lowest precedence first; only they can hold a profile-owned
// source, so a plan looks each folder up once rather than once per key.
func stateFolders(fsys vfs.FS, folders []string, adapter string) []string {
	var out []string
	for _, f := range folders {
		d := path.Join(f, "cli_specific", adapter)
		if fi, err := vfs.Stat(fsys, d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// stateSourceIn returns the highest-precedence <dir>/<key> that exists
// among dirs (from stateFolders), or "".
func stateSourceIn(fsys vfs.FS, dirs []string, key string) string {
	name := strings.TrimSuffix(key, "/")
	for i := len(dirs) - 1; i >= 0; i-- {
		p := path.Join(dirs[i], name)
		if _, err := vfs.Stat(fsys, p); err == nil {
			return p
		}
	}
	return ""
}
