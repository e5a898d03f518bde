// Command vfsim runs Outfitter scenarios on in-memory fixtures.
//
// Usage:
//
//	vfsim check [--scenarios DIR] [FIXTURE|DIR ...]   run every scenario, one line each
//	vfsim run --fixture DIR|FILE.txtar [--scenario NAME|FILE] [--json] [--overlay]
//	vfsim update [FIXTURE|DIR ...]                    create or rewrite failing expected files
//	vfsim list [FIXTURE|DIR ...]                      list fixtures and scenarios
//	vfsim dry-run [--home DIR] [--project DIR] [--agent ID] [--profile ID] [--strict] [-- ARGS]
//	vfsim exec [--home DIR] [--project DIR] [--agent ID] [--profile ID] [--strict] [--debug] [-- ARGS]
//
// A FIXTURE is a fixture directory (README.md, home/ and project/) or a
// .txtar archive; a DIR is a folder of them. Without one, check and list
// use the fixture catalog built into the binary, and update works on
// ./fixtures/catalog. 'vfsim <command> --help' describes each command and
// every flag.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	if p, ok := gcPercent(os.Getenv("GOGC")); ok {
		debug.SetGCPercent(p)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// startGCPercent is the garbage collector's target percentage for a run of
// vfsim: a command lives for tens of milliseconds and allocates a few
// megabytes, which the default of 100 (a 4 MB minimum heap) collects three
// or four times while every other thread runs scenarios. 400 (a 16 MB
// minimum heap, five times the live heap beyond it) lets vfsim check on the
// catalog finish without a collection and still bounds the heap of a large
// run.
const startGCPercent = 400

// gcPercent returns the percentage to set at start, given the GOGC
// environment variable: none when the user gave GOGC a value, which
// stands.
func gcPercent(gogc string) (int, bool) {
	if gogc != "" {
		return 0, false
	}
	return startGCPercent, true
}
