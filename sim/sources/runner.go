package sources

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
)

// A Runner runs a command-line tool (git, npm) as upstream spawns it:
// with its standard streams captured, in dir when dir is not empty. It
// returns the standard output; a failure (the tool cannot start, or exits
// with a status other than 0) is an error, a [*CommandError] for an exit
// status. Run returns when ctx is done, with ctx's error.
type Runner interface {
	Run(ctx context.Context, dir, name string, args ...string) (string, error)
}

// CommandError is a tool that exited with a failure status.
type CommandError struct {
	// Name and Args are the command line.
	Name string
	Args []string
	// Stdout and Stderr are what it printed.
	Stdout, Stderr string
	// Err is the underlying error (an *exec.ExitError for Exec).
	Err error
}

// Error returns what upstream reports: the tool's standard error, else
// its standard output, else "<name> <args> failed", trimmed.
func (e *CommandError) Error() string {
	out := e.Stderr
	if out == "" {
		out = e.Stdout
	}
	if out == "" {
		out = e.Name + " " + strings.Join(e.Args, " ") + " failed"
	}
	return strings.TrimSpace(out)
}

// Unwrap returns the underlying error.
func (e *CommandError) Unwrap() error { return e.Err }

// Exec is the [Runner] of the real tools: each command is a child
// process, found as os/exec finds it (on the caller's PATH).
type Exec struct {
	// Env is the tools' environment, as "NAME=value" strings; nil means
	// the caller's process environment, as os/exec gives it.
	Env []string
}

var _ Runner = Exec{}

// Run runs the command and waits for it.
func (x Exec) Run(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = x.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return stdout.String(), ctx.Err()
	}
	if exitErr, ok := errors.AsType[*exec.ExitError](err); ok {
		return stdout.String(), &CommandError{Name: name, Args: args, Stdout: stdout.String(), Stderr: stderr.String(), Err: exitErr}
	}
	return stdout.String(), err
}
