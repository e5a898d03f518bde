package composite

import (
	"io/fs"
	"path"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/vfs"
)

// JSONSyntaxError is the failure of a JSON document upstream reads with
// JSON.parse (pi's settings and keybindings): its message is the one
// Node 22's JSON.parse gives for the same text, because upstream passes
// it on in its own messages.
type JSONSyntaxError = jsstack.JSONSyntaxError

// globFS is the file system of a skill reference glob: fsys with Node's
// lstat and readdir, held within root. Unlike Node's walk, it never lists
// a directory outside root, lexically or through a link (every match
// there would be refused as leaving the root, one problem per file: a
// link to / walked the whole machine); the first such directory is kept
// in left, and the walk sees it as empty.
type globFS struct {
	fsys vfs.FS
	root string
	// realRoot is root's real path, "" until needed.
	realRoot string
	// links are the names seen to be links, which make a listing below
	// them resolve its real path.
	links map[string]bool
	// left is the first directory not listed.
	left string
}

func newGlobFS(fsys vfs.FS, root string) *globFS {
	return &globFS{fsys: fsys, root: path.Clean(root), links: map[string]bool{}}
}

func (g *globFS) Lstat(name string) (fs.FileInfo, error) {
	fi, err := vfs.Lstat(g.fsys, name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		g.links[path.Clean(name)] = true
	}
	return fi, err
}

func (g *globFS) ReadDir(name string) ([]fs.DirEntry, error) {
	name = path.Clean(name)
	if !g.inside(name) {
		if g.left == "" {
			g.left = name
		}
		return nil, nil
	}
	list, err := vfs.ReadDir(g.fsys, name)
	for _, e := range list {
		if e.Type()&fs.ModeSymlink != 0 {
			g.links[vfs.Join(name, e.Name())] = true
		}
	}
	return list, err
}

// inside reports whether name lies in root: lexically, and, when a link
// seen on the way leads there, by its real path.
func (g *globFS) inside(name string) bool {
	if !vfs.Within(name, g.root) {
		return false
	}
	linked := false
	for p := name; p != g.root && len(p) > len(g.root); p = parentOf(p) {
		if g.links[p] {
			linked = true
			break
		}
	}
	if !linked {
		return true
	}
	if g.realRoot == "" {
		real, err := realPath(g.fsys, g.root)
		if err != nil {
			return false
		}
		g.realRoot = real
	}
	real, err := realPath(g.fsys, name)
	return err == nil && vfs.Within(real, g.realRoot)
}
