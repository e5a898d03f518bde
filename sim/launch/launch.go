package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// Options configures an [Agent]. The zero value runs the plan's command,
// looked up in the PATH of the session's environment, with the caller's
// standard streams and no signal forwarding.
type Options struct {
	// Commands maps a logical command of the plan (the agent CLI's name)
	// to the program that runs it. A command not in the map is looked up in PATH
	// by its own name.
	Commands map[string]Command
	// Dir is the child's working directory; "" means the caller's.
	Dir string
	// Stdin, Stdout and Stderr are the child's standard streams; nil means
	// the caller's own (os.Stdin, os.Stdout, os.Stderr), which the child
	// then inherits as file descriptors, terminal included.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Signals, when not nil, delivers the signals to forward: every signal
	// received while the child runs is sent to it. [Notify] makes such a
	// channel for SIGINT, SIGTERM and SIGHUP.
	Signals <-chan os.Signal
	// NoWatch turns off the live refresh: by default the inputs of the
	// composite's generated files are watched while the child runs, and a
	// change refreshes the composite ([sim.Session].RefreshAfter), as
	// upstream's watcher does.
	NoWatch bool
	// Debounce is how long the watch waits for changes to stop before it
	// refreshes; 0 means [DefaultDebounce].
	Debounce time.Duration
}

// Command is the program that runs a logical command, for example Node
// with a bundled script for pi's, as upstream launches it.
type Command struct {
	// Path is the program: an absolute path, or a name looked up in PATH.
	Path string
	// Args come before the plan's arguments.
	Args []string
	// Env holds variables set over the caller's environment and under the
	// plan's, like upstream's PI_SKIP_VERSION_CHECK=1 for bundled pi.
	Env []composite.EnvVar
}

// Agent is a [sim.Agent] that runs the agent CLI of the launch plan as a
// real process on the host: the session's composite root must be a real
// directory, so the session's file system must be the host view of
// package osfs (possibly wrapped by a file system with an Inner method,
// such as package faultfs). The zero value is not usable; make one with
// [New].
type Agent struct {
	opts Options
}

var _ sim.Agent = (*Agent)(nil)

// New returns an agent that launches processes with opts.
func New(opts Options) *Agent { return &Agent{opts: opts} }

// ErrNotHost reports a session whose file system is not the host's, so
// that a real process could not see the composite.
var ErrNotHost = errors.New("the composite profile is not on the host file system")

// NotFoundError reports an agent CLI that is not installed: the command is
// not on PATH, or the program does not exist. Its message is upstream's,
// followed by the install hint when the agent has one.
type NotFoundError struct {
	// Agent is the agent's id.
	Agent string
	// Command is the program that was not found.
	Command string
	// Hint is the agent's install hint (see composite.InstallHint), ""
	// when it has none.
	Hint string
	// Err is the underlying error, when there is one.
	Err error
}

// Error returns upstream's message and the install hint, on one line.
func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("Could not launch the '%s' agent CLI: '%s' is not installed or not on your PATH.", e.Agent, e.Command)
	if e.Hint != "" {
		msg += " " + e.Hint
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *NotFoundError) Unwrap() error { return e.Err }

// notFound returns the error of a session whose command cannot be found.
func notFound(s *sim.Session, command string, err error) *NotFoundError {
	e := &NotFoundError{Agent: s.AgentID, Command: command, Err: err}
	if s.Adapter != nil {
		e.Hint = composite.InstallHint(s.Adapter)
	}
	return e
}

// Run starts the plan's command with the plan's arguments and environment
// and waits for it, forwarding signals. The exit is the child's code, or
// the signal that killed it. A command that cannot be found yields a
// [*NotFoundError]; one to look up in PATH when the session's environment
// is nil (sim.Options.Env left out) a *resolve.OptionError naming it; a cancelled ctx sends SIGTERM to the child and, once
// it has ended, returns ctx's error with the exit.
func (a *Agent) Run(ctx context.Context, s *sim.Session) (writeback.Exit, error) {
	if !hostView(s.FS) {
		return writeback.Exit{}, fmt.Errorf("launch %s: %w", s.Plan.Command, ErrNotHost)
	}
	cmd, err := a.command(s)
	if err != nil {
		return writeback.Exit{}, err
	}
	// The watch starts before the agent does, so that a change the agent
	// makes at once is not lost.
	stopWatch := a.watch(s)
	defer stopWatch()
	if err := cmd.Start(); err != nil {
		if errors.Is(err, fs.ErrNotExist) && !missingDir(cmd.Dir) {
			return writeback.Exit{}, notFound(s, cmd.Path, err)
		}
		return writeback.Exit{}, fmt.Errorf("launch %s: %w", s.Plan.Command, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var cancelled error
	ctxDone := ctx.Done()
	for {
		select {
		case sig := <-a.opts.Signals:
			// A child that already exited cannot be signalled; Wait tells.
			_ = cmd.Process.Signal(sig)
		case <-ctxDone:
			cancelled, ctxDone = ctx.Err(), nil
			_ = cmd.Process.Signal(syscall.SIGTERM)
		case err := <-done:
			exit, ok := ExitOf(cmd.ProcessState)
			if !ok {
				return exit, fmt.Errorf("wait for %s: %w", s.Plan.Command, err)
			}
			return exit, cancelled
		}
	}
}

// missingDir reports whether dir is set and cannot be used, so that a
// failed start is the working directory's fault, not the program's.
func missingDir(dir string) bool {
	if dir == "" {
		return false
	}
	fi, err := os.Stat(dir)
	return err != nil || !fi.IsDir()
}

// command builds the process of a session's plan.
func (a *Agent) command(s *sim.Session) (*exec.Cmd, error) {
	plan := s.Plan
	c, ok := a.opts.Commands[plan.Command]
	if !ok {
		c = Command{Path: plan.Command}
	}
	env := Environ(s.Env, c.Env, plan.Env)
	prog := c.Path
	if !strings.Contains(prog, "/") {
		pathList, _ := composite.LookupEnv(env, "PATH")
		if pathList == "" && s.Env == nil {
			// nil is an environment left out (os.Environ() is never
			// nil); an empty one is a process's, and upstream's message
			// fits it.
			return nil, &resolve.OptionError{
				Option:  "sim.Options.Env",
				Problem: fmt.Sprintf("is nil, so there is no PATH to find the agent CLI '%s' in", prog),
				Fix:     "give the environment the agent inherits, os.Environ() for the process's own (or the program's path in launch.Options.Commands)",
			}
		}
		found, err := LookPath(prog, pathList)
		if err != nil {
			return nil, notFound(s, prog, err)
		}
		prog = found
	}
	cmd := &exec.Cmd{
		Path:   prog,
		Args:   append(append([]string{prog}, c.Args...), plan.Args...),
		Env:    env,
		Dir:    a.opts.Dir,
		Stdin:  or[io.Reader](a.opts.Stdin, os.Stdin),
		Stdout: or[io.Writer](a.opts.Stdout, os.Stdout),
		Stderr: or[io.Writer](a.opts.Stderr, os.Stderr),
	}
	return cmd, nil
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Environ returns the environment of a child: base, a process environment
// of "NAME=value" strings ([sim.Session].Env, typically os.Environ()), with
// each layer's variables set over it in order, so that a later layer wins.
// A name that base holds more than once keeps its last value, at the
// position of its last entry, as os/exec passes it to the child; so the
// result holds each name once and is what the child sees, and the PATH a
// command is looked up in is the child's. A layer's new names are appended
// in layer order. Entries of base without "=" are kept as they are.
func Environ(base []string, layers ...[]composite.EnvVar) []string {
	last := make(map[string]int, len(base))
	for i, kv := range base {
		if name, _, ok := strings.Cut(kv, "="); ok {
			last[name] = i
		}
	}
	var out []string
	index := make(map[string]int, len(base))
	for i, kv := range base {
		name, _, ok := strings.Cut(kv, "=")
		if ok && last[name] != i {
			continue
		}
		if ok {
			index[name] = len(out)
		}
		out = append(out, kv)
	}
	for _, layer := range layers {
		for _, v := range layer {
			kv := v.Name + "=" + v.Value
			if i, ok := index[v.Name]; ok {
				out[i] = kv
				continue
			}
			index[v.Name] = len(out)
			out = append(out, kv)
		}
	}
	return out
}

// LookPath searches the directories of pathList (a PATH value) for an
// executable regular file named file and returns its path. Empty and
// relative directories are skipped, as os/exec refuses results relative
// to the working directory. The error wraps [exec.ErrNotFound].
func LookPath(file, pathList string) (string, error) {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, file)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

// hostView reports whether fsys is, or wraps, the host view of osfs.
func hostView(fsys vfs.FS) bool {
	for {
		switch f := fsys.(type) {
		case *osfs.FS:
			return f.Root() == ""
		case interface{ Inner() vfs.FS }:
			fsys = f.Inner()
		default:
			return false
		}
	}
}
