package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
)

func updateCommand() *command {
	return &command{
		name:     "update",
		synopsis: "[FIXTURE|DIR ...]",
		summary:  "create or rewrite the expected files that do not match",
		about: `
Update runs every scenario of the fixtures named (fixture directories,
.txtar archives or folders of them; default ./fixtures/catalog) and writes
each expected file a scenario compares (summary and warnings files) whose
comparison fails: a file that is missing or empty is created or filled, a
file that differs is rewritten, a file that matches is left alone. It
prints each file it wrote, then runs the scenarios again and lists those
that still fail (expectations written in the scenario itself, such as
result, error, ops and after checks, are not rewritten): it exits with 1
when any does. Review the changes (git diff) before committing them.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			return update
		},
	}
}

func update(c *cli, args []string) (int, error) {
	if len(args) == 0 {
		args = []string{filepath.Join("fixtures", "catalog")}
	}
	var paths []string
	for _, a := range args {
		found, err := fixtures.Find(a)
		if err != nil {
			return 0, err
		}
		paths = append(paths, found...)
	}
	ctx := context.Background()
	written, failed, scenarios := 0, 0, 0
	for _, p := range paths {
		fx, err := fixtures.Load(p)
		if err != nil {
			return 0, err
		}
		files, err := sim.UpdateExpected(ctx, fx, sim.ScenarioOptions{})
		if err != nil {
			return 0, err
		}
		for _, f := range files {
			fmt.Fprintf(c.stdout, "wrote %s\n", fx.Where(f))
		}
		written += len(files)
		// Loading again a fixture nothing was written to gives the same
		// fixture: >= 0 (a mutant) is equivalent.
		//mutants:equivalent CONDITIONALS_BOUNDARY
		if len(files) > 0 {
			if fx, err = fixtures.Load(p); err != nil {
				return 0, err
			}
		}
		for _, sc := range fx.Scenarios() {
			scenarios++
			out, err := sim.RunScenario(ctx, fx, sc, sim.ScenarioOptions{})
			switch {
			case err != nil:
				// UpdateExpected ran every scenario and stopped on the first
				// that erred, so a scenario errs here only where a run of the
				// same inputs did not: no test can reach this, and failed--
				// (a mutant) is equivalent.
				//mutants:equivalent INCREMENT_DECREMENT
				failed++
				fmt.Fprintf(c.stdout, "still failing: %s/%s\n    %v\n", fx.Name(), sc.Name, err)
			case !out.Passed():
				failed++
				fmt.Fprintf(c.stdout, "still failing: %s/%s\n%s", fx.Name(), sc.Name, indent(out.Failure(), "    "))
			}
		}
	}
	fmt.Fprintf(c.stdout, "%d expected files written; %d of %d scenarios still fail\n", written, failed, scenarios)
	if failed > 0 {
		return 1, nil
	}
	return 0, nil
}
