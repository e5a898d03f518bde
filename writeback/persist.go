package writeback

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
// a directory fails. Links are never followed below the source. As with
// upstream's fs.cp, a durable file that is itself a link (a dotfiles
// checkout, say) is replaced by a regular file, not written through.
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
	if err := composite.EnsureSource(fsys, sp.SourcePath, sp.Directory); err != nil {
		return err
	}
	return copyTree(fsys, out, sp.SourcePath)
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

// copyTree copies src onto dst like Node's fs.cp with recursive and force
// set: Lstat semantics on both sides, an existing non-directory at dst is
// replaced, a directory is merged into an existing directory.
func copyTree(fsys PersistFS, src, dst string) error {
	si, err := vfs.Lstat(fsys, src)
	if err != nil {
		return err
	}
	di, err := vfs.Lstat(fsys, dst)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	switch {
	case si.Mode()&fs.ModeSymlink != 0:
		target, err := vfs.ReadLink(fsys, src)
		if err != nil {
			return err
		}
		if exists {
			if di.Mode()&fs.ModeSymlink == 0 {
				return &os.LinkError{Op: "symlink", Old: target, New: dst, Err: fs.ErrExist}
			}
			if err := vfs.Remove(fsys, dst); err != nil {
				return err
			}
		}
		return vfs.Symlink(fsys, target, dst)
	case si.IsDir():
		if !exists {
			if err := vfs.Mkdir(fsys, dst, si.Mode().Perm()); err != nil {
				return err
			}
		} else if !di.IsDir() {
			return &fs.PathError{Op: "cp", Path: dst, Err: vfs.ErrNotDir}
		}
		list, err := vfs.ReadDir(fsys, src)
		if err != nil {
			return err
		}
		for _, e := range list {
			if err := copyTree(fsys, path.Join(src, e.Name()), path.Join(dst, e.Name())); err != nil {
				return err
			}
		}
		return nil
	case si.Mode().IsRegular():
		if exists && di.IsDir() {
			return &fs.PathError{Op: "cp", Path: dst, Err: vfs.ErrIsDir}
		}
		// Read first: a failed read must not cost the durable file.
		data, err := vfs.ReadFile(fsys, src)
		if err != nil {
			return err
		}
		return replaceFile(fsys, dst, data, si.Mode().Perm(), exists && di.Mode()&fs.ModeSymlink != 0)
	}
	return &fs.PathError{Op: "cp", Path: src, Err: fs.ErrInvalid}
}

// replaceFile puts data at dst: written to a temporary file beside it and
// renamed over it, so that a failed write (ENOSPC, EIO) leaves the old
// durable file whole. A link at dst is replaced, not written through, as
// Node's fs.cp does. Without rename support the file is written in place.
func replaceFile(fsys PersistFS, dst string, data []byte, perm fs.FileMode, dstIsLink bool) error {
	tmp := path.Join(path.Dir(dst), "."+path.Base(dst)+".outfitter-persist")
	if err := vfs.WriteFile(fsys, tmp, data, perm); err != nil {
		_ = vfs.Remove(fsys, tmp)
		return err
	}
	err := vfs.Rename(fsys, tmp, dst)
	if err == nil {
		return nil
	}
	_ = vfs.Remove(fsys, tmp)
	if !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	if dstIsLink {
		if err := vfs.Remove(fsys, dst); err != nil {
			return err
		}
	}
	return vfs.WriteFile(fsys, dst, data, perm)
}
