// Package proptest is test support: generators of random Outfitter worlds
// and, in its tests, the properties that prove the engine never copies
// composite state back. It is never imported by production packages.
//
// # Worlds
//
// A [World] is a plain value: settings at every layer (user, project,
// project-local, cached remote settings, cache_directory), profile
// definitions in four locations (flat and directory layouts, only/except
// filters, inheritance with diamonds, cycles and missing parents),
// profile-owned cli_specific state, native and cache state, and the runs
// of one scenario (agent, profile, --strict, interactive answers, agent
// ops). [World.Txtar] and [World.Scenario] render it for the fixtures
// package, so a counterexample is a replayable fixture.
//
// # Generators
//
// [WorldGen] draws whole worlds from tiny alphabets ([IDs], [AgentPaths])
// so that collisions are common and shrinking is quick; [SettingsGen],
// [ProfileGen], [RunGen] and [OpGen] draw the parts. Every draw is
// labelled.
//
// [UpstreamWorldGen] draws the worlds of the differential campaign against
// upstream Outfitter: the same settings and profiles plus everything else
// upstream reads (catalog skills, DeepWork jobs, prompt includes,
// templates, keybindings, MCP fragments, extensions, both spellings of
// the aliased controls, unknown controls), with runs made only of the ops
// the oracle's capture driver plays.
//
// # The oracle
//
// [CompareCapture] and [CompareRun] compare a capture of upstream's run of
// a world with vfsim's report of the same world, and [Explain] names the
// upstream rule behind each divergence (the rules, with the upstream source
// that implements each, are listed by [Rules] and [RuleInfo]). A corpus
// world is one txtar archive ([FormatCorpusWorld], [ParseCorpusWorld]):
// the fixture, the scenario and the compacted capture. The command
// proptest/cmd/oracle exports worlds, compares captures and packs the
// corpus that sim's TestOracleCorpus replays against its ledger
// ([ReadLedger]).
//
// # Concurrent sessions
//
// [RunSessions] runs several sessions (sim.Execute calls, say) on one
// file system with a deterministic scheduler: every call of a session's
// [SchedFS] is a step, one session moves at a time, and a [Strategy]
// chooses which: [Switch] enumerates the schedules with at most one
// preemption (bounded exhaustive search), [NewRandom] draws uniformly,
// [NewPCT] draws priority schedules of a given depth, and [NewReplay]
// follows a printed [Schedule] ("0*12 1*40 0*7", [ParseSchedule]). A
// session that waits for a lock another holds does not move until the
// lock is released, and a run where every live session waits is
// reported as a deadlock. TestPropConcurrentSessions checks 10,000
// schedules of two or three sessions on one home (1,000 under -race;
// -sched.n sets the count, -sched.replay replays a failure).
//
// # Properties
//
// The TestProp… functions of the package's tests (go test -run Prop) check
// no generic copy-back, precedence of state sources, classification of
// changes, --strict, refresh, determinism and agreement of the memory and
// OS backends against models written from the specs. A failure writes the
// shrunk world with [WriteCounterexample] under [CounterexampleDir] and
// prints the [ReplayCommand].
package proptest
