// Package vfstest is test support for the vfs package and its users: a
// conformance suite for [vfs.ReadWriteFS] implementations, typed tree
// literals, a differential state machine against the kernel, the fixture
// of the benchmarks, and a deterministic clock. Production packages never
// import it.
//
// # Conformance
//
// [Run] runs one subtest per check of the vfs contract, each on a fresh
// file system, and expects Linux's answer (with package os's error types)
// to every one of them: symbolic links (relative, absolute, chained, in the
// middle of a path, dangling, looping after [vfs.MaxSymlinkHops] hops,
// written through), POSIX rename and remove semantics, Linux's limits on
// the length of names and link targets, errors that wrap
// the vfs sentinels inside *fs.PathError or *os.LinkError, what
// vfs.CreateTemp and vfs.ReplaceFile need (O_CREATE|O_EXCL never follows a
// final link, Rename replaces a link rather than writing through it, the
// temporary files of a killed ReplaceFile are removed, directories and
// files sync), io/fs
// views that pass testing/fstest, and concurrent use. [Names] lists the
// checks; [RunSkipping] skips some of them, each with a reason, for a file
// system that cannot express what they need.
//
// # Tree literals
//
// A [Tree] maps relative paths to nodes made with [File], [Dir] and
// [Link]; [Build] creates it below a root of any file system with the
// needed capabilities, and [Tree.Entries] gives the [vfs.Tree] that
// [vfs.Snapshot] must then report. [WriteFiles] adds files given as text
// to a tree that exists, [Snapshot] takes a snapshot that must succeed,
// [WantUnchanged] checks that a tree is still as an earlier snapshot
// recorded it, and [EntryNames] gives the names of a listing. Helpers take
// a [TB], which both *testing.T and *rapid.T satisfy.
//
// # Differential tests against the kernel
//
// [KernelDifferential] drives a file system under test and a real
// directory with the same random operations (rapid's state machine) and
// requires the kernel's error classes, os's error types and equal trees
// after every step. A [DiffConfig] says how to make the system under test,
// whether it starts empty or over a lower directory holding a random tree,
// and what else it must satisfy. Its parts serve other differential tests
// too: [HostDir] maps names and link targets between the two sides,
// [ErrClass] compares errors by errno, [Resolving] and [EntryStrings]
// reduce trees and listings to what both sides must agree on, and
// [ProcessUmask] reads the umask the oracle obeys.
//
// # Differential tests against a case-insensitive file system
//
// [CaseDifferential] drives a folding file system (a vfs.MemFS with
// vfs.PlatformDarwin) and a real case-insensitive one with the same random
// operations on names that differ in case, and requires the same error
// classes and the same trees, stored spellings included. [MountExFAT]
// makes the real one: an exFAT image on a loop device mounted with
// exfat-fuse, or a loud skip saying what is missing.
//
// # Power cuts
//
// [PowerSweep] runs an operation once per point of the run, stopping it
// there ([faultfs.CrashAfter]) with the power-cut model of package
// faultfs on ([faultfs.FS.TrackDurability]), and checks every disk state
// the model allows: each entry outside the temporary trees is its old
// self or its new self, whole, nothing outside what the run may change
// changed, and once the run returned all of it is on the disk. Its
// [PowerReport] says how many points and disks were checked and what the
// run changed, for the preconditions of the tests that use it.
//
// # Benchmarks
//
// [BenchFixture] is the fixture of the vfs spec's workloads (40 files in
// 12 directories under /fx, and the targets of 10 relative links), with one
// method per workload; backends are driven through a [BenchFS], which
// [BenchVFS] makes of any [vfs.ReadWriteFS] and [BenchWalk] helps write
// for other APIs.
//
// # Time
//
// [Clock] is a goroutine-safe fake clock for vfs.MemOptions.Clock that
// advances one second per reading; [FixedClock] starts one on a fixed
// date. [NewMem] and [MemWith] make the MemFS of tests with it, empty or
// holding a [Tree].
package vfstest
