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
	// The declared paths in order, with their names computed once.
	type declared struct {
		name     string
		sp       *composite.StatePath
		reported bool
	}
	decls := make([]declared, 0, len(paths))
	for i, p := range paths {
		switch {
		case !p.IsUnknown():
			decls = append(decls, declared{name: p.Name(), sp: &paths[i]})
		case unknown == nil:
			unknown = &paths[i]
		}
	}
	var issues []Issue
	for _, p := range changed {
		var dc *declared
		for i := range decls {
			if under(p, decls[i].name) {
				dc = &decls[i]
				break
			}
		}
		switch {
		case dc != nil:
			d := dc.sp
			if dc.reported || d.Strategy == composite.StrategyDiscard || d.Strategy == composite.StrategySymlink && p != dc.name {
				continue
			}
			dc.reported = true
			issues = append(issues, Issue{Path: d.RelativePath, Strategy: d.Strategy})
		case unknown == nil || unknown.Strategy == composite.StrategyDiscard || under(p, OutfitterDir):
		default:
			issues = append(issues, Issue{Path: p, Strategy: unknown.Strategy, Unknown: true})
		}
	}
	// One issue per key: a declared key is reported once above; changed
	// paths given twice are adjacent once sorted.
	SortIssues(issues)
	return slices.CompactFunc(issues, func(a, b Issue) bool { return a.Path == b.Path })
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
