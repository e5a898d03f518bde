package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestApply(t *testing.T) {
	t.Parallel()
	src := "package p\n\nfunc f(a, b int) bool {\n\treturn a-b <= -a && a != b\n}\n"
	tests := []struct {
		kind      string
		line, col int
		want      string // the mutated line; "" when nothing applies
	}{
		{"CONDITIONALS_BOUNDARY", 4, 13, "return a-b < -a && a != b"},
		{"CONDITIONALS_NEGATION", 4, 13, "return a-b > -a && a != b"},
		{"CONDITIONALS_NEGATION", 4, 24, "return a-b <= -a && a == b"},
		{"ARITHMETIC_BASE", 4, 10, "return a+b <= -a && a != b"},
		{"INVERT_NEGATIVES", 4, 10, "return a+b <= -a && a != b"}, // a binary minus too, as gremlins does
		{"INVERT_NEGATIVES", 4, 16, "return a-b <= +a && a != b"},
		{"INCREMENT_DECREMENT", 4, 16, ""}, // no ++ or -- there
		{"CONDITIONALS_BOUNDARY", 4, 24, ""},
		{"ARITHMETIC_BASE", 9, 1, ""},  // past the last line
		{"ARITHMETIC_BASE", 4, 99, ""}, // past the end of the line
	}
	for _, tt := range tests {
		m := mutant{Kind: tt.kind, File: "p.go", Line: tt.line, Col: tt.col}
		out, line, ok := apply([]byte(src), m)
		if tt.want == "" {
			if ok {
				t.Errorf("apply(%s) = %q, want no mutant", m, line)
			}
			continue
		}
		if !ok || line != tt.want {
			t.Errorf("apply(%s) = %q, %v; want %q", m, line, ok, tt.want)
			continue
		}
		wantSrc := "package p\n\nfunc f(a, b int) bool {\n\t" + tt.want + "\n}\n"
		if diff := cmp.Diff(wantSrc, string(out)); diff != "" {
			t.Errorf("apply(%s) source (-want +got):\n%s", m, diff)
		}
	}
}

func TestParseMutant(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		want mutant
		ok   bool
	}{
		"       LIVED CONDITIONALS_NEGATION at vfs/osfs/file.go:72:13": {mutant{"CONDITIONALS_NEGATION", "vfs/osfs/file.go", 72, 13}, true},
		"ARITHMETIC_BASE at sim/cmd/vfsim/cli.go:129:32":               {mutant{"ARITHMETIC_BASE", "sim/cmd/vfsim/cli.go", 129, 32}, true},
		"Killed: 86, Lived: 17, Not covered: 14":                       {},
		"INVERT_NEGATIVES at x.go:0:3":                                 {},
	}
	for line, tt := range tests {
		got, ok := parseMutant(line)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseMutant(%q) = %+v, %v; want %+v, %v", line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	failed := errors.New("exit status 1")
	tests := []struct {
		err      error
		output   string
		timedOut bool
		want     string
	}{
		{nil, "ok  \tx\t0.1s\n", false, "LIVED"},
		{failed, "--- FAIL: TestX (0.00s)\nFAIL\tx\t0.1s\n", false, "KILLED"},
		{failed, "# x\n./a.go:3:9: invalid operation\nFAIL\tx [build failed]\n", false, "NOT VIABLE"},
		{failed, "FAIL\tx [setup failed]\n", false, "NOT VIABLE"},
		{failed, "", true, "TIMED OUT"},
	}
	for _, tt := range tests {
		if got := classify(tt.err, []byte(tt.output), tt.timedOut); got != tt.want {
			t.Errorf("classify(%v, %q, %v) = %s, want %s", tt.err, tt.output, tt.timedOut, got, tt.want)
		}
	}
}

// TestListDir lists the mutants of a small package: every operator of the
// default kinds, in position order, leaving out test files and files this
// platform does not build.
func TestListDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "sample")
	ms, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.String())
	}
	file := filepath.ToSlash(filepath.Join(dir, "sample.go"))
	want := []string{
		"CONDITIONALS_NEGATION at " + file + ":4:7",
		"CONDITIONALS_BOUNDARY at " + file + ":4:17",
		"CONDITIONALS_NEGATION at " + file + ":4:17",
		"INVERT_NEGATIVES at " + file + ":4:19",
		"INCREMENT_DECREMENT at " + file + ":5:4",
		"ARITHMETIC_BASE at " + file + ":7:11",
		"INVERT_NEGATIVES at " + file + ":7:11",
		"ARITHMETIC_BASE at " + file + ":7:14",
		"ARITHMETIC_BASE at " + file + ":7:20",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listDir(%s) (-want +got):\n%s", dir, diff)
	}
}

// TestMarkedEquivalent: a directive on the line before a mutant's marks it
// when it names the mutant's kind, alone or with its column, or no kind;
// another comment, a directive further up or one naming other kinds or
// another column does not.
func TestMarkedEquivalent(t *testing.T) {
	t.Parallel()
	src := "package p\n\n" +
		"func f(a, b int) bool {\n" + // line 3
		"\t//mutants:equivalent CONDITIONALS_BOUNDARY, ARITHMETIC_BASE\n" +
		"\tif a-b < 0 {\n" + // line 5
		"\t\t//mutants:equivalent\n" +
		"\t\ta++\n" + // line 7
		"\t\t//mutants:equivalent ARITHMETIC_BASE@9\n" +
		"\t\tb = a + b + 1\n" + // line 9
		"\t}\n" +
		"\t//mutants:equivalentish\n" +
		"\treturn a < b\n" + // line 12
		"}\n"
	tests := []struct {
		m    mutant
		want bool
	}{
		{mutant{Kind: "CONDITIONALS_BOUNDARY", Line: 5, Col: 9}, true},
		{mutant{Kind: "ARITHMETIC_BASE", Line: 5, Col: 6}, true},
		{mutant{Kind: "CONDITIONALS_NEGATION", Line: 5, Col: 9}, false},
		{mutant{Kind: "INCREMENT_DECREMENT", Line: 7, Col: 4}, true},
		{mutant{Kind: "ARITHMETIC_BASE", Line: 9, Col: 9}, true},
		{mutant{Kind: "ARITHMETIC_BASE", Line: 9, Col: 13}, false},
		{mutant{Kind: "CONDITIONALS_NEGATION", Line: 12, Col: 11}, false},
		{mutant{Kind: "CONDITIONALS_NEGATION", Line: 3, Col: 1}, false},
		{mutant{Kind: "CONDITIONALS_NEGATION", Line: 1, Col: 1}, false},
		{mutant{Kind: "CONDITIONALS_NEGATION", Line: 40, Col: 1}, false},
	}
	for _, tt := range tests {
		if got := markedEquivalent([]byte(src), tt.m); got != tt.want {
			t.Errorf("markedEquivalent(line %d, %s) = %v, want %v", tt.m.Line, tt.m.Kind, got, tt.want)
		}
	}
}

// TestTally: a marked mutant that lives is equivalent and one that a test
// kills is mismarked; the summary gives the efficacy with the marked
// equivalents counted as lived and the score without them.
func TestTally(t *testing.T) {
	t.Parallel()
	tl := tally{}
	for _, o := range []struct {
		status string
		marked bool
	}{
		{"KILLED", false}, {"KILLED", false}, {"KILLED", true}, {"LIVED", false},
		{"LIVED", true}, {"NOT VIABLE", true}, {"TIMED OUT", false}, {"SKIPPED", false},
	} {
		tl[outcome(o.status, o.marked)]++
	}
	want := "killed 2, lived 1, equivalent 1, mismarked 1, not viable 1, timed out 1, skipped 1, efficacy 60.0%, without the marked equivalents 75.0%"
	if got := tl.String(); got != want {
		t.Errorf("tally = %q, want %q", got, want)
	}
	if got := (tally{}).String(); !strings.HasSuffix(got, "efficacy -, without the marked equivalents -") {
		t.Errorf("empty tally = %q", got)
	}
}
