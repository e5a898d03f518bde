// Package vfs is the file-system layer of vfsim: small capability
// interfaces, a symlink-aware in-memory backend that behaves like Linux,
// an io/fs view, and the one canonical tree snapshot used everywhere else.
//
// # Names
//
// Every name is an absolute, slash-separated path, as with package os on
// Unix. A file system models a whole machine: a fixture lives at
// "/fixture/home", a composite profile at "/tmp/outfitter-…". Symbolic link
// targets are stored verbatim (absolute or relative) and may dangle;
// resolution follows POSIX, with a limit of [MaxSymlinkHops] links per
// resolution, after which [ErrLoop] is returned. Lengths are limited as on
// Linux: a name argument or link target of [PathMax] bytes or more, counted
// as given (redundant slashes included), and a component of more than
// [NameMax] bytes fail with [ErrNameTooLong]; [CheckName] gives the errors of
// names refused before any lookup.
//
// # Resolution
//
// [Resolve] is the one path resolver of the package's backends: the
// kernel's walk (component by component, links followed with a hop limit,
// ".." physical, an absolute target restarting from the root, the rules
// of a trailing slash), generic over a [Lookup] that looks a child up in a
// directory and reads a link. [MemFS] resolves over its nodes, the overlay
// of package vfs/overlayfs over its merged entries, and [EvalSymlinks] over
// any file system's Lstat and ReadLink; each keeps its own model of
// entries and records what it needs along the way.
//
// # Capabilities
//
// [FS] only opens files. Each further capability is an interface with one
// method ([StatFS], [LstatFS], [ReadFileFS], [ReadDirFS], [ReadLinkFS],
// [WriteFileFS], [OpenFileFS], [MkdirFS], [MkdirAllFS], [RemoveFS],
// [RemoveAllFS], [RenameFS], [SymlinkFS], [ChmodFS], [ChtimesFS]) and a
// same-named helper function ([Stat], [Lstat], …, [Chtimes]) that checks for
// it at run time. A missing capability gives an error wrapping
// errors.ErrUnsupported; it is never a silent no-op, and never a fallback
// laxer than the OS ([Lstat] does not fall back to Stat). Where a
// faithful fallback exists it is used: [MkdirAll] and [RemoveAll] work on
// any FS with Mkdir, or Remove and Lstat. Consumers should name the narrow
// interfaces they need in their signatures; [ReadWriteFS] is the union.
//
// # Errors
//
// Errors are *fs.PathError for one path and *os.LinkError for two, with the
// os verb as Op and the caller's name as Path. The inner error is a
// sentinel for [errors.Is]: fs.ErrNotExist, fs.ErrExist, fs.ErrInvalid,
// fs.ErrPermission, errors.ErrUnsupported, or one of [ErrNotDir],
// [ErrIsDir], [ErrNotEmpty], [ErrLoop], [ErrNameTooLong]. These are the kernel's errno
// values, so errors from [MemFS] and from the OS backend (package
// vfs/osfs) match the same sentinels and print the same text.
//
// # MemFS
//
// [MemFS] keeps a tree of nodes in memory with the semantics of Linux and
// package os: no synthesized parents, Remove of a non-empty directory
// fails, ReadDir is sorted, RemoveAll never follows links, writes follow
// links (a dangling final link creates its target when the target's parent
// exists), and Rename follows rename(2). It differs from package os in one
// documented place: os.Rename refuses any existing directory as the new
// name (EEXIST) even when it is empty, where rename(2) replaces an empty
// directory; MemFS follows the kernel. Permission bits are recorded but
// not enforced, as for the superuser. Modification times come from an
// injected clock ([MemOptions]). [MemFS.Clone] copies a file system in
// constant time; the copies share nodes until one changes them.
//
// # Platforms
//
// A MemFS behaves like Linux unless [MemOptions].Platform names another
// [Platform]: [PlatformDarwin] looks names up as APFS's default
// case-insensitive variant does (case and Unicode normalization folded,
// [FoldName]), keeping the spelling each entry was created with, and
// applies macOS's PATH_MAX; [PlatformWin32] folds case as NTFS does. The
// same fixtures then run in memory as macOS and Windows users' machines
// would answer them.
//
// # Snapshots
//
// [Snapshot] records a tree as a [Tree] (explicit directories, file
// content and modes, verbatim link targets), and [Diff] compares two trees.
// [DiffFS] compares two file systems directly; between a MemFS and its
// clone it visits only the subtrees that changed since the clone. The
// write-back classification, the fixtures and the run report all use
// these types. [Copy] copies a file, a link or a tree between file
// systems under an explicit [LinkPolicy] (links verbatim, made absolute as
// Node's fs.cp makes them, or followed without ever leaving a given
// directory) and, with Merge, onto an existing destination without ever
// writing through a link in it; [CopyTree] is its default for a tree.
//
// # Durable writes
//
// [CreateTemp] creates a temporary file the way os.CreateTemp does: a
// random name, O_CREATE|O_EXCL, so a link planted at the name is never
// followed. [ReplaceFile] builds on it to replace a file atomically and
// durably (write a temporary file beside it, set its mode, sync it, rename
// it over the name, sync the directory): a failed or interrupted write,
// or a power cut, leaves the old file whole, the new one once it has
// returned, and a link at the name is replaced, never written through.
// Syncing is a capability too: an open file that implements [SyncFile]
// commits its data, a [SyncDirFS] commits a directory's entries
// ([Sync], [SyncDir]); [MkdirAllSynced] makes directories that survive a
// power cut. The OS backend fsyncs; a [MemFS] counts the syncs
// ([MemFS.Syncs]) and costs nothing.
//
// # Locks
//
// [LockFS] takes advisory exclusive locks with the semantics of flock(2):
// a lock belongs to the [Unlocker] that took it, excludes every other Lock
// of the same file (in one process or in several), and on the OS backend
// is released by the kernel when its process ends, so a crashed session
// never leaves a stale lock. [LockFile] is the lock of a durable file
// that several sessions read, change and replace: its lock file
// ([LockName]) sits beside the file, since [ReplaceFile] renames a new
// file over the old one, and exists only while it is held. A
// [SharedLockFS] also takes shared locks (LOCK_SH): many holders at once,
// which an exclusive lock excludes and waits for; a session's agent holds
// them on the durable files it writes in place, so that another session
// can tell a file in use. [MemFS] keeps
// its locks in memory with the same semantics, so a simulation of several
// sessions on one machine exercises the same exclusion.
package vfs
