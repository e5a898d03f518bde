package writeback

import (
	"fmt"

	"github.com/outfitter-go/vfsim/composite"
)

// Message returns the user-facing text of the issue for the named agent
// (the adapter id), exactly as upstream prints it.
func (i Issue) Message(agent string) string {
	switch {
	case i.Unknown:
		return fmt.Sprintf("%s wrote undeclared composite profile state '%s' and it was not persisted.", agent, i.Path)
	case i.Strategy == composite.StrategySymlink:
		return fmt.Sprintf("%s replaced symlinked state path '%s' and the change was not persisted.", agent, i.Path)
	}
	return fmt.Sprintf("%s wrote '%s' with state_persistence '%s' and it was not persisted.", agent, i.Path, i.Strategy)
}

// StateWriteError is the failure of a run caused by a change to a path
// whose strategy is error. Its message is the issue's [Issue.Message].
type StateWriteError struct {
	// Agent is the adapter id.
	Agent string
	// Issue is the first error issue in sorted order.
	Issue Issue
}

// Error returns the issue's message, as upstream prints it.
func (e *StateWriteError) Error() string { return e.Issue.Message(e.Agent) }

// Exit describes how the agent process ended.
type Exit struct {
	// Exited reports that the process exited on its own with Code.
	Exited bool
	// Code is the exit code when Exited is set.
	Code int
	// Signal is the name of the signal that killed the process ("SIGINT"),
	// empty when none did.
	Signal string
}

// ExitCode returns the exit code of the run: 1 when the run failed (err
// is not nil: validation, strict mode, an error strategy), else the
// agent's own code, 128+n when a signal killed it (SIGINT 130, SIGTERM
// 143, any other signal 129, as upstream maps it), and 1 when neither is
// known.
func ExitCode(e Exit, err error) int {
	switch {
	case err != nil:
		return 1
	case e.Exited:
		return e.Code
	case e.Signal == "SIGINT":
		return 128 + 2
	case e.Signal == "SIGTERM":
		return 128 + 15
	case e.Signal != "":
		return 128 + 1
	}
	return 1
}
