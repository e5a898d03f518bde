package writeback

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
)

// RefreshError is the failure of a live refresh; the composite keeps its
// previous contents. Its message is upstream's watcher line.
type RefreshError struct {
	// WatchPath is the input whose change triggered the refresh.
	WatchPath string
	// Err is the cause.
	Err error
}

// Error returns upstream's watcher line for the failure.
func (e *RefreshError) Error() string {
	return "Could not safely update compositeProfile from " + e.WatchPath + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *RefreshError) Unwrap() error { return e.Err }

// Refreshed is the outcome of a live refresh.
type Refreshed struct {
	// Baseline is the updated baseline: the refreshed files fingerprinted
	// anew, so that they are never reported as agent writes.
	Baseline vfs.Tree
	// StatePaths are the declared state paths for the rest of the run:
	// those given, except that each path in Replaced is discard.
	StatePaths []composite.StatePath
	// Written lists the relative paths of the files written, in order.
	Written []string
	// Replaced lists the relative paths where a symbolic link was replaced
	// by a generated file.
	Replaced []string
}

// Refresh rewrites the generated files of a composite during a run, as the
// live-update watcher does when an input changes (§5.2): generate returns
// the freshly planned files (the caller re-resolves and re-plans; it
// returns the original files when there is nothing to re-plan); each is
// written below root; declared state paths are not materialized again, so
// a link the agent replaced stays replaced; baseline is updated for every
// file written (§5.3). Files the fresh plan no longer produces stay on
// disk.
//
// Unlike upstream, a generated file never writes through a symbolic link:
// where the output path is a link (pi's settings.json when a refresh newly
// reconciles it), the link is removed, the file is written in its place
// and the path is discard for the rest of the run, so the durable source
// the link pointed to is left as it was. A link among the parents of an
// output path makes the refresh fail.
//
// The inputs are not modified. On failure the error is a [*RefreshError]
// and the refresh is rolled back: every path is checked before anything
// is written, and when a write fails, or the re-fingerprinting of the
// written files fails after all were written, every file written is put
// back as it was (a replaced link is made again, a new file is removed
// with the directories made for it), so the caller keeps its baseline and
// state paths and they still describe the composite: post-run detection
// does not blame the agent for the refresh. If the rollback itself fails
// (the disk failing again), its errors are joined to the cause and the
// composite may differ from the baseline at the paths they name.
func Refresh(fsys PersistFS, root string, baseline vfs.Tree, paths []composite.StatePath, watchPath string, generate func() ([]composite.File, error)) (Refreshed, error) {
	if generate == nil {
		panic("writeback: Refresh with a nil generate function")
	}
	fail := func(err error) (Refreshed, error) {
		return Refreshed{}, &RefreshError{WatchPath: watchPath, Err: err}
	}
	// The root itself must still be a real directory: an agent that
	// replaced it by a link would otherwise have the refresh write into
	// whatever the link points at. A root the agent removed is created
	// again, as upstream does.
	if fi, err := vfs.Lstat(fsys, root); err == nil && !fi.IsDir() {
		return fail(&fs.PathError{Op: "refresh", Path: root, Err: errors.New("composite root is no longer a directory (replaced by a link or a file); nothing was written")})
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail(err)
	}
	files, err := generate()
	if err != nil {
		return fail(err)
	}
	outs := make([]output, 0, len(files))
	for _, f := range files {
		o, err := plan(fsys, root, f)
		if err != nil {
			return fail(err)
		}
		outs = append(outs, o)
	}
	if err := vfs.MkdirAll(fsys, root, 0o755); err != nil {
		return fail(err)
	}
	for i := range outs {
		if err := outs[i].write(fsys); err != nil {
			return fail(rollback(fsys, outs[:i+1], err))
		}
	}
	r := Refreshed{Baseline: maps.Clone(baseline), StatePaths: slices.Clone(paths)}
	for _, o := range outs {
		r.Written = append(r.Written, o.rel)
		if o.before.Type == vfs.TypeSymlink {
			r.Replaced = append(r.Replaced, o.rel)
			r.StatePaths = discardPath(r.StatePaths, o.rel)
		}
	}
	if err := RefreshBaseline(fsys, root, r.Baseline, r.Written); err != nil {
		return fail(rollback(fsys, outs, err))
	}
	return r, nil
}

// rollback restores the outputs, last first, after cause; it returns
// cause, joined with the errors of the restores that failed.
func rollback(fsys PersistFS, outs []output, cause error) error {
	errs := []error{cause}
	for _, o := range slices.Backward(outs) {
		if err := o.restore(fsys); err != nil {
			errs = append(errs, fmt.Errorf("rollback of %s: %w", o.rel, err))
		}
	}
	if len(errs) == 1 {
		return cause
	}
	return errors.Join(errs...)
}

// output is one generated file about to be written.
type output struct {
	rel, abs string
	data     []byte
	// existed and before describe what was at abs before the write.
	existed bool
	before  vfs.Entry
	// made is the first missing ancestor of abs, which the write creates
	// with its descendants; "" when every parent exists.
	made string
	// wrote is set once the write started.
	wrote bool
}

// plan checks where f would be written and records what is there.
func plan(fsys PersistFS, root string, f composite.File) (output, error) {
	abs := f.RelativePath
	if !path.IsAbs(abs) {
		abs = path.Join(root, abs)
	}
	rel, ok := rootRel(root, abs)
	if !ok || strings.HasPrefix(rel, "..") {
		return output{}, fmt.Errorf("CompositeProfile file output path '%s' must stay under compositeProfile root '%s'.", abs, root)
	}
	o := output{rel: rel, abs: path.Join(root, rel), data: []byte(f.Content)}
	dir := path.Clean(root)
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		dir = path.Join(dir, p)
		fi, err := vfs.Lstat(fsys, dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			o.made = dir
			return o, nil
		case err != nil:
			return o, err
		case fi.Mode()&fs.ModeSymlink != 0:
			return o, fmt.Errorf("generated file %s lies below the symbolic link %s", rel, dir)
		case !fi.IsDir():
			return o, &fs.PathError{Op: "mkdir", Path: dir, Err: vfs.ErrNotDir}
		}
	}
	e, err := vfs.EntryOf(fsys, o.abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return o, nil
	case err != nil:
		return o, err
	case e.Type == vfs.TypeDir:
		return o, &fs.PathError{Op: "open", Path: o.abs, Err: vfs.ErrIsDir}
	}
	o.existed, o.before = true, e
	return o, nil
}

// write writes the file, replacing a link rather than following it.
func (o *output) write(fsys PersistFS) error {
	o.wrote = true
	if err := vfs.MkdirAll(fsys, path.Dir(o.abs), 0o755); err != nil {
		return err
	}
	if o.before.Type == vfs.TypeSymlink {
		if err := vfs.Remove(fsys, o.abs); err != nil {
			return err
		}
	}
	perm := fs.FileMode(0o644)
	if o.before.Type == vfs.TypeFile {
		perm = o.before.Mode
	}
	return vfs.WriteFile(fsys, o.abs, o.data, perm)
}

// restore puts back what was at the output before write: the file with
// its content and mode, or the link, or nothing, removing the directories
// the write made (unless something else is in them by now).
func (o output) restore(fsys PersistFS) error {
	if !o.wrote {
		return nil
	}
	if !o.existed || o.before.Type == vfs.TypeSymlink {
		if err := vfs.Remove(fsys, o.abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	switch {
	case o.before.Type == vfs.TypeSymlink:
		return vfs.Symlink(fsys, o.before.Target, o.abs)
	case o.existed:
		return vfs.WriteFile(fsys, o.abs, o.before.Data, o.before.Mode)
	}
	if o.made == "" {
		return nil
	}
	for dir := path.Dir(o.abs); ; dir = path.Dir(dir) {
		err := vfs.Remove(fsys, dir)
		switch {
		case errors.Is(err, vfs.ErrNotEmpty):
			return nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if dir == o.made {
			return nil
		}
	}
}

// discardPath returns paths with rel made discard: the declared path of
// that name changes strategy and loses its source, or, when none is
// declared, a discard path is put first.
func discardPath(paths []composite.StatePath, rel string) []composite.StatePath {
	for i, p := range paths {
		if !p.IsUnknown() && p.Name() == rel {
			paths[i].Strategy, paths[i].SourcePath = composite.StrategyDiscard, ""
			return paths
		}
	}
	return append([]composite.StatePath{{RelativePath: rel, Strategy: composite.StrategyDiscard}}, paths...)
}

// RefreshBaseline updates baseline in place for the given output paths
// (absolute, or relative to root), as upstream does after a live refresh
// (§5.3): the entries at and below each path are dropped and, if the path
// exists, fingerprinted anew without skipping anything. A path that does
// not stay under root yields upstream's error and changes nothing further.
func RefreshBaseline(fsys vfs.FS, root string, baseline vfs.Tree, outputs []string) error {
	for _, p := range outputs {
		rel, ok := rootRel(root, p)
		if !ok {
			return fmt.Errorf("CompositeProfile file output path '%s' must stay under compositeProfile root '%s'.", p, root)
		}
		maps.DeleteFunc(baseline, func(k string, _ vfs.Entry) bool { return under(k, rel) })
		abs := path.Join(root, rel)
		e, err := vfs.EntryOf(fsys, abs)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		baseline[rel] = e
		if e.Type != vfs.TypeDir {
			continue
		}
		sub, err := vfs.Snapshot(fsys, abs)
		if err != nil {
			return err
		}
		for k, v := range sub {
			baseline[rel+"/"+k] = v
		}
	}
	return nil
}

// WatchPaths returns the inputs a live-update watcher watches (§5.1): the
// union of the files' source inputs, each once, in first-seen order.
func WatchPaths(files []composite.File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		for _, in := range f.SourceInputs {
			if !seen[in] {
				seen[in] = true
				out = append(out, in)
			}
		}
	}
	return out
}
