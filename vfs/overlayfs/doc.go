// Package overlayfs is a copy-on-write overlay: a lower file system, used
// read-only, seen through an in-memory upper layer (a [vfs.MemFS]) that
// receives every change. It is what a dry run over a real directory needs:
// the run sees its own writes, the real directory is never touched, and
// [FS.Changes] lists every durable change a real run would have made.
//
// # Layering
//
// [New] stacks the two layers. Names are resolved in the merged view with
// the rules of [vfs.MemFS] (physically, component by component, at most
// [vfs.MaxSymlinkHops] links, then [vfs.ErrLoop]); at each component the
// upper layer's entry wins, and the lower layer's shows through when the
// upper has none. Links resolve across layers: an upper link may point at
// a lower name and the other way round, intermediate links of either
// layer are followed, and a write through a link (even a dangling one,
// which creates its target) lands in the upper layer.
//
// Reads fall through to the layer that holds the entry; a directory lists
// the entries of both layers, sorted by name. Every change (writes,
// appends, creation, removal, renames, links, modes, times) is made in
// the upper layer after a copy-up: the directories and links the name
// passes through, and the entry itself, are copied with their content,
// modes and modification times. The lower layer is read only as far as a
// call reaches (a few operations per component of its name, no scan of
// the tree), and is only ever asked for Lstat, ReadLink, ReadDir and
// ReadFile (or their fallbacks in package vfs); a lower layer without
// them gives errors wrapping errors.ErrUnsupported. The lower layer must
// not change while the overlay is in use (Linux's overlayfs asks the same
// of its layers): the overlay asks it about each name once and remembers
// the answer. Calls that only read also remember the merged entries they
// resolve until the next call that writes.
//
// # Whiteouts and opaque directories
//
// Removing or replacing a lower entry records a whiteout on its name: the
// lower entry, and everything below it, never shows again. A directory
// created where a whiteout is (a lower directory removed, then made
// again) is therefore opaque: the lower children do not show through.
// Whiteouts live in the overlay, not in the upper layer, whose tree holds
// only real entries.
//
// # Renames
//
// Renaming a lower directory copies its whole visible subtree up first,
// then renames it within the upper layer: the old name gets a whiteout and
// the new one is opaque. This reads the moved subtree once; it keeps the
// upper layer a plain tree that needs no redirects.
//
// # Errors and concurrency
//
// Errors are those of [vfs.MemFS]: *fs.PathError or *os.LinkError with
// the caller's names, wrapping the vfs errno sentinels. An FS is safe for
// concurrent use: each call holds one lock (shared for reads, exclusive
// for writes). The lower layer must not change while an FS uses it, and
// the upper layer may only be changed through the FS.
//
// # What is never written below
//
// Nothing. No call of an FS mutates its lower layer: no write, create,
// remove, rename, link, mode or time change, and no open for writing.
// The tests wrap the lower layer in a faultfs that fails any such call.
package overlayfs
