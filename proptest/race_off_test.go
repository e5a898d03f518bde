//go:build !race

package proptest_test

// raceEnabled reports a -race build, where rapid's shrinking often runs
// out of its time budget before a counterexample is minimal.
const raceEnabled = false
