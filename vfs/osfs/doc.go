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
// tests and for reading fixture directories: the vfs name "/x/y" is
// "<dir>/x/y". A rooted FS behaves like a chroot, so that a tree behaves
// the same on it as on a [vfs.MemFS], which models a whole machine:
//
//   - An absolute link target resolves from the root, not from the host's
//     "/". os.Root rejects such targets as escapes; a rooted FS follows them
//     inside the root instead.
//   - ".." in a name or a target stops at the root.
//   - At most [vfs.MaxSymlinkHops] links are followed per name, after
//     which the call fails with [vfs.ErrLoop] (ELOOP).
//   - Link targets are stored verbatim: Symlink("/fixture/home/x", name)
//     writes the text "/fixture/home/x" to disk and [FS.ReadLink] returns it.
//   - Trailing slashes, "." and ".." as a last component, and the EISDIR
//     and ENOTDIR cases follow the kernel's rules, since the kernel applies
//     them (see below). So does the length limit: a name or link target of
//     [vfs.PathMax] bytes or more, counted as the caller gave it (not as a
//     host path), fails with [vfs.ErrNameTooLong].
//
// # Confinement under races
//
// No call of a rooted FS reads, lists, creates, writes, removes, renames
// or changes the mode or times of anything outside its root, even while
// another process rearranges the tree under it, for example by exchanging
// a directory with a link to outside (renameat2 RENAME_EXCHANGE) between
// two steps of a call. On Linux, the kernel resolves every name:
//
//   - Each call opens the root directory and resolves names from it with
//     openat2(2) and RESOLVE_IN_ROOT, which gives the chroot semantics
//     above for the whole lookup, links included, with no window between
//     a check and its use. RESOLVE_NO_MAGICLINKS refuses /proc-style links.
//   - Calls that act on a last component without following it ([FS.Mkdir],
//     [FS.Symlink], [FS.Remove], [FS.Rename]) open its parent that way and
//     then use mkdirat, symlinkat, unlinkat or renameat on the component,
//     which the kernel never follows: the parent is held by its descriptor,
//     so a later swap cannot move the call elsewhere.
//   - Calls that follow the final link ([FS.Open], [FS.OpenFile], which
//     also creates through a dangling final link, [FS.Stat],
//     [FS.ReadDir], [FS.Chmod], [FS.Chtimes]), and [FS.Lstat] and
//     [FS.ReadLink] (with O_NOFOLLOW), open the whole name and act on the
//     descriptor. O_CREATE|O_EXCL never follows a final link, so
//     [vfs.CreateTemp] on a rooted FS never creates outside the root.
//   - [FS.RemoveAll] walks the tree by descriptors (openat with
//     O_NOFOLLOW|O_DIRECTORY, getdents, unlinkat), as os.RemoveAll does.
//   - [FS.MkdirAll] and [FS.WriteFile] are made of the calls above.
//   - Directory entries answer Info through the rooted FS, not with an
//     lstat of a host path as package os would.
//
// A lookup through ".." fails with EAGAIN in the kernel when a rename
// happened anywhere on the system while it ran; such a lookup is tried
// again, up to 128 times, and then fails with EAGAIN. A call that loses a
// race may fail (typically with fs.ErrNotExist); it never acts outside.
// The root directory itself is named by its host path at each call, as
// given to [NewRooted]: confinement is below it, not of it.
//
// A rooted FS needs Linux 5.6 or later (openat2); on older kernels every
// call fails with an error wrapping errors.ErrUnsupported. Chmod uses
// fchmodat2 (Linux 6.6) and Chtimes utimensat with AT_EMPTY_PATH when the
// kernel has them, and the descriptor's /proc/self/fd entry otherwise. On other systems every call of a rooted FS fails with an
// error wrapping errors.ErrUnsupported: they have no RESOLVE_IN_ROOT, and
// os.Root, the race-free alternative there, refuses the absolute links
// a rooted FS must follow. The host FS works everywhere.
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
//     loops on its own confined calls, with one difference: os.RemoveAll
//     refuses a name ending in "/." (EINVAL) but takes one ending in
//     "/.." as the entry ".." of the parent and empties the grandparent;
//     a rooted FS refuses both with EINVAL, as [vfs.MemFS] does.
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
