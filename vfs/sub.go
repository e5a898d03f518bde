package vfs

import "io/fs"

// Sub returns an io/fs view of the tree below dir: names are unrooted
// ("a/b.txt"), as io/fs requires. The view implements fs.StatFS,
// fs.ReadFileFS, fs.ReadDirFS and, when fsys supports links, fs.ReadLinkFS.
func Sub(fsys FS, dir string) fs.FS { panic("unimplemented") }
