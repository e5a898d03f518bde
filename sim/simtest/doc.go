// Package simtest runs vfsim scenario fixtures from any Go test suite, as
// testscript runs script files: one call in a test function, a subtest
// per fixture and per scenario, and a flag that rewrites the expected
// files.
//
//	func TestFixtures(t *testing.T) {
//		simtest.Run(t, "testdata")
//	}
//
// Every fixture under the directory (fixture directories with README.md,
// home/ and project/, and .txtar archives) becomes a subtest named after
// it, and every scenario of its scenarios/*.json a subtest of that named
// after the scenario, so that go test -run 'TestFixtures/my_fixture/my-scenario'
// runs one scenario. A scenario fails with what vfsim check prints: the
// run's error first, then each expectation that did not hold, naming the
// expected file it comes from, with a readable difference.
//
// go test -vfsim.update writes the expected files that do not match, as
// vfsim update does: a summary or warnings file that a scenario names and
// that is missing or empty is created, one that differs is rewritten, one
// that matches is left alone. Review the change before committing it.
//
// # Options
//
// [WithAgent] replaces the scripted agent of every run, [WithOps]
// interprets the suite's own ops (kinds starting with "x_"), [WithEnv]
// and [WithClock] set the environment and the clock, [WithAssets] adds
// files to Outfitter's own assets, and [WithReport] inspects each
// scenario's outcome. Without options the runs are deterministic: the
// composite roots' random suffixes are seeded from the scenario's name and
// the clock is the fixtures' load time.
//
// # Platforms
//
// [RunMatrix] runs the fixtures once per platform (linux, darwin, win32),
// as upstream's CI runs its suite on each operating system: each scenario
// on the fixture as that platform's file system holds it, in memory, with
// the engine acting as upstream does there. [WithPlatform] runs [Run] as
// one platform. A scenario whose expectations are one platform's names it
// in its "platform" field.
//
// # The same code as vfsim check
//
// Run loads fixtures with fixtures.Find and fixtures.Load, runs each
// scenario with sim.RunScenario, describes a failure with
// sim.Outcome.Failure and updates with sim.UpdateExpected: the functions
// vfsim check and vfsim update call, so that the two never disagree.
//
// Package simtest is test support: production code never imports it.
package simtest
