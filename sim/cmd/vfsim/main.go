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

	_ "github.com/outfitter-go/vfsim/sim/cmd/vfsim/internal/startup" // the collector's target; the catalog's preload
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
