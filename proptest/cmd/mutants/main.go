// Command mutants writes mutants of the mutation tester's default kinds
// into the tree one at a time, runs the package's tests on each and says
// what became of it: the hand round of docs/mutation-testing.md,
// which checks by hand what gremlins reports. It is test support, run by
// developers; CI runs its tests, not the command.
//
// From the repository root:
//
//	go run ./proptest/cmd/mutants -list ./vfs/osfs > mutants.txt
//	go run ./proptest/cmd/mutants < mutants.txt
//
// A line of input is "KIND at DIR/FILE.go:LINE:COL", gremlins' report of a
// mutant with the package directory in front of the file name, COL a
// byte column; other lines are skipped. A line of output is "STATUS KIND
// at DIR/FILE.go:LINE:COL | the mutated line", STATUS one of KILLED (a
// test failed), LIVED (every test passed), NOT VIABLE (the package does
// not build), TIMED OUT, or SKIPPED (no operator of the kind at the
// column), or, for a mutant whose line follows a "//mutants:equivalent"
// directive naming its kind (or no kind), EQUIVALENT where it lived and
// MISMARKED where a test killed it (the mark is wrong). The file is
// restored after each run, and on an interrupt. A last line sums the run
// up: the count of each outcome, the efficacy as gremlins reckons it
// (killed over killed and lived, marked equivalents counted as lived) and
// the mutation score without the marked equivalents.
//
// Each test run has a temporary directory of its own, removed after it,
// and a run that times out is stopped with every process it started.
//
// Gremlins' INVERT_NEGATIVES turns any "-" token into "+", a binary minus
// included, where it is ARITHMETIC_BASE's mutant again; this command does
// the same.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

func main() {
	list := flag.Bool("list", false, "list the mutants of the package directories given as arguments instead of running mutants")
	timeout := flag.Duration("timeout", 5*time.Minute, "how long one package test run may take")
	flag.Parse()
	if *list {
		for _, dir := range flag.Args() {
			ms, err := listDir(dir)
			if err != nil {
				fmt.Fprintln(os.Stderr, "mutants:", err)
				os.Exit(1)
			}
			for _, m := range ms {
				fmt.Println(m)
			}
		}
		return
	}
	if err := runAll(os.Stdin, os.Stdout, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
}

// mutantLine matches a line of gremlins' report, or of -list.
var mutantLine = regexp.MustCompile(`\b([A-Z_]+) at (\S+\.go):(\d+):(\d+)`)

// parseMutant reads a mutant from a line; ok is false for another line.
func parseMutant(line string) (m mutant, ok bool) {
	sm := mutantLine.FindStringSubmatch(line)
	if sm == nil {
		return mutant{}, false
	}
	ln, err1 := strconv.Atoi(sm[3])
	col, err2 := strconv.Atoi(sm[4])
	if err1 != nil || err2 != nil || ln < 1 || col < 1 {
		return mutant{}, false
	}
	return mutant{Kind: sm[1], File: sm[2], Line: ln, Col: col}, true
}

// runAll runs every mutant read from in and writes one line for each.
func runAll(in io.Reader, out io.Writer, timeout time.Duration) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sc := bufio.NewScanner(in)
	t := tally{}
	for sc.Scan() {
		m, ok := parseMutant(sc.Text())
		if !ok {
			continue
		}
		status, text, err := runOne(ctx, m, timeout)
		if err != nil {
			return err
		}
		t[status]++
		fmt.Fprintf(out, "%s %s | %s\n", status, m, text)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Fprintln(out, t)
	return nil
}

// runOne writes m into its file, runs its package's tests and restores
// the file. text is the mutated line.
func runOne(ctx context.Context, m mutant, timeout time.Duration) (status, text string, err error) {
	orig, err := os.ReadFile(m.File)
	if err != nil {
		return "", "", err
	}
	mutated, line, ok := apply(orig, m)
	if !ok {
		return "SKIPPED", "", nil
	}
	fi, err := os.Stat(m.File)
	if err != nil {
		return "", "", err
	}
	if err := os.WriteFile(m.File, mutated, fi.Mode().Perm()); err != nil {
		return "", "", err
	}
	defer func() {
		if rerr := os.WriteFile(m.File, orig, fi.Mode().Perm()); rerr != nil && err == nil {
			err = fmt.Errorf("restore %s: %w", m.File, rerr)
		}
	}()
	tmp, err := os.MkdirTemp("", "mutants-")
	if err != nil {
		return "", "", err
	}
	// A test binary stopped at the timeout leaves its temporary files.
	defer os.RemoveAll(tmp)
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "go", "test", "-count=1", "-failfast", "./"+filepath.ToSlash(filepath.Dir(m.File))+"/")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stopGroup(cmd)
	output, runErr := cmd.CombinedOutput()
	timedOut := errors.Is(tctx.Err(), context.DeadlineExceeded)
	return outcome(classify(runErr, output, timedOut), markedEquivalent(orig, m)), line, nil
}
