// Command vfsim runs Outfitter scenarios on in-memory fixtures.
//
// Usage:
//
//	vfsim check [--scenarios DIR] [DIR ...]   run every scenario, one line per run
//	vfsim run --fixture DIR|FILE.txtar [--scenario FILE] [--json] [--overlay]
//	vfsim update [DIR ...]                    rewrite expected files from the engine
//	vfsim list [DIR ...]                      list fixtures and scenarios
//	vfsim dry-run [--home DIR] [--project DIR] [--agent ID] [--profile ID] [--strict] [-- args]
//
// Without DIR, check and list use the fixture catalog embedded in the
// binary, and update rewrites ./fixtures/catalog. A DIR is a fixture (it
// has README.md, home/ and project/) or a folder of fixtures. With
// --scenarios, the scenario files of DIR (matched to fixtures by their
// "fixture" field) are run instead of the fixtures' own scenarios/.
// run --overlay runs on a copy-on-write overlay of the fixture directory
// instead of a copy in memory. dry-run resolves and assembles a real home
// and project (default: $HOME and the working directory) through an
// overlay and prints the launch, the composite and every durable change a
// real run would make before the agent starts, writing nothing to disk.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
