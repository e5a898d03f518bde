package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/launch"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/writeback"
)

func execCommand() *command {
	return &command{
		name:     "exec",
		synopsis: "[--home DIR] [--project DIR] [--agent ID] [--profile ID] [--strict] [--debug] [-- AGENT-ARGS ...]",
		summary:  "run the real agent CLI with the composite profile, as outfitter run does",
		about: `
Exec is Outfitter's run on the real machine: it resolves the profile of
the home and project, assembles the composite profile in the temporary
directory, prints the warnings and the launch summary, and starts the
agent CLI found on PATH with the arguments after --. While the agent runs,
signals (interrupt, terminate, hang-up) are passed on to it and a change to
a profile or another input refreshes the composite's generated files.
When it exits, what it changed is classified: writes through linked state
paths are already durable, other changes are warned about or dropped, and
prompt paths are asked about on the terminal (without one, they are
reported and skipped, as upstream does). Exec exits with the agent's exit
code, 128 plus the signal's number when a signal ended it (130, 143, else
129), or 1 when the run failed.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			home := f.String("home", "", "the home `DIR` (default $HOME)")
			project := f.String("project", "", "the project `DIR` (default the working directory)")
			agent := f.String("agent", "", "the agent `ID`, one of "+agentList()+" (default from the settings)")
			profile := f.String("profile", "", "the profile `ID` (default from the settings)")
			strict := f.Bool("strict", false, "fail instead of warning when controls cannot be translated or the agent wrote what it should not")
			debug := f.Bool("debug", false, "keep the composite profile directory and print where it is (--debug is passed to the agent too, as a run does)")
			return func(c *cli, args []string) (int, error) {
				if *debug {
					args = append([]string{"--debug"}, args...)
				}
				return execRun(c, *home, *project, sim.Spec{Agent: *agent, Profile: *profile, Strict: *strict, Args: args})
			}
		},
	}
}

// execRun is `vfsim exec`: one run on the host with the real agent CLI.
func execRun(c *cli, home, project string, spec sim.Spec) (int, error) {
	h, err := hostOf(home, project)
	if err != nil {
		return 0, err
	}
	spec.Home, spec.Project = h.home, h.project
	spec.Interactive = isTerminal(os.Stdin) && isTerminal(c.stdout)
	opts := h.options()
	opts.Tools = sources.Exec{Env: opts.Env}
	opts.Observer = printer{stdout: c.stdout, stderr: c.stderr}
	if spec.Interactive {
		opts.Prompter = writeback.NewLinePrompter(os.Stdin, c.stdout)
	}
	signals, stop := launch.Notify()
	defer stop()
	agent := launch.New(launch.Options{Stdout: c.stdout, Stderr: c.stderr, Signals: signals})
	res := sim.Execute(context.Background(), osfs.New(), spec, agent, opts)
	if res.Err != nil {
		fmt.Fprintln(c.stderr, res.Err)
	}
	return res.ExitCode, nil
}

// printer prints a run's events where upstream prints them: notices and
// the summary on standard output, warnings and messages on standard
// error, as they happen.
type printer struct{ stdout, stderr io.Writer }

// Observe prints the event's lines.
func (p printer) Observe(_ context.Context, e sim.Event) {
	if e.Text == "" {
		return
	}
	w := p.stdout
	if e.Kind.Stderr() {
		w = p.stderr
	}
	fmt.Fprintln(w, strings.TrimSuffix(e.Text, "\n"))
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && terminal(f.Fd())
}
