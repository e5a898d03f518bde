package vfstest

import (
	"io/fs"
	"maps"
	"path"
	"slices"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
)

// TB is the part of testing.TB that the helpers of this package use. Both
// *testing.T and *rapid.T satisfy it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Default permission bits of the nodes built by [File] and [Dir].
const (
	DefaultFileMode fs.FileMode = 0o644
	DefaultDirMode  fs.FileMode = 0o755
)

// nodeKind says what a [Node] builds.
type nodeKind int

const (
	kindFile nodeKind = iota + 1
	kindDir
	kindLink
)

// Node is one entry of a [Tree] literal: a file, a directory or a symbolic
// link. Build nodes with [File], [Dir] and [Link]; the zero Node is invalid.
type Node struct {
	kind   nodeKind
	text   string
	target string
	mode   fs.FileMode
}

// File returns a regular file node holding text, with mode [DefaultFileMode].
func File(text string) Node { return Node{kind: kindFile, text: text, mode: DefaultFileMode} }

// Dir returns an (empty unless the tree says otherwise) directory node with
// mode [DefaultDirMode].
func Dir() Node { return Node{kind: kindDir, mode: DefaultDirMode} }

// Link returns a symbolic link node whose target, stored verbatim, is
// target; it may be relative, absolute or dangling.
func Link(target string) Node { return Node{kind: kindLink, target: target} }

// WithMode returns n with its permission bits set to perm. It has no effect
// on links, whose permission bits are not recorded.
func (n Node) WithMode(perm fs.FileMode) Node {
	if n.kind != kindLink {
		n.mode = perm & fs.ModePerm
	}
	return n
}

// Tree is a literal file tree keyed by slash-separated path relative to the
// root it is built under ("a", "a/b.txt"). Parent directories that the tree
// does not list are implied, with mode [DefaultDirMode].
type Tree map[string]Node

// Entries returns the [vfs.Tree] that [vfs.Snapshot] yields for the root after
// [Build] has built t there, implied directories included. Link entries
// carry no TargetExists (it is a property of the tree, not of the literal,
// and [vfs.Entry.Equal] ignores it). Invalid paths or zero nodes are
// reported through tb.
func (t Tree) Entries(tb TB) vfs.Tree {
	tb.Helper()
	out := vfs.Tree{}
	for _, p := range slices.Sorted(maps.Keys(t)) {
		n := t[p]
		if !fs.ValidPath(p) || p == "." {
			tb.Fatalf("vfstest: invalid tree path %q", p)
			return nil
		}
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if _, ok := t[dir]; !ok {
				out[dir] = vfs.Entry{Type: vfs.TypeDir, Mode: DefaultDirMode}
			}
		}
		switch n.kind {
		case kindFile:
			out[p] = vfs.Entry{Type: vfs.TypeFile, Mode: n.mode, Data: []byte(n.text)}
		case kindDir:
			out[p] = vfs.Entry{Type: vfs.TypeDir, Mode: n.mode}
		case kindLink:
			out[p] = vfs.Entry{Type: vfs.TypeSymlink, Target: n.target}
		default:
			tb.Fatalf("vfstest: tree path %q holds a zero Node (use File, Dir or Link)", p)
			return nil
		}
	}
	for p := range out {
		if dir := path.Dir(p); dir != "." && out[dir].Type != vfs.TypeDir {
			tb.Fatalf("vfstest: tree path %q lies below %q, which is a %s", p, dir, out[dir].Type)
			return nil
		}
	}
	return out
}

// Build creates tree below root in fsys, creating root (and its parents)
// first if needed. Entries are created in lexical order: directories with
// Mkdir, files with WriteFile, links with Symlink; files and directories
// are then chmod-ed to their exact mode so that the result does not depend
// on a umask. Any failure, including a missing capability, stops the test
// through tb.
func Build(tb TB, fsys vfs.FS, root string, tree Tree) {
	tb.Helper()
	entries := tree.Entries(tb)
	if entries == nil {
		return
	}
	if err := vfs.MkdirAll(fsys, root, DefaultDirMode); err != nil {
		tb.Fatalf("vfstest: build root: %v", err)
		return
	}
	for _, p := range entries.Paths() {
		name := path.Join(root, p)
		e := entries[p]
		var err error
		switch e.Type {
		case vfs.TypeDir:
			err = vfs.Mkdir(fsys, name, e.Mode)
		case vfs.TypeFile:
			err = vfs.WriteFile(fsys, name, e.Data, e.Mode)
		case vfs.TypeSymlink:
			err = vfs.Symlink(fsys, e.Target, name)
		}
		if err == nil && e.Type != vfs.TypeSymlink {
			err = vfs.Chmod(fsys, name, e.Mode)
		}
		if err != nil {
			tb.Fatalf("vfstest: build %s: %v", name, err)
			return
		}
	}
}

// WriteFiles writes files, keyed by slash-separated path below root, into
// fsys with mode [DefaultFileMode], creating missing parent directories
// with [DefaultDirMode]. Unlike [Build] it adds to what is there: existing
// directories are kept and existing files are replaced. Files are written
// in lexical order. Any failure stops the test through tb.
func WriteFiles(tb TB, fsys vfs.FS, root string, files map[string]string) {
	tb.Helper()
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		name := path.Join(root, rel)
		err := vfs.MkdirAll(fsys, path.Dir(name), DefaultDirMode)
		if err == nil {
			err = vfs.WriteFile(fsys, name, []byte(files[rel]), DefaultFileMode)
		}
		if err != nil {
			tb.Fatalf("vfstest: write %s: %v", name, err)
			return
		}
	}
}

// Snapshot returns [vfs.Snapshot] of root in fsys; a failure stops the test
// through tb.
func Snapshot(tb TB, fsys vfs.FS, root string) vfs.Tree {
	tb.Helper()
	tree, err := vfs.Snapshot(fsys, root)
	if err != nil {
		tb.Fatalf("vfstest: snapshot %s: %v", root, err)
		return nil
	}
	return tree
}

// WantUnchanged reports an error unless the tree below root in fsys is
// still before, entries compared as [vfs.Entry.Equal] does. The report
// starts with what and shows the difference (-before +after).
func WantUnchanged(tb TB, fsys vfs.FS, root string, before vfs.Tree, what string) {
	tb.Helper()
	after := Snapshot(tb, fsys, root)
	if d := cmp.Diff(before, after); d != "" {
		tb.Errorf("%s (-before +after):\n%s", what, d)
	}
}
