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
//   - [ShortWrite] lets every file written take n bytes and then fails the
//     write part way, the way a full disk does: a Write on a file opened
//     with OpenFile, or a whole WriteFile (which then leaves the file
//     created or truncated, holding the first n bytes). [WriteFailsAfter]
//     is the same for one file name; [Rule.If] narrows ShortWrite to any
//     selection.
//   - [CrashAfter] lets the first n operations run and fails every later
//     one, modelling a process that dies after its nth operation; the
//     write it interrupts is torn (a WriteFile leaves its file truncated to
//     a chosen prefix of the data). Running a sequence of operations once
//     for every n checks that each crash point leaves durable data whole.
//
// A failed operation returns what the real one would: an *fs.PathError
// (an *os.LinkError for Rename and Symlink) with the os verb and the
// caller's name, wrapping the rule's sentinel, so callers test it with
// [errors.Is] against [vfs.ErrNoSpace], [vfs.ErrIO], fs.ErrPermission
// (syscall.EACCES) or [vfs.ErrReadOnly]; a write cut short or torn fails
// with the verb "write", as os.WriteFile does. An injected failure leaves
// the wrapped FS untouched, except for a write cut short or torn (the
// bytes before the cut are written; a WriteFile has created or truncated
// its file) and a Close (the wrapped file is closed anyway).
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
