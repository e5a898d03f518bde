package vfs

import (
	"io/fs"
	"path"
	"strings"
)

// EvalSymlinks returns the name of the file name leads to, with every
// symbolic link in it replaced by its target, like filepath.EvalSymlinks
// on Unix: the components are walked with [Lstat] from the root, a
// relative target resolves from the directory holding its link, ".."
// steps back from the directory reached so far (physically, as the kernel
// does, not lexically), and more than [MaxSymlinkHops] links fail with
// [ErrLoop]. Every component must exist; a missing one fails with
// fs.ErrNotExist, a non-directory followed by more components with
// [ErrNotDir], as does a trailing slash after one. name must be absolute. fsys needs [LstatFS] and
// [ReadLinkFS]; without them EvalSymlinks returns an error wrapping
// errors.ErrUnsupported.
//
// The result is a snapshot: a concurrent change to the tree can make it
// stale, so it suits checks on trees nobody else is changing.
func EvalSymlinks(fsys FS, name string) (string, error) {
	if !path.IsAbs(name) {
		return "", &fs.PathError{Op: "evalsymlinks", Path: name, Err: fs.ErrInvalid}
	}
	resolved := "/"
	rest := strings.Split(name[1:], "/")
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, c)
		fi, err := Lstat(fsys, next)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			// A trailing slash or more names after a non-directory are a
			// lookup inside it.
			if !fi.IsDir() && len(rest) > 0 {
				return "", &fs.PathError{Op: "lstat", Path: name, Err: ErrNotDir}
			}
			resolved = next
			continue
		}
		if hops++; hops > MaxSymlinkHops {
			return "", &fs.PathError{Op: "evalsymlinks", Path: name, Err: ErrLoop}
		}
		target, err := ReadLink(fsys, next)
		if err != nil {
			return "", err
		}
		if target == "" {
			return "", &fs.PathError{Op: "evalsymlinks", Path: next, Err: fs.ErrNotExist}
		}
		if path.IsAbs(target) {
			resolved = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return resolved, nil
}
