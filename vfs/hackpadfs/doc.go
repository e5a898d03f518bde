// Package hackpadfs presents a [vfs] file system as a
// github.com/hack-pad/hackpadfs file system, so hackpadfs code and its
// conformance suite (hackpadfs/fstest) can run on a [vfs.MemFS] or on the
// OS backend.
//
// # Names
//
// [New] takes the FS and an absolute directory. hackpadfs names are
// unrooted io/fs names ("a/b.txt", "." for the directory itself) and map
// below that directory; a name that fs.ValidPath rejects fails with an
// *fs.PathError wrapping hackpadfs.ErrInvalid (EINVAL). Errors from the
// wrapped FS come back with their names translated to hackpadfs names, and
// two-name errors as *hackpadfs.LinkError, as hackpadfs expects.
//
// # Capabilities
//
// An [FS] implements hackpadfs's OpenFileFS, MkdirFS, MkdirAllFS, RemoveFS,
// RemoveAllFS, RenameFS, StatFS, LstatFS, SymlinkFS, ChmodFS, ChtimesFS,
// ReadDirFS, ReadFileFS and WriteFileFS. Open files offer ReadAt, WriteAt,
// Seek, ReadDir, Sync, Truncate and Chmod when the vfs file has them, and
// otherwise fail with hackpadfs.ErrNotImplemented (ENOSYS), which hackpadfs
// callers treat as "not supported". Symlink stores its target verbatim: an
// absolute target resolves from the root of the wrapped FS, not from the
// directory given to New.
//
// # Semantics
//
// The semantics are the wrapped FS's. In particular Rename follows
// rename(2): a directory may replace an empty directory or itself, where
// package os (and two hackpadfs fstest cases) expect EEXIST.
//
// # Concurrency
//
// The adapter holds no mutable state; it is as safe for concurrent use as
// the wrapped FS.
package hackpadfs
