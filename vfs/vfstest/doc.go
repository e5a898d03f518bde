// Package vfstest is test support for the vfs package and its users: a
// conformance suite for [vfs.ReadWriteFS] implementations, typed tree
// literals, and a deterministic clock. Production packages never import it.
//
// # Conformance
//
// [Run] runs one subtest per check of the vfs contract, each on a fresh
// file system, and expects Linux's answer (with package os's error types)
// to every one of them: symbolic links (relative, absolute, chained, in the
// middle of a path, dangling, looping after [vfs.MaxSymlinkHops] hops,
// written through), POSIX rename and remove semantics, errors that wrap
// the vfs sentinels inside *fs.PathError or *os.LinkError, io/fs views that
// pass testing/fstest, and concurrent use. [Names] lists the checks.
//
// # Tree literals
//
// A [Tree] maps relative paths to nodes made with [File], [Dir] and
// [Link]; [Build] creates it below a root of any file system with the
// needed capabilities, and [Tree.Entries] gives the [vfs.Tree] that
// [vfs.Snapshot] must then report. Helpers take a [TB], which both
// *testing.T and *rapid.T satisfy.
//
// # Time
//
// [Clock] is a goroutine-safe fake clock for vfs.MemOptions.Clock that
// advances one second per reading.
package vfstest
