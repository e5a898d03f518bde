package sources

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
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
//
// The environment is scrubbed of git's repository and per-command
// configuration variables ([ScrubGitEnv]): a GIT_DIR or GIT_WORK_TREE
// inherited from the caller would redirect every git -C <cache> to
// another repository, and GIT_CONFIG_PARAMETERS or GIT_CONFIG_COUNT
// would set options no command asked for.
type Exec struct {
	// Env is the tools' environment, as "NAME=value" strings; nil means
	// the caller's process environment. Either is scrubbed.
	Env []string
}

// gitRepositoryEnv are the variables [ScrubGitEnv] drops by name; it also
// drops every GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>.
var gitRepositoryEnv = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
	"GIT_PREFIX", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
	"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_REPLACE_REF_BASE", "GIT_SHALLOW_FILE", "GIT_GRAFT_FILE", "GIT_QUARANTINE_PATH",
}

// ScrubGitEnv returns env without the variables that choose git's
// repository, work tree or object store (GIT_DIR, GIT_WORK_TREE,
// GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_COMMON_DIR, …), its
// discovery (GIT_CEILING_DIRECTORIES, GIT_DISCOVERY_ACROSS_FILESYSTEM),
// or configuration for one command (GIT_CONFIG, GIT_CONFIG_PARAMETERS,
// GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>). What names
// the user's own configuration files (HOME, GIT_CONFIG_GLOBAL,
// GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM), credentials, transports and
// identity is kept. env is not modified.
func ScrubGitEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(gitRepositoryEnv, name) || strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

var _ Runner = Exec{}

// Run runs the command and waits for it.
func (x Exec) Run(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	env := x.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = ScrubGitEnv(env)
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
