package sources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// FS is what the package needs of a file system: reading, listing,
// creating directories and files, and removing a failed checkout.
type FS interface {
	vfs.StatFS
	vfs.ReadFileFS
	vfs.ReadDirFS
	vfs.MkdirAllFS
	vfs.WriteFileFS
	vfs.RemoveAllFS
}

// FetchError is a checkout that could not be fetched: the launch does not
// happen, rather than naming a directory that does not exist.
type FetchError struct {
	// Source is the entry as the profile wrote it.
	Source string
	// Dir is the checkout's directory, removed again.
	Dir string
	// Err is the cause, a [*CommandError] for a tool that failed.
	Err error
}

// Error names the entry and gives the tool's message.
func (e *FetchError) Error() string {
	return fmt.Sprintf("could not cache extension %s in %s: %v", e.Source, e.Dir, e.Err)
}

// Unwrap returns the cause.
func (e *FetchError) Unwrap() error { return e.Err }

// metadataSuffix names a checkout's sidecar: <dir>.source.json.
const metadataSuffix = ".source.json"

// Fetch makes each checkout that does not exist yet, as upstream caches a
// pi git extension before the launch: it reports "outfitter: caching
// extension <source>…" to progress, clones (shallow, at the ref when the
// checkout is pinned, falling back to a full clone and a checkout of the
// ref), installs the dependencies of a package.json with npm, and writes
// the <dir>.source.json sidecar that a refresh reads ([vfs.ReplaceFile]:
// atomically and durably; fsys needs what it needs). A checkout that
// exists is left as it is, as upstream never refreshes at launch. On
// failure the checkout and its sidecar are removed and the error is a
// [*FetchError]; the checkouts after it are not fetched.
//
// Unlike upstream, a pinned ref starting with '-' is refused with a
// [*RefError] before git runs, as a sync refuses it.
func Fetch(ctx context.Context, fsys FS, run Runner, checkouts []composite.Checkout, progress func(string)) error {
	if err := checkRunner("the Runner of sources.Fetch", run); err != nil {
		return err
	}
	for _, c := range checkouts {
		if _, err := vfs.Stat(fsys, c.Dir); err == nil {
			continue
		}
		if err := fetchLocked(ctx, fsys, run, c, progress); err != nil {
			return &FetchError{Source: c.Source, Dir: c.Dir, Err: err}
		}
	}
	return nil
}

// fetchLocked fetches one checkout holding the lock of its directory
// (see [lockCache]): a checkout another session made while this one
// waited is left as it is, and a failed fetch's checkout and sidecar are
// removed before the lock is released, so no other session ever sees them
// half made.
func fetchLocked(ctx context.Context, fsys FS, run Runner, c composite.Checkout, progress func(string)) (err error) {
	if err := vfs.MkdirAll(fsys, path.Dir(c.Dir), 0o755); err != nil {
		return err
	}
	unlock, err := lockCache(fsys, c.Dir)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, unlock()) }()
	if _, err := vfs.Stat(fsys, c.Dir); err == nil {
		return nil
	}
	say(progress, "outfitter: caching extension "+c.Source+"…")
	if err := fetch(ctx, fsys, run, c, progress); err != nil {
		return errors.Join(err, vfs.RemoveAll(fsys, c.Dir), vfs.RemoveAll(fsys, c.Dir+metadataSuffix))
	}
	return nil
}

func fetch(ctx context.Context, fsys FS, run Runner, c composite.Checkout, progress func(string)) error {
	if c.Pinned && strings.HasPrefix(c.Ref, "-") {
		return &RefError{Ref: c.Ref}
	}
	if err := vfs.MkdirAll(fsys, path.Dir(c.Dir), 0o755); err != nil {
		return err
	}
	args := []string{"clone", "--depth", "1", "--", c.URL, c.Dir}
	if c.Pinned {
		args = []string{"clone", "--depth", "1", "--branch", c.Ref, "--", c.URL, c.Dir}
	}
	if _, err := run.Run(ctx, "", "git", args...); err != nil {
		if !c.Pinned || ctx.Err() != nil {
			return err
		}
		// A ref that is no branch or tag (a commit): a full clone and a
		// checkout; upstream reports the shallow clone's failure when the
		// full clone fails too.
		if _, ferr := run.Run(ctx, "", "git", "clone", "--", c.URL, c.Dir); ferr != nil {
			return err
		}
		if _, err := run.Run(ctx, "", "git", "-C", c.Dir, "checkout", c.Ref); err != nil {
			return err
		}
	}
	if err := install(ctx, fsys, run, c.Dir, c.Source, progress); err != nil {
		return err
	}
	meta := resolve.NewObject()
	meta.Set("source", c.Source)
	if c.Pinned {
		meta.Set("ref", c.Ref)
	}
	// The sidecar is a durable file of the cache: replaced atomically and
	// synced, so a crash or a power cut never leaves half of one.
	return vfs.ReplaceFile(fsys, c.Dir+metadataSuffix, append(resolve.Stringify(meta, "  "), '\n'), 0o644)
}

// install runs npm in a checkout holding a package.json: npm ci when it
// has a package-lock.json, else npm install, without dev dependencies.
func install(ctx context.Context, fsys FS, run Runner, dir, source string, progress func(string)) error {
	if _, err := vfs.Stat(fsys, path.Join(dir, "package.json")); err != nil {
		return nil
	}
	say(progress, "outfitter: installing dependencies for extension "+source+"…")
	args := []string{"install", "--omit=dev"}
	if _, err := vfs.Stat(fsys, path.Join(dir, "package-lock.json")); err == nil {
		args = []string{"ci", "--omit=dev"}
	}
	_, err := run.Run(ctx, dir, "npm", args...)
	return err
}

// ExtensionStatus is the outcome of refreshing one extension cache.
type ExtensionStatus string

// The outcomes of [RefreshExtensions], upstream's words.
const (
	ExtensionRefreshed ExtensionStatus = "refreshed"
	ExtensionUnchanged ExtensionStatus = "unchanged"
	ExtensionPinned    ExtensionStatus = "pinned"
	ExtensionFailed    ExtensionStatus = "failed"
)

// ExtensionResult is the refresh of one extension cache.
type ExtensionResult struct {
	// Source is the entry the cache was made for.
	Source string
	// Dir is the checkout.
	Dir string
	// Status says what happened.
	Status ExtensionStatus
	// Message is upstream's explanation: "pinned to #<ref>; cache left
	// unchanged", "already up to date", "updated to <commit>", or the
	// failure.
	Message string
}

// RefreshExtensions refreshes the branch-tracking extension caches under
// <cache>/extensions/git, as upstream's sync does: each checkout with a
// readable sidecar, in the sidecars' name order, is pulled fast-forward
// unless it is pinned to a ref; when its commit moved, its dependencies
// are installed again. A checkout without a sidecar, or whose directory
// is gone, is skipped silently. Failures are results, not errors; the
// error is for a cache directory that cannot be listed.
func RefreshExtensions(ctx context.Context, fsys FS, run Runner, cache string, progress func(string)) ([]ExtensionResult, error) {
	if err := checkRunner("the Runner of sources.RefreshExtensions", run); err != nil {
		return nil, err
	}
	root := path.Join(cache, "extensions", "git")
	entries, err := vfs.ReadDir(fsys, root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), metadataSuffix) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names) // JavaScript's sort of these ASCII names
	var out []ExtensionResult
	for _, name := range names {
		dir := path.Join(root, strings.TrimSuffix(name, metadataSuffix))
		source, ref, pinned, ok := readMetadata(fsys, path.Join(root, name))
		if _, err := vfs.Stat(fsys, dir); !ok || err != nil {
			continue
		}
		if pinned {
			out = append(out, ExtensionResult{Source: source, Dir: dir, Status: ExtensionPinned, Message: "pinned to #" + ref + "; cache left unchanged"})
			continue
		}
		say(progress, "outfitter: refreshing extension "+source+"…")
		out = append(out, pullLocked(ctx, fsys, run, source, dir, progress))
	}
	return out, nil
}

// pullLocked is [pull] holding the lock of the checkout (see
// [lockCache]), so that a refresh never runs beside a fetch or another
// refresh of the same cache.
func pullLocked(ctx context.Context, fsys FS, run Runner, source, dir string, progress func(string)) ExtensionResult {
	unlock, err := lockCache(fsys, dir)
	if err != nil {
		return ExtensionResult{Source: source, Dir: dir, Status: ExtensionFailed, Message: err.Error()}
	}
	r := pull(ctx, fsys, run, source, dir, progress)
	if err := unlock(); err != nil && r.Status != ExtensionFailed {
		r.Status, r.Message = ExtensionFailed, err.Error()
	}
	return r
}

// pull fast-forwards one branch-tracking checkout, never recursing into
// submodules (a .gitmodules entry with update = !cmd would fail every
// later pull).
func pull(ctx context.Context, fsys FS, run Runner, source, dir string, progress func(string)) ExtensionResult {
	r := ExtensionResult{Source: source, Dir: dir}
	if err := isRepository(fsys, dir); err != nil {
		r.Status, r.Message = ExtensionFailed, err.Error()
		return r
	}
	before := head(ctx, run, dir)
	if _, err := run.Run(ctx, dir, "git", "pull", "--ff-only", "--no-recurse-submodules"); err != nil {
		r.Status, r.Message = ExtensionFailed, err.Error()
		return r
	}
	after := head(ctx, run, dir)
	if after == before {
		r.Status, r.Message = ExtensionUnchanged, "already up to date"
		return r
	}
	if err := install(ctx, fsys, run, dir, source, progress); err != nil {
		r.Status, r.Message = ExtensionFailed, err.Error()
		return r
	}
	r.Status, r.Message = ExtensionRefreshed, "updated to "+after
	return r
}

// head returns the checkout's commit, "" when git cannot tell.
func head(ctx context.Context, run Runner, dir string) string {
	out, err := run.Run(ctx, dir, "git", "rev-parse", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// readMetadata reads a sidecar: ok is false when it is not a JSON object
// with a string source; a ref that is a string pins the checkout.
func readMetadata(fsys FS, name string) (source, ref string, pinned, ok bool) {
	data, err := vfs.ReadFile(fsys, name)
	if err != nil {
		return "", "", false, false
	}
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return "", "", false, false
	}
	source, ok = doc["source"].(string)
	ref, pinned = doc["ref"].(string)
	return source, ref, pinned, ok
}

// say reports a progress line, when there is a progress function.
func say(progress func(string), line string) {
	if progress != nil {
		progress(line)
	}
}
