// Package launch runs the agent CLI of an Outfitter launch plan as a real
// process, as a [sim.Agent]: the same orchestration ([sim.Execute]) that
// runs simulated agents runs real ones, on the host file system of
// package osfs.
//
// # The process
//
// [New] returns an [Agent] that, when the engine starts it, spawns the
// plan's command with the plan's arguments. Its environment is the
// caller's ([sim.Options].Env, which the engine hands to the session: the
// package reads no global environment), with the [Command]'s variables
// and then the plan's set over it, the plan winning as upstream's spawn
// does ([Environ]). The command is looked up in the PATH of that
// environment, the one the child sees: where a name is given more than
// once, the last entry counts, as os/exec keeps it ([LookPath]).
// [Options].Commands replaces a logical command by a program, such as
// Node with a bundled script for pi's. Standard streams are inherited
// unless given.
//
// # Missing CLIs, signals and exit codes
//
// A command that is not installed yields a [*NotFoundError] whose message
// is upstream's, with the install hint of the agent's adapter
// (composite.InstallHint).
// Signals received on [Options].Signals (see [Notify]) are forwarded to the
// child; the run's exit is the child's code, or the signal that killed it
// ([ExitOf]), which [writeback.ExitCode] maps to 128+n as upstream does (SIGINT 130,
// SIGTERM 143, any other 129). Cancelling the context sends SIGTERM.
//
// # Live refresh
//
// While the child runs, the inputs of the composite's generated files
// ([sim.Session].WatchPaths) are watched with fsnotify (their directories,
// so that a file replaced by an editor is seen too); changes that come
// within [Options].Debounce of one another refresh the composite once,
// through the engine's refresh ([sim.Session].RefreshAfter), as
// upstream's watcher does. The watch ends when the child has exited.
//
// # Host paths only
//
// A real process sees real paths: the composite root must be a directory
// on the host, so [Agent.Run] refuses a session whose file system is not
// the host view of osfs ([ErrNotHost]); set [sim.Options].TempDir to a
// real temporary directory.
package launch
