package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// LinkPolicy says what [Copy] does with a symbolic link it meets in the
// source tree.
type LinkPolicy int

// The link policies.
const (
	// LinksVerbatim copies a link as a link with the same target, never
	// following it: a link that leads out of the tree stays a link. It is
	// the zero value.
	LinksVerbatim LinkPolicy = iota
	// LinksAbsolute copies a link as a link whose relative target is made
	// absolute against the link's directory in the source, lexically, as
	// Node's fs.cp does without verbatimSymlinks: the copy leads where the
	// original led. It is never followed either.
	LinksAbsolute
	// LinksFollow copies what a link leads to as if it stood in the
	// link's place. With [CopyOptions].Within set, a link (or the source
	// itself) whose real path leaves Within fails with a
	// [*LinkEscapeError] before anything is read from where it leads.
	// A directory reached again below itself (a link back to an ancestor)
	// fails with an error wrapping [ErrLoop].
	LinksFollow
)

// CopyOptions tunes [Copy]. The zero value is [CopyTree]'s behaviour.
type CopyOptions struct {
	// Links is the link policy of the source tree.
	Links LinkPolicy
	// Within, for [LinksFollow], is the directory whose real path every
	// followed link must stay in; "" follows links anywhere.
	Within string
	// Merge lets the destination exist, as Node's fs.cp with force does:
	// a directory is merged into an existing directory (files only the
	// destination has stay), a file replaces the existing file with
	// [ReplaceFile] (atomically, keeping the old one on failure; a link
	// at its name is replaced, never written through), a link replaces
	// an existing link. A link in the destination where a directory is
	// to be copied is never followed: the copy fails with a
	// [*LinkRefusedError] and nothing is written below it. A directory
	// onto a non-directory fails with [ErrNotDir], a file onto a
	// directory with [ErrIsDir], a link onto anything but a link with
	// fs.ErrExist. Merge is the durable copy: a link replaces a link
	// atomically too (made at a temporary name and renamed over it), and
	// what Copy makes survives a power cut once it returns (files through
	// ReplaceFile, each new directory or link committed by a sync of its
	// parent, [SyncDir]; dst then needs [SyncDirFS]). Without Merge, the
	// destination is expected to be new: directories are made with Mkdir
	// (an existing one below the top is an error) and files written with
	// WriteFile.
	Merge bool
	// SkipSpecial skips named pipes, sockets and devices, as Node's
	// fs.cpSync does; without it they fail with fs.ErrInvalid.
	SkipSpecial bool
	// DirPerm, when not nil, gives the permission bits of each directory
	// made from those of its source; nil keeps them.
	DirPerm func(fs.FileMode) fs.FileMode
}

// LinkEscapeError reports a symbolic link that [Copy] refused to follow:
// its real path leaves the directory the copy is held within
// ([CopyOptions].Within). Nothing was read from where it leads.
type LinkEscapeError struct {
	// Link is the link (or the first name through it) in the source.
	Link string
	// Real is where it leads.
	Real string
	// Within is the directory it had to stay in.
	Within string
}

// Error names the link, where it leads and the directory it left.
func (e *LinkEscapeError) Error() string {
	return fmt.Sprintf("refusing to follow %s: it leads to %s, outside %s", e.Link, e.Real, e.Within)
}

// LinkRefusedError reports a symbolic link found in a destination where
// [Copy] with Merge has a directory to copy: the link is never followed,
// so nothing is written to where it points, and the copy stops there.
type LinkRefusedError struct {
	// Path is the link in the destination.
	Path string
	// Target is where it points, verbatim.
	Target string
}

// Error names the link and its target.
func (e *LinkRefusedError) Error() string {
	return fmt.Sprintf("refusing to copy a directory onto %s: it is a symbolic link to %s, and links in a durable destination are never followed", e.Path, e.Target)
}

// CopyTree copies the tree below srcDir of src into dstDir of dst, which
// must not exist yet or be a directory: directories and files with their
// permission bits, symbolic links verbatim (never followed, so a link that
// points outside the tree stays a link). It is [Copy] with the zero
// [CopyOptions] for a source that must be a directory.
func CopyTree(dst FS, dstDir string, src FS, srcDir string) error {
	srcDir, dstDir = path.Clean(srcDir), path.Clean(dstDir)
	fi, err := Lstat(src, srcDir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: "copytree", Path: srcDir, Err: ErrNotDir}
	}
	return Copy(dst, dstDir, src, srcDir, CopyOptions{})
}

// Copy copies srcName of src (a file, a link or a directory tree) to
// dstName of dst under the rules of opts: the link policy of the source,
// the merge rules of the destination, what becomes of special files and
// of directory permissions. Files keep their permission bits. The top of
// a new destination is made with its parents (MkdirAll) when it is a
// directory; an existing directory there is used as it is. src needs
// Lstat and ReadLink (Stat too, and EvalSymlinks' needs, for
// [LinksFollow]); dst needs what is written: MkdirAll, Mkdir, WriteFile
// (or what [ReplaceFile] needs, with Merge), Symlink, Remove. A missing
// capability gives an error wrapping errors.ErrUnsupported. Copy stops at
// the first error, leaving what was copied so far.
func Copy(dst FS, dstName string, src FS, srcName string, opts CopyOptions) error {
	c := copier{dst: dst, src: src, opts: opts}
	srcName, dstName = path.Clean(srcName), path.Clean(dstName)
	if opts.Links == LinksFollow && opts.Within != "" {
		within, err := EvalSymlinks(src, path.Clean(opts.Within))
		if err != nil {
			return err
		}
		c.within = within
		if err := c.contained(srcName, srcName); err != nil {
			return err
		}
	}
	fi, err := c.info(srcName)
	if err != nil {
		return err
	}
	return c.copy(fi, dstName, srcName, true)
}

// copier is one [Copy] in progress.
type copier struct {
	dst, src FS
	opts     CopyOptions
	// within is the real path of opts.Within, when set.
	within string
	// ancestry holds the real paths of the directories being copied, for
	// cycles under LinksFollow.
	ancestry []string
	// cleaned holds the destination directories (clean) whose temporary
	// files of the names copied were removed already, under Merge.
	cleaned map[string]bool
}

// info returns the source entry's type as the link policy sees it:
// Lstat's, or Stat's under LinksFollow.
func (c *copier) info(name string) (fs.FileInfo, error) {
	if c.opts.Links == LinksFollow {
		return Stat(c.src, name)
	}
	return Lstat(c.src, name)
}

// entry returns the type of the source entry name below the top, as the
// link policy sees it; under LinksFollow with Within, a link leading out
// of it is refused first.
func (c *copier) entry(name string) (fs.FileInfo, error) {
	if c.within == "" {
		return c.info(name)
	}
	fi, err := Lstat(c.src, name)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return fi, err
	}
	if err := c.contained(name, name); err != nil {
		return nil, err
	}
	return Stat(c.src, name)
}

// contained checks, under LinksFollow with Within, that name's real path
// stays within; link names the link reported.
func (c *copier) contained(link, name string) error {
	real, err := EvalSymlinks(c.src, name)
	if err != nil {
		return err
	}
	if real != c.within && !strings.HasPrefix(real, c.within+"/") && c.within != "/" {
		return &LinkEscapeError{Link: link, Real: real, Within: c.opts.Within}
	}
	return nil
}

func (c *copier) copy(fi fs.FileInfo, to, from string, top bool) error {
	mode := fi.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return c.link(to, from)
	case mode.IsDir():
		return c.dir(fi, to, from, top)
	case mode.IsRegular():
		return c.file(fi, to, from)
	case c.opts.SkipSpecial:
		return nil
	}
	return &fs.PathError{Op: "cp", Path: from, Err: fs.ErrInvalid}
}

func (c *copier) link(to, from string) error {
	target, err := ReadLink(c.src, from)
	if err != nil {
		return err
	}
	if c.opts.Links == LinksAbsolute && !path.IsAbs(target) {
		target = path.Join(path.Dir(from), target)
	}
	if c.opts.Merge {
		di, err := Lstat(c.dst, to)
		switch {
		case err == nil && di.Mode()&fs.ModeSymlink == 0:
			return &os.LinkError{Op: "symlink", Old: target, New: to, Err: fs.ErrExist}
		case err == nil:
			return replaceLink(c.dst, target, to, !c.cleaned[path.Dir(to)])
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := Symlink(c.dst, target, to); err != nil {
			return err
		}
		return syncDirOf(c.dst, to)
	}
	return Symlink(c.dst, target, to)
}

func (c *copier) dirPerm(fi fs.FileInfo) fs.FileMode {
	if c.opts.DirPerm != nil {
		return c.opts.DirPerm(fi.Mode().Perm())
	}
	return fi.Mode().Perm()
}

func (c *copier) dir(fi fs.FileInfo, to, from string, top bool) error {
	perm := c.dirPerm(fi)
	if c.opts.Links == LinksFollow {
		// A file system without Lstat shows no links: no cycle to find.
		real, err := EvalSymlinks(c.src, from)
		switch {
		case err == nil && slices.Contains(c.ancestry, real):
			return &fs.PathError{Op: "cp", Path: from, Err: ErrLoop}
		case err == nil:
			c.ancestry = append(c.ancestry, real)
			defer func() { c.ancestry = c.ancestry[:len(c.ancestry)-1] }()
		case !isUnsupported(err):
			return err
		}
	}
	if err := c.makeDir(to, perm, top); err != nil {
		return err
	}
	list, err := ReadDir(c.src, from)
	if err != nil {
		return err
	}
	if c.opts.Merge {
		// The temporary files a killed copy left, for the names about to
		// be written, removed with one listing rather than one per file.
		names := make(map[string]bool, len(list))
		for _, de := range list {
			names[de.Name()] = true
		}
		if err := removeStrays(c.dst, to, func(base string) bool { return names[base] }, ""); err != nil {
			return err
		}
		if c.cleaned == nil {
			c.cleaned = map[string]bool{}
		}
		c.cleaned[path.Clean(to)] = true
	}
	for _, de := range list {
		next, dest := path.Join(from, de.Name()), path.Join(to, de.Name())
		fi, err := c.entry(next)
		if err != nil {
			return err
		}
		if err := c.copy(fi, dest, next, false); err != nil {
			return err
		}
	}
	if c.opts.Merge || top {
		return nil
	}
	// The bits asked for, whatever a umask took from Mkdir's.
	if err := Chmod(c.dst, to, perm); err != nil && !isUnsupported(err) {
		return err
	}
	return nil
}

// makeDir makes the destination directory to: its parents too at the top
// of a copy; with Merge, an existing directory is used as it is, but a
// link is never followed.
func (c *copier) makeDir(to string, perm fs.FileMode, top bool) error {
	if c.opts.Merge {
		di, err := Lstat(c.dst, to)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if top {
				return MkdirAllSynced(c.dst, to, perm)
			}
			if err := Mkdir(c.dst, to, perm); err != nil {
				return err
			}
			return syncDirOf(c.dst, to)
		case err != nil:
			return err
		case di.Mode()&fs.ModeSymlink != 0:
			target, err := ReadLink(c.dst, to)
			if err != nil {
				return err
			}
			return &LinkRefusedError{Path: to, Target: target}
		case !di.IsDir():
			return &fs.PathError{Op: "cp", Path: to, Err: ErrNotDir}
		}
		return nil
	}
	if top {
		return MkdirAll(c.dst, to, perm)
	}
	return Mkdir(c.dst, to, perm)
}

func (c *copier) file(fi fs.FileInfo, to, from string) error {
	perm := fi.Mode().Perm()
	if c.opts.Merge {
		if di, err := Lstat(c.dst, to); err == nil && di.IsDir() {
			return &fs.PathError{Op: "cp", Path: to, Err: ErrIsDir}
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	// Read first: a failed read must not cost an existing file.
	data, err := ReadFile(c.src, from)
	if err != nil {
		return err
	}
	if c.opts.Merge {
		_, err := replaceFile(c.dst, to, data, perm, !c.cleaned[path.Dir(to)], nil)
		return err
	}
	if err := WriteFile(c.dst, to, data, perm); err != nil {
		return err
	}
	if err := Chmod(c.dst, to, perm); err != nil && !isUnsupported(err) {
		return err
	}
	return nil
}
