// Package sim is vfsim's orchestrator: it runs Outfitter's whole pipeline
// (resolve → composite → agent → write-back classification) on any
// [vfs.ReadWriteFS], and runs scenario files on in-memory fixtures with
// run reports.
//
// # One run
//
// [Execute] is one `outfitter run`: it resolves the settings and the
// profile ([resolve.Load]), plans, materializes and snapshots the
// composite profile (package composite), builds the launch plan, starts
// the [Agent], then detects, classifies and handles every change the agent
// made (package writeback), in upstream's order. Agents are Go values:
// [Script] plays the ops of a scenario file, and an embedding program can
// launch a real process. Clocks, random sources, prompters and assets are
// injected through [Options]; nothing reads the process environment.
// While the agent runs, the run holds a shared lock ([vfs.SharedLockFS])
// of each durable file a state link of the composite leads to: another
// session's blank-source reset ([composite.EnsureSource]) leaves a file
// in use as it is, so it never replaces a file the agent is writing.
// The locks are released when the agent exits, before the write-back.
//
// # Events, prompts and strict mode
//
// What upstream prints while a run happens reaches [Options].Observer as
// it happens ([Event]): notices, warnings and messages before the launch
// (the --debug notice comes as soon as the composite root exists, also
// when a strict failure follows), the [LaunchSummary] just before the
// agent starts, refreshes while it runs,
// confirmations and state warnings after it exits. Prompts about prompt
// paths go to [Options].Prompter in an interactive run, with the run's
// context. Under [Spec].Strict a warning fails the run with a
// *composite.StrictError; the other failures are typed too
// (*resolve.ResolveError, *launch.NotFoundError, *sources.FetchError,
// *writeback.StateWriteError, …), and [Result].ExitCode is upstream's.
//
// # What a run fetches, and first-run onboarding
//
// With [Options].Tools (package sources runs git and npm), a run caches
// the git checkouts its launch plan names before the agent starts, and a
// first-run onboarding (no settings yet, an interactive pi session) syncs
// the default profiles and starts the bootstrap profile
// ([BootstrapProfileID]).
//
// # The same run, step by step
//
// Execute is made of the exported steps of packages resolve, composite,
// sources and writeback; Example (StepByStep) runs them one by one.
//
// # Scenarios
//
// [RunScenario] mounts a loaded fixture (package fixtures) in a private
// clone of its memory file system, applies the scenario's before ops,
// executes each run in order on the same tree, evaluates the after checks
// and compares every run with its expectations. The [Report] is the run report of the
// fixtures contract: launch plan, composite at launch, warnings, error and
// the durable difference of the fixture tree, deterministic for the same
// inputs. [ScenarioOptions].Mount runs the same scenario on another
// backend, such as a copy of the fixture on the OS.
//
// # Deviations from upstream
//
// vfsim differs from upstream on purpose in a few places, each for a
// reason; the README lists them with the number of oracle worlds each
// shows in, and the oracle campaign counts their divergences as
// explained (proptest's rules marked as deviations):
//
//   - A live refresh never writes a generated file through a symbolic
//     link: the link is replaced and the path becomes discard for the rest
//     of the run, so a refresh cannot overwrite a durable source
//     (upstream's hazard; package writeback).
//   - A relative claude session_directory is created against
//     [Options].Cwd, the project directory by default, where upstream used
//     the process working directory, which depends on where the command
//     was started.
//   - A linked catalog skill with files to copy is copied, never written
//     through into its checkout (package composite).
//   - The "always" prompt answer edits one line of the profile file and
//     keeps the rest byte for byte, where upstream re-serializes the whole
//     document (package writeback).
//   - A SKILL.md frontmatter YAML error is worded by vfsim's YAML parser
//     after "YAMLParseError: "; the run fails at the same point naming the
//     same file (package composite).
package sim
