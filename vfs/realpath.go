package vfs

import (
	"errors"
	"io/fs"
	"path"
)

// EvalSymlinks returns the name of the file name leads to, with every
// symbolic link in it replaced by its target, like filepath.EvalSymlinks
// on Unix but physically: it resolves name with [Resolve] over [Lstat] and
// [ReadLink] of fsys, so a relative target resolves from the directory
// holding its link, ".." steps back from the directory reached so far (as
// the kernel does, not lexically), and more than [MaxSymlinkHops] links
// fail with [ErrLoop]. Every component must exist; a missing one fails
// with fs.ErrNotExist, a non-directory followed by more components with
// [ErrNotDir], as does a trailing slash after one. name must be absolute.
// fsys needs [LstatFS], and [ReadLinkFS] once a link is met; without them
// EvalSymlinks returns an error wrapping errors.ErrUnsupported.
//
// The result is a snapshot: a concurrent change to the tree can make it
// stale, so it suits checks on trees nobody else is changing.
func EvalSymlinks(fsys FS, name string) (string, error) {
	if !path.IsAbs(name) {
		return "", &fs.PathError{Op: "evalsymlinks", Path: name, Err: fs.ErrInvalid}
	}
	var buf [16]namedEntry
	_, r, _, err := Resolve[namedEntry](statLookup{fsys}, namedEntry{"/"}, name, ResolveFollow, buf[:0], nil)
	if err == nil && r.Kind == KindNone {
		err = fs.ErrNotExist
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return "", err // the file system's own failure, naming its path
		}
		return "", &fs.PathError{Op: "evalsymlinks", Path: name, Err: err}
	}
	return r.Final.path, nil
}

// namedEntry is an entry of any file system, known by its canonical name.
type namedEntry struct{ path string }

// statLookup is the [Lookup] of a file system that can Lstat and read
// links: an entry is looked up by its canonical name.
type statLookup struct{ fsys FS }

func (l statLookup) Child(dir namedEntry, _ string, _ int, name string) (namedEntry, Kind, error) {
	p := path.Join(dir.path, name)
	fi, err := Lstat(l.fsys, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return namedEntry{p}, KindNone, nil
	case err != nil:
		return namedEntry{}, KindNone, err
	case fi.IsDir():
		return namedEntry{p}, KindDir, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		return namedEntry{p}, KindLink, nil
	}
	return namedEntry{p}, KindFile, nil
}

func (l statLookup) ReadLink(e namedEntry) (string, error) { return ReadLink(l.fsys, e.path) }
