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
// # Properties
//
// The TestProp… functions of the package's tests (go test -run Prop) check
// no generic copy-back, precedence of state sources, classification of
// changes, --strict, refresh, determinism and agreement of the memory and
// OS backends against models written from the specs. A failure writes the
// shrunk world with [WriteCounterexample] under [CounterexampleDir] and
// prints the [ReplayCommand].
package proptest
