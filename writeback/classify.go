package writeback

import (
	"io/fs"
	"slices"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
)

// OutfitterDir is the composite directory Outfitter owns. Changes at or
// below it are never reported and never copied back.
const OutfitterDir = "outfitter"

// Issue is one reported change of a composite after the agent exited.
type Issue struct {
	// Path is the declared key for a declared state path ("cache/",
	// "settings.json"), or the changed path itself for an undeclared one.
	Path string
	// Strategy is the strategy of the declared path, or of the unknown
	// pseudo-path when Unknown is set.
	Strategy composite.Strategy
	// Unknown reports an undeclared change.
	Unknown bool
}

// Classify turns the changed paths of a composite (see [Changes]) into
// issues, following upstream's rules:
//
//   - a path at or below a declared state path belongs to the first such
//     declaration in order (the unknown pseudo-path excluded); it yields
//     one issue keyed by the declared key, however many of its paths
//     changed, unless the strategy is discard, or is symlink and the path
//     lies below the key (writes through a link are durable, only a change
//     of the link itself is reported);
//   - any other path yields its own issue with the unknown pseudo-path's
//     strategy, unless that strategy is discard, there is no unknown
//     pseudo-path, or the path is [OutfitterDir] or below it.
//
// The issues are sorted by Path with [Compare]. Classify reads nothing and
// writes nothing.
func Classify(changed []string, paths []composite.StatePath) []Issue {
	var unknown *composite.StatePath
	for i, p := range paths {
		if p.IsUnknown() {
			unknown = &paths[i]
			break
		}
	}
	var issues []Issue
	seen := map[string]bool{}
	add := func(is Issue) {
		if !seen[is.Path] {
			seen[is.Path] = true
			issues = append(issues, is)
		}
	}
	for _, p := range changed {
		if d, ok := firstDeclared(p, paths); ok {
			if d.Strategy == composite.StrategyDiscard || d.Strategy == composite.StrategySymlink && p != d.Name() {
				continue
			}
			add(Issue{Path: d.RelativePath, Strategy: d.Strategy})
			continue
		}
		if unknown == nil || unknown.Strategy == composite.StrategyDiscard || under(p, OutfitterDir) {
			continue
		}
		add(Issue{Path: p, Strategy: unknown.Strategy, Unknown: true})
	}
	SortIssues(issues)
	return issues
}

// firstDeclared returns the first declared path (the unknown pseudo-path
// aside) that p equals or lies below.
func firstDeclared(p string, paths []composite.StatePath) (composite.StatePath, bool) {
	for _, d := range paths {
		if !d.IsUnknown() && under(p, d.Name()) {
			return d, true
		}
	}
	return composite.StatePath{}, false
}

// SortIssues sorts issues by Path in upstream's order ([Compare]).
func SortIssues(issues []Issue) {
	slices.SortStableFunc(issues, func(a, b Issue) int { return Compare(a.Path, b.Path) })
}

// Detect snapshots the composite below root and classifies what changed
// since baseline: [Snapshot], [Changes] and [Classify] in one call.
func Detect(fsys vfs.FS, root string, paths []composite.StatePath, baseline vfs.Tree) ([]Issue, error) {
	current, err := Snapshot(fsys, root, paths)
	if err != nil {
		return nil, err
	}
	return Classify(Changes(baseline, current), paths), nil
}

// DetectSince classifies what changed below root between before, a copy of
// the machine taken when the baseline would be (a [vfs.MemFS.Clone], say),
// and after, the machine once the agent exited. It gives the issues
// [Detect] gives for a baseline snapshot of before, but compares the two
// file systems directly ([vfs.DiffFS]), which skips every subtree two
// memory clones still share.
func DetectSince(before, after vfs.FS, root string, paths []composite.StatePath) ([]Issue, error) {
	skip := discarded(paths)
	d, err := vfs.DiffFS(before, after, root, vfs.SnapshotOptions{
		Skip: func(rel string, _ fs.FileInfo) bool { return within(rel, skip) },
	})
	if err != nil {
		// A root that is missing, a file or a link: the snapshots handle
		// those shapes.
		b, err := Snapshot(before, root, paths)
		if err != nil {
			return nil, err
		}
		return Detect(after, root, paths, b)
	}
	changed := changedPaths(d)
	return Classify(changed, paths), nil
}
