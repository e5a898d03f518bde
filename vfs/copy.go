package vfs

import (
	"io/fs"
	"path"
)

// CopyTree copies the tree below srcDir of src into dstDir of dst, which
// must not exist yet or be a directory: directories and files with their
// permission bits, symbolic links verbatim (never followed, so a link that
// points outside the tree stays a link). src needs Lstat and ReadLink; dst
// needs MkdirAll, WriteFile and Symlink (a missing capability gives an
// error wrapping errors.ErrUnsupported). It stops at the first error,
// leaving what was copied so far.
func CopyTree(dst FS, dstDir string, src FS, srcDir string) error {
	srcDir, dstDir = path.Clean(srcDir), path.Clean(dstDir)
	fi, err := Lstat(src, srcDir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: "copytree", Path: srcDir, Err: ErrNotDir}
	}
	if err := MkdirAll(dst, dstDir, fi.Mode().Perm()); err != nil {
		return err
	}
	return copyDir(dst, dstDir, src, srcDir)
}

func copyDir(dst FS, dstDir string, src FS, srcDir string) error {
	list, err := ReadDir(src, srcDir)
	if err != nil {
		return err
	}
	for _, de := range list {
		from, to := path.Join(srcDir, de.Name()), path.Join(dstDir, de.Name())
		fi, err := Lstat(src, from)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := ReadLink(src, from)
			if err != nil {
				return err
			}
			if err := Symlink(dst, target, to); err != nil {
				return err
			}
		case fi.IsDir():
			if err := Mkdir(dst, to, fi.Mode().Perm()); err != nil {
				return err
			}
			if err := copyDir(dst, to, src, from); err != nil {
				return err
			}
			if err := Chmod(dst, to, fi.Mode().Perm()); err != nil && !isUnsupported(err) {
				return err
			}
		default:
			data, err := ReadFile(src, from)
			if err != nil {
				return err
			}
			if err := WriteFile(dst, to, data, fi.Mode().Perm()); err != nil {
				return err
			}
			if err := Chmod(dst, to, fi.Mode().Perm()); err != nil && !isUnsupported(err) {
				return err
			}
		}
	}
	return nil
}
