package composite

import (
	"io/fs"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/vfs"
)

// JSONSyntaxError is the failure of a JSON document upstream reads with
// JSON.parse (pi's settings and keybindings): its message is the one
// Node 22's JSON.parse gives for the same text, because upstream passes
// it on in its own messages.
type JSONSyntaxError = jsstack.JSONSyntaxError

// globFS is the file system of a skill reference glob: fsys with Node's
// lstat and readdir.
type globFS struct{ fsys vfs.FS }

func (g globFS) Lstat(name string) (fs.FileInfo, error)     { return vfs.Lstat(g.fsys, name) }
func (g globFS) ReadDir(name string) ([]fs.DirEntry, error) { return vfs.ReadDir(g.fsys, name) }
