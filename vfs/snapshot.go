package vfs

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// EntryType is the kind of a [Tree] entry. Its values read as words in JSON.
type EntryType string

// The entry types of a [Tree].
const (
	TypeDir     EntryType = "dir"
	TypeFile    EntryType = "file"
	TypeSymlink EntryType = "symlink"
)

// Entry is one node of a [Tree]: an explicit directory, a regular file with
// its content, or a symbolic link with its verbatim target.
type Entry struct {
	// Type is the kind of the entry.
	Type EntryType
	// Mode holds the permission bits (fs.ModePerm) of files and directories;
	// it is zero for symbolic links.
	Mode fs.FileMode
	// Data is the content of a file. It may share memory with the file
	// system it was read from (a MemFS snapshot does not copy contents):
	// treat it as read-only.
	Data []byte
	// Target is the verbatim target of a symbolic link.
	Target string
	// TargetExists reports whether a symbolic link resolved when the
	// snapshot was taken.
	TargetExists bool
}

// Equal reports whether e and o have the same type, permission bits,
// content and link target. TargetExists is not compared: it is a property
// of the rest of the tree, not of the entry.
func (e Entry) Equal(o Entry) bool {
	return e.Type == o.Type && e.Mode == o.Mode && e.Target == o.Target && bytes.Equal(e.Data, o.Data)
}

// Tree is a canonical snapshot of a file tree, keyed by slash-separated path
// relative to the snapshot's root ("a", "a/b.txt"); the root itself is not
// an entry. Directories are explicit; links are recorded, never descended.
type Tree map[string]Entry

// Paths returns the keys of t in lexical order.
func (t Tree) Paths() []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// SnapshotOptions tunes [SnapshotWith].
type SnapshotOptions struct {
	// Skip, when not nil, is called for every entry below the root with its
	// relative path and Lstat information. Returning true leaves the entry
	// out of the tree and, for a directory, does not descend into it.
	Skip func(rel string, info fs.FileInfo) bool
}

// Snapshot walks the tree below root with Lstat semantics and records every
// directory, file (with content) and symbolic link (with target). fsys must
// support Lstat and ReadLink; a missing capability yields an error wrapping
// errors.ErrUnsupported. Entries are read in lexical order.
func Snapshot(fsys FS, root string) (Tree, error) {
	return SnapshotWith(fsys, root, SnapshotOptions{})
}

// SnapshotWith is [Snapshot] with options.
func SnapshotWith(fsys FS, root string, opts SnapshotOptions) (Tree, error) {
	root = path.Clean(root)
	if m, ok := fsys.(*MemFS); ok {
		return m.snapshot(root, opts)
	}
	fi, err := Lstat(fsys, root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "snapshot", Path: root, Err: ErrNotDir}
	}
	t := Tree{}
	if err := snapshotDir(fsys, root, "", t, opts); err != nil {
		return nil, err
	}
	return t, nil
}

func snapshotDir(fsys FS, dir, rel string, t Tree, opts SnapshotOptions) error {
	list, err := ReadDir(fsys, dir)
	if err != nil {
		return err
	}
	for _, de := range list {
		name := path.Join(dir, de.Name())
		r := de.Name()
		if rel != "" {
			r = rel + "/" + r
		}
		info, err := Lstat(fsys, name)
		if err != nil {
			return err
		}
		if opts.Skip != nil && opts.Skip(r, info) {
			continue
		}
		e, err := entryOf(fsys, name, info)
		if err != nil {
			return err
		}
		t[r] = e
		if e.Type == TypeDir {
			if err := snapshotDir(fsys, name, r, t, opts); err != nil {
				return err
			}
		}
	}
	return nil
}

// EntryOf returns the [Entry] for one path, read with Lstat semantics.
func EntryOf(fsys FS, name string) (Entry, error) {
	info, err := Lstat(fsys, name)
	if err != nil {
		return Entry{}, err
	}
	return entryOf(fsys, name, info)
}

func entryOf(fsys FS, name string, info fs.FileInfo) (Entry, error) {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := ReadLink(fsys, name)
		if err != nil {
			return Entry{}, err
		}
		_, serr := Stat(fsys, name)
		return Entry{Type: TypeSymlink, Target: target, TargetExists: serr == nil}, nil
	case info.IsDir():
		return Entry{Type: TypeDir, Mode: info.Mode().Perm()}, nil
	case info.Mode().IsRegular():
		data, err := ReadFile(fsys, name)
		if err != nil {
			return Entry{}, err
		}
		return Entry{Type: TypeFile, Mode: info.Mode().Perm(), Data: data}, nil
	default:
		return Entry{}, &fs.PathError{Op: "snapshot", Path: name, Err: errors.New("unsupported file type " + info.Mode().Type().String())}
	}
}

// Change is a modified entry of a [Delta].
type Change struct {
	Before Entry
	After  Entry
}

// Delta is the difference between two trees.
type Delta struct {
	// Added holds entries present only in the later tree.
	Added map[string]Entry
	// Changed holds entries present in both trees that are not [Entry.Equal].
	Changed map[string]Change
	// Removed lists, sorted, the paths present only in the earlier tree.
	Removed []string
}

// Empty reports whether the delta has no change.
func (d Delta) Empty() bool {
	return len(d.Added) == 0 && len(d.Changed) == 0 && len(d.Removed) == 0
}

// Diff returns what changed from before to after.
func Diff(before, after Tree) Delta {
	d := Delta{Added: map[string]Entry{}, Changed: map[string]Change{}, Removed: []string{}}
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			d.Added[p] = a
		case !b.Equal(a):
			d.Changed[p] = Change{Before: b, After: a}
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			d.Removed = append(d.Removed, p)
		}
	}
	slices.Sort(d.Removed)
	return d
}

// Within returns the entries of t at or below the relative path prefix,
// keyed as in t.
func (t Tree) Within(prefix string) Tree {
	out := Tree{}
	for p, e := range t {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			out[p] = e
		}
	}
	return out
}
