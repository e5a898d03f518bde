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
// # Power cuts
//
// A process that dies keeps what it wrote; a machine that loses power
// keeps what reached the disk. [FS.TrackDurability] starts a model of the
// disk beside the visible tree: a file's data and attributes reach it
// when the file is synced (a "sync" operation, [vfs.SyncFile]), a new,
// renamed or removed name when its directory is synced ([FS.SyncDir], a
// "syncdir"). With [OrderJournal] the disk may also hold any prefix of
// the metadata changes not yet synced, as ext4 and XFS commit their
// journal on their own, but never unsynced data: a file renamed over
// another before its data was synced can then come back empty.
// [FS.PowerCut] returns the tree the disk holds if the power is cut now
// with nothing but the syncs committed, [FS.PowerCuts] every tree the
// ordering allows. Combined with [CrashAfter], which stops the run at an
// operation, it lets a test cut the power at every point of a durable
// write (vfs/vfstest's PowerSweep does so).
//
// # Capabilities
//
// An [FS] has every method of [vfs.ReadWriteFS] and [vfs.SyncDirFS] (its
// files have Sync) and forwards each through the same-named helper of
// package vfs, so it offers exactly what the
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
