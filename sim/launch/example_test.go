package launch_test

import (
	"fmt"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/sim/launch"
)

// The child's environment is the caller's with the command's defaults and
// the plan's variables set over it; the plan wins.
func ExampleEnviron() {
	caller := []string{"HOME=/home/ada", "PI_SKIP_VERSION_CHECK=0", "PI_CODING_AGENT_DIR=/stale"}
	defaults := []composite.EnvVar{{Name: "PI_SKIP_VERSION_CHECK", Value: "1"}}
	plan := []composite.EnvVar{{Name: "PI_CODING_AGENT_DIR", Value: "/tmp/outfitter-solo-pi-1a2b3c"}}
	for _, kv := range launch.Environ(caller, defaults, plan) {
		fmt.Println(kv)
	}
	// Output:
	// HOME=/home/ada
	// PI_SKIP_VERSION_CHECK=1
	// PI_CODING_AGENT_DIR=/tmp/outfitter-solo-pi-1a2b3c
}

// A missing CLI is reported with upstream's message and install hint.
func ExampleNotFoundError() {
	err := &launch.NotFoundError{Agent: "claude", Command: "claude", Hint: composite.InstallHint(composite.Claude{})}
	fmt.Println(err)
	// Output:
	// Could not launch the 'claude' agent CLI: 'claude' is not installed or not on your PATH. Install Claude Code from https://claude.com/claude-code, then rerun with `--agent claude`.
}
