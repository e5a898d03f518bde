package writeback

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
)

// Snapshot records the composite below root as a [vfs.Tree]: a walk with
// Lstat semantics in which symbolic links are recorded by target and never
// descended, files by content and directories as such. Every declared
// state path with strategy discard (the unknown pseudo-path aside) is left
// out together with everything below it. A missing root yields an empty
// tree; a root that is a file or a symbolic link, the one entry "".
//
// The same function takes the baseline (after the composite is written and
// before the launch-plan files are, as upstream does) and the snapshot
// after the agent exits; [Changes] compares the two.
func Snapshot(fsys vfs.FS, root string, paths []composite.StatePath) (vfs.Tree, error) {
	skip := discarded(paths)
	t, err := vfs.SnapshotWith(fsys, root, vfs.SnapshotOptions{
		Skip: func(rel string, _ fs.FileInfo) bool { return within(rel, skip) },
	})
	switch {
	case err == nil:
		return t, nil
	case errors.Is(err, fs.ErrNotExist):
		return vfs.Tree{}, nil
	case errors.Is(err, vfs.ErrNotDir):
		// A root that is a link or a file is recorded as the entry "".
		e, err1 := vfs.EntryOf(fsys, root)
		if err1 != nil {
			return nil, err1
		}
		return vfs.Tree{"": e}, nil
	}
	return nil, err
}

// discarded returns the normalized keys of the discard state paths.
func discarded(paths []composite.StatePath) []string {
	var keys []string
	for _, p := range paths {
		if p.Strategy == composite.StrategyDiscard && !p.IsUnknown() {
			keys = append(keys, p.Name())
		}
	}
	return keys
}

// within reports whether rel equals one of keys or lies below one.
func within(rel string, keys []string) bool {
	for _, k := range keys {
		if under(rel, k) {
			return true
		}
	}
	return false
}

// under reports whether rel is key or a descendant of key.
func under(rel, key string) bool {
	// "len(rel) >= len(key)" is the same: a prefix as long as rel is rel,
	// which the first comparison has already accepted.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	return rel == key || strings.HasPrefix(rel, key) && len(rel) > len(key) && rel[len(key)] == '/'
}

// Changes returns the paths whose fingerprint differs between before and
// after: added, removed, or changed in type, content or link target.
// Permission bits are not compared (upstream fingerprints ignore them).
// The result is in byte order.
func Changes(before, after vfs.Tree) []string {
	return changedPaths(vfs.Diff(before, after))
}

// changedPaths lists, in byte order, the paths of d whose fingerprint
// changed: every added and removed path, and changed paths that differ in
// more than their modes.
func changedPaths(d vfs.Delta) []string {
	out := make([]string, 0, len(d.Added)+len(d.Changed)+len(d.Removed))
	for p := range d.Added {
		out = append(out, p)
	}
	for p, c := range d.Changed {
		if !sameFingerprint(c.Before, c.After) {
			out = append(out, p)
		}
	}
	out = append(out, d.Removed...)
	slices.Sort(out)
	return out
}

// sameFingerprint compares two entries as upstream fingerprints do: type,
// link target and content, never modes.
func sameFingerprint(a, b vfs.Entry) bool {
	return a.Type == b.Type && a.Target == b.Target && bytes.Equal(a.Data, b.Data)
}

// rootRel returns the path of name relative to root, slash-separated, and
// whether it stays under root (neither root itself nor outside it).
// Relative names are taken relative to root.
func rootRel(root, name string) (string, bool) {
	root = path.Clean(root)
	if !path.IsAbs(name) {
		name = path.Join(root, name)
	}
	name = path.Clean(name)
	if root == "/" {
		return strings.TrimPrefix(name, "/"), name != "/"
	}
	rel, ok := strings.CutPrefix(name, root+"/")
	return rel, ok
}
