//go:build !race

package proptest_test

// raceEnabled reports a -race build, where every step of a property costs
// about ten times as much.
const raceEnabled = false
