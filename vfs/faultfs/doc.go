// Package faultfs wraps a [vfs] file system to inject the failures a real
// disk produces, and to count the operations that reach it.
//
// # Rules
//
// [New] takes [Rule]s, checked in order for every operation; the first
// that fires decides the error:
//
//   - [OnNth] fails the nth operation of any kind, [OnNthOf] the nth of one
//     [Kind] ("readfile", "rename", "write", ...).
//   - [When] fails every operation a predicate over [Op] selects; [Rule.If]
//     narrows any rule with a predicate.
//   - [ReadOnly] fails every mutating operation with [vfs.ErrReadOnly], like
//     a read-only mount.
//   - [WriteFailsAfter] lets a file take n bytes and then fails its Write
//     part way, the way a full disk does.
//
// A failed operation returns what the real one would: an *fs.PathError
// (an *os.LinkError for Rename and Symlink) with the os verb and the
// caller's name, wrapping the rule's sentinel, so callers test it with
// [errors.Is] against [vfs.ErrNoSpace], [vfs.ErrIO], fs.ErrPermission
// (syscall.EACCES) or [vfs.ErrReadOnly]. An injected failure leaves the
// wrapped FS untouched, except for a Write cut short (the bytes before the
// mark are written) and a Close (the wrapped file is closed anyway).
//
// # Capabilities
//
// An [FS] has every method of [vfs.ReadWriteFS] and forwards each through
// the same-named helper of package vfs, so it offers exactly what the
// wrapped FS offers: without a [vfs.SymlinkFS] underneath, Symlink fails
// with an error wrapping errors.ErrUnsupported. Faults are decided before
// forwarding, so a rule can fail even an operation the wrapped FS lacks.
//
// # Counting
//
// Every operation is logged as an [Op] with a sequence number, whether it
// mutates, and the error injected into it. [FS.Ops], [FS.Count] and
// [FS.Injected] read the log, for example to count the reads that reach a
// lower layer.
//
// # Concurrency
//
// An FS is safe for concurrent use when the wrapped FS is. Rule counters
// and the log are guarded by one lock; predicates run under it and must
// not call the FS.
package faultfs
