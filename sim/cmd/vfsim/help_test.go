package main

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures/golden"
)

// TestHelp pins the usage and every command's help: each flag described,
// printed on standard output with exit status 0, however it is asked for;
// no flag has a default that help would have to print.
func TestHelp(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "help")
	if code != 0 || errs != "" {
		t.Fatalf("vfsim help = %d, stderr %q", code, errs)
	}
	golden.Text(t, filepath.Join("testdata", "help", "usage.txt"), out)
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runCLI(t, c.name, "--help")
			if code != 0 || errs != "" {
				t.Fatalf("vfsim %s --help = %d, stderr %q", c.name, code, errs)
			}
			golden.Text(t, filepath.Join("testdata", "help", c.name+".txt"), out)
			for _, alt := range [][]string{{c.name, "-h"}, {"help", c.name}} {
				if code, again, _ := runCLI(t, alt...); code != 0 || again != out {
					t.Errorf("vfsim %s = %d and a different text than --help", strings.Join(alt, " "), code)
				}
			}
			f := c.flagSet()
			c.flags(f)
			n := 0
			f.VisitAll(func(fl *flag.Flag) {
				n++
				if !strings.Contains(out, "  --"+fl.Name) || strings.TrimSpace(fl.Usage) == "" {
					t.Errorf("flag --%s is not described", fl.Name)
				}
				if fl.DefValue != "" && fl.DefValue != "false" {
					t.Errorf("flag --%s defaults to %q, which help does not print; say it in the description and default to empty", fl.Name, fl.DefValue)
				}
			})
			if n != strings.Count(out, "\n  --") {
				t.Errorf("help lists %d flags, the command has %d", strings.Count(out, "\n  --"), n)
			}
		})
	}
}

func TestBadFlagPrintsSynopsis(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "check", "--bogus")
	if code != 2 || out != "" || !strings.Contains(errs, "flag provided but not defined: -bogus") || !strings.Contains(errs, "usage: vfsim check [--scenarios DIR]") {
		t.Errorf("vfsim check --bogus = %d, %q, %q", code, out, errs)
	}
}
