package writeback

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
)

// Persist copies the composite path of a state path to its durable source,
// the only copy-back there is (§5.5): the source (and its parents) is
// created first if missing, with the JSON default content of mcp.json,
// models.json and trust.json; a file overwrites the source file; a
// directory is copied into the source directory, overwriting same-named
// files, keeping files only the source has (deletions are not carried
// over) and copying links as links. A directory onto a file or a file onto
// a directory fails.
//
// Nothing is written through a link the declared source path does not
// itself name. Every durable file is put in place with [vfs.ReplaceFile]:
// its content goes to a new temporary file with a random name, created
// exclusively in the destination's folder (a link planted there, at any
// name, is never opened), and is renamed over the destination, so a
// failed write, a full disk or an interruption before the rename leaves
// the old durable file whole and removes the temporary file. As with
// upstream's fs.cp, a durable file that is itself a link (a dotfiles
// checkout, say) is replaced by a regular file, not written through. The
// destination is walked with Lstat: a link where a directory is to be
// copied, the source directory itself included (upstream's fs.cp refuses
// it too), fails with a [*LinkRefusedError] and nothing is written below
// it.
//
// The source is prepared with [composite.EnsureSource]. The error messages
// of the upstream conditions (no source, path gone from the composite,
// type mismatch of the source) are upstream's, verbatim.
func Persist(fsys PersistFS, root string, sp composite.StatePath) error {
	if sp.SourcePath == "" {
		return fmt.Errorf("State path '%s' cannot be persisted without a durable source path.", sp.RelativePath)
	}
	out, err := stateOutput(root, sp.RelativePath)
	if err != nil {
		return err
	}
	// A root the agent replaced by a link could make the composite path
	// and the source one and the same file; never copy from there.
	if fi, err := vfs.Lstat(fsys, root); err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("State path '%s' cannot be persisted: the composite profile root '%s' is no longer a directory.", sp.RelativePath, root)
	}
	if _, err := vfs.Lstat(fsys, out); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("State path '%s' no longer exists in the composite profile, so it cannot be persisted.", sp.RelativePath)
		}
		return err
	}
	// A blank source the reset left alone (it leads out of its profile
	// folder) needs no warning here: the copy replaces it right after.
	if _, err := composite.EnsureSource(fsys, sp); err != nil {
		return err
	}
	// Node's fs.cp with recursive and force: Lstat semantics on both
	// sides, links copied as links, directories merged, files replaced.
	return vfs.Copy(fsys, sp.SourcePath, fsys, out, vfs.CopyOptions{Merge: true})
}

// stateOutput returns the absolute composite path of a declared key, or
// upstream's error when it does not stay under root.
func stateOutput(root, key string) (string, error) {
	name := strings.TrimSuffix(key, "/")
	if _, ok := rootRel(root, name); !ok || path.IsAbs(name) {
		return "", fmt.Errorf("State path '%s' must stay under compositeProfile root '%s'.", key, root)
	}
	return path.Join(root, name), nil
}

// LinkRefusedError reports a symbolic link found in a durable destination
// where [Persist] has a directory to copy: the link is never followed, so
// nothing is written to where it points, and the copy stops there. It is
// the error of [vfs.Copy] with Merge.
type LinkRefusedError = vfs.LinkRefusedError
