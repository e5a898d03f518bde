// Package osfs implements the [vfs] interfaces ([vfs.ReadWriteFS]) over the
// operating system's file system. It is the production backend of
// Outfitter and the kernel oracle that [vfs.MemFS] is compared with.
//
// # Two views
//
// [New] returns the host file system: a vfs name is a host absolute path
// and goes to the kernel unchanged. A relative name is refused with an
// *fs.PathError wrapping fs.ErrInvalid.
//
// [NewRooted] returns a file system confined to one host directory, for
// tests: the vfs name "/x/y" is "<dir>/x/y". A rooted FS behaves like a
// chroot, so that a tree behaves the same on it as on a [vfs.MemFS], which
// models a whole machine:
//
//   - An absolute link target resolves from the root, not from the host's
//     "/". os.Root rejects such targets as escapes; a rooted FS follows them
//     inside the root instead.
//   - ".." in a name or a target stops at the root.
//   - Links are resolved component by component with Lstat and Readlink,
//     at most [vfs.MaxSymlinkHops] of them per name, after which the call
//     fails with [vfs.ErrLoop] (ELOOP). The final operation then runs on a
//     host path inside the root whose parents hold no link; opens add
//     O_NOFOLLOW, so a final link planted after resolution is not followed.
//   - Link targets are stored verbatim: Symlink("/fixture/home/x", name)
//     writes the text "/fixture/home/x" to disk and [FS.ReadLink] returns it.
//
// Confinement holds against the tree as it stands when a call resolves its
// names. Unlike os.Root it does not hold file descriptors across the walk,
// so a process that swaps directories for links while a call runs could
// race it; the test trees it is meant for are not changed by anyone else.
//
// # Errors
//
// Errors are the ones package os returns, *fs.PathError for one name and
// *os.LinkError for two, wrapping the kernel's errno (so [errors.Is] matches
// fs.ErrNotExist, [vfs.ErrNotDir], [vfs.ErrLoop] and the rest exactly as it
// does for a [vfs.MemFS]). Their Path, Old and New fields hold the caller's
// vfs names, never host paths; so do the errors and Name of open files and
// the Name of FileInfo values, which is the base of the name asked for, as
// with os.Stat.
//
// # Where package os differs from POSIX
//
// Package os adds a few rules of its own to the system calls; this package
// takes the kernel's side, which is also what [vfs.MemFS] follows:
//
//   - os.Rename refuses to rename a directory onto an existing directory
//     with EEXIST, even an empty one and even onto itself. [FS.Rename]
//     calls rename(2) directly in both views: a directory replaces an empty
//     directory, renaming a name onto itself succeeds, and a non-empty
//     target fails with [vfs.ErrNotEmpty].
//   - os.MkdirAll and os.RemoveAll are library loops, not system calls; the
//     host view uses them as they are, the rooted view performs the same
//     loops on resolved names.
//   - The kernel refuses to remove or rename "/" (EBUSY). On a rooted FS the
//     root is a real directory that rmdir(2) would accept, so [FS.Remove],
//     [FS.Rename] and [FS.RemoveAll] of "/" fail with EBUSY as on a real
//     machine (RemoveAll first empties the root, as `rm -rf /` would).
//
// Mode bits of created files and directories pass through the process
// umask, as with package os.
//
// # Concurrency
//
// An [FS] holds no mutable state; it is safe for concurrent use to the
// extent the kernel is.
package osfs
