// Package writeback decides what happens to the changes an agent made to
// its composite profile, after it exits and while it runs.
//
// The rule it enforces: nothing in a composite is copied or merged back
// generically. Durable writes happen only through declared state paths
// materialized as symbolic links (the agent writes through them), and in
// the few explicit cases of a prompt answer: [Persist] copies one
// declared path to its source and [Record] writes
// state_persistence.<key>: symlink into the profile file. [Handle] reports
// each of them in [Report.Writes].
//
// # Durable writes
//
// Both durable writes are atomic and never follow a link that the
// declared path does not itself name. [Persist] and [Record] put each file
// in place with [vfs.ReplaceFile]: the content goes to a temporary file
// with a random name, created exclusively beside the destination (a link
// planted at any name there is never opened), and is renamed over it, so
// a full disk or an interruption leaves the old file or the new one,
// whole; the temporary file is removed on every failure that still allows
// it. Persist walks the durable destination with Lstat and refuses, with
// a [*LinkRefusedError], a link where it has a directory to copy; a link
// where a file goes is replaced by the file. A profile file that is a
// link stays a link: Record replaces the file it leads to, keeping its
// mode. Both are durable too: ReplaceFile syncs the file before its rename
// and the directory after, and Persist syncs each directory and link it
// makes into its parent, so a power cut leaves each durable file old or
// new, whole, and the new one once the call returned.
//
// # Snapshots and classification
//
// [Snapshot] records a composite as a [vfs.Tree] (links by target, never
// descended; discard paths skipped); the baseline is one taken after the
// composite is written and before the launch-plan files are. After the
// run, [Changes] lists the paths whose type, content or link target
// differ, and [Classify] turns them into sorted [Issue] values. [Detect]
// does the three in one call. All of them take plain values, so a caller
// can classify trees it did not read from a file system.
//
// Issues are sorted with [Compare], an implementation of the order of
// JavaScript's localeCompare (ICU root collation) for paths.
//
// # Handling issues
//
// [Handle] turns issues into the exact user-facing warnings, asks a
// [Prompter] about prompt paths in interactive sessions, fails with a
// [*StateWriteError] at the first error issue and, in strict mode, with a
// [*composite.StrictError]. [ExitCode] maps the agent's exit and the run's
// error to the process exit code.
//
// # Live refresh
//
// [Refresh] rewrites generated files while the agent runs and updates the
// baseline. Unlike upstream, it never writes through a symbolic link: a
// generated file replaces the link and its path becomes discard, so a
// durable source cannot be overwritten by generated content. A refresh
// that fails, in a write or in fingerprinting what it wrote, is rolled
// back, so the caller's baseline still describes the composite and the
// agent is not blamed for the refresh's writes.
//
// # Deviations from upstream
//
// Two durable writes differ from upstream's on purpose (the README lists
// every deviation with the number of oracle worlds it shows in):
//
//   - The "always" answer edits one line. [Record] sets
//     state_persistence.<key>: symlink by the smallest edit of the text
//     (the value replaced where it stands, or one line added) and keeps
//     every other byte of the profile file; it replaces the file
//     atomically. Upstream parses the file with the JavaScript yaml library
//     and writes back the whole document as that library prints it: flow
//     collections re-spaced ({A: "x"} becomes { A: "x" }), quoting
//     normalized, long strings folded at 80 columns. The profile is the
//     user's file, often under version control; an answer about one state
//     path should not reformat it, and reproducing another library's
//     printer would only reproduce that damage.
//   - A live refresh never writes through a symbolic link (above).
//
// # Concurrency
//
// The functions hold no state; callers serialize access to the file
// system and to the trees they pass.
package writeback
