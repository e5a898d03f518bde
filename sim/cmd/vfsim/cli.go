package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/outfitter-go/vfsim/composite"
)

// A command is one subcommand of vfsim: its synopsis, what it does, its
// flags and its action.
type command struct {
	name     string
	synopsis string // the arguments, after "vfsim <name> "
	summary  string // one line for the command list
	about    string // the paragraphs of its help
	// flags declares the command's flags on f and returns the action to run
	// once they are parsed.
	flags func(f *flag.FlagSet) func(c *cli, args []string) (int, error)
}

// cli is one invocation of the command: where it writes.
type cli struct {
	stdout, stderr io.Writer
}

// commands returns the subcommands, in the order the usage lists them.
func commands() []*command {
	return []*command{checkCommand(), runCommand(), updateCommand(), listCommand(), lintCommand(), explainCommand(), dryRunCommand(), execCommand()}
}

// agentList names the registered agents for flag descriptions.
func agentList() string { return strings.Join(composite.DefaultRegistry().IDs(), ", ") }

// usage returns the command's overall usage text.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: vfsim <command> [flags] [arguments]\n\ncommands:\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	b.WriteString("\nRun 'vfsim <command> --help' for the command's flags and arguments.\n")
	return b.String()
}

// run is the command; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if cmd := lookup(args[1]); cmd != nil {
				fmt.Fprint(stdout, cmd.help())
				return 0
			}
			fmt.Fprintf(stderr, "vfsim help: unknown command %q\n%s", args[1], usage())
			return 2
		}
		fmt.Fprint(stdout, usage())
		return 0
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "vfsim: unknown command %q\n%s", name, usage())
		return 2
	}
	f := cmd.flagSet()
	action := cmd.flags(f)
	if err := f.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, cmd.help())
			return 0
		}
		fmt.Fprintf(stderr, "vfsim %s: %v\n%s", name, err, cmd.synopsisLine())
		return 2
	}
	code, err := action(c, f.Args())
	if err != nil {
		if ue, ok := errors.AsType[usageError](err); ok {
			fmt.Fprintf(stderr, "vfsim %s: %v\n%s", name, ue.error, cmd.synopsisLine())
			return 2
		}
		fmt.Fprintf(stderr, "vfsim %s: %v\n", name, err)
		return 1
	}
	return code
}

func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usageError is a mistake in the command line: the command prints its
// synopsis and exits with 2.
type usageError struct{ error }

func (c *command) flagSet() *flag.FlagSet {
	f := flag.NewFlagSet(c.name, flag.ContinueOnError)
	f.SetOutput(io.Discard)
	f.Usage = func() {}
	return f
}

func (c *command) synopsisLine() string {
	return "usage: vfsim " + c.name + " " + c.synopsis + "\n(vfsim " + c.name + " --help describes every flag)\n"
}

// help returns the command's help: synopsis, description and every flag
// with its description. No flag has a default other than empty or false;
// a description says what an empty value means ("default $HOME").
func (c *command) help() string {
	var b strings.Builder
	b.WriteString("usage: vfsim " + c.name + " " + c.synopsis + "\n\n")
	b.WriteString(strings.TrimSpace(c.about) + "\n")
	f := c.flagSet()
	c.flags(f)
	var flags []*flag.Flag
	f.VisitAll(func(fl *flag.Flag) { flags = append(flags, fl) })
	if len(flags) == 0 {
		return b.String()
	}
	b.WriteString("\nflags:\n")
	for _, fl := range flags {
		name, desc := flag.UnquoteUsage(fl)
		head := "  --" + fl.Name
		if name != "" {
			head += " " + name
		}
		b.WriteString(head + "\n")
		b.WriteString(wrap(desc, "        ", 76))
	}
	return b.String()
}

// wrap breaks text into lines of at most width columns, each starting with
// prefix, at spaces.
func wrap(text, prefix string, width int) string {
	var b strings.Builder
	line := prefix
	for _, w := range strings.Fields(text) {
		if line != prefix && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}
