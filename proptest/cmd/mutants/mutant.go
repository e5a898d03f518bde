package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// mutant is one change of one operator: gremlins' kind, the file (its
// path from the repository root) and the 1-based line and byte column of
// the operator.
type mutant struct {
	Kind      string
	File      string
	Line, Col int
}

func (m mutant) String() string {
	return fmt.Sprintf("%s at %s:%d:%d", m.Kind, filepath.ToSlash(m.File), m.Line, m.Col)
}

// The default kinds of gremlins and what each makes of an operator,
// longest operators first.
var replacements = map[string][][2]string{
	"CONDITIONALS_NEGATION": {{"==", "!="}, {"!=", "=="}, {"<=", ">"}, {">=", "<"}, {"<", ">="}, {">", "<="}},
	"CONDITIONALS_BOUNDARY": {{"<=", "<"}, {">=", ">"}, {"<", "<="}, {">", ">="}},
	"ARITHMETIC_BASE":       {{"+", "-"}, {"-", "+"}, {"*", "/"}, {"/", "*"}, {"%", "*"}},
	"INCREMENT_DECREMENT":   {{"++", "--"}, {"--", "++"}},
	"INVERT_NEGATIVES":      {{"-", "+"}},
}

// apply returns src with m's operator replaced, and the mutated line
// without its indentation; ok is false when the line has no operator of
// m's kind at m's column.
func apply(src []byte, m mutant) (out []byte, line string, ok bool) {
	start, end, ok := lineAt(src, m.Line)
	if !ok {
		return nil, "", false
	}
	at := start + m.Col - 1
	if at >= end {
		return nil, "", false
	}
	for _, r := range replacements[m.Kind] {
		if bytes.HasPrefix(src[at:end], []byte(r[0])) {
			out = append(append(append(out, src[:at]...), r[1]...), src[at+len(r[0]):]...)
			return out, strings.TrimSpace(string(out[start : end-len(r[0])+len(r[1])])), true
		}
	}
	return nil, "", false
}

// lineAt returns the offsets of the start and the end (its line feed or
// the end of src) of the 1-based line n of src; ok is false when src has
// fewer lines.
func lineAt(src []byte, n int) (start, end int, ok bool) {
	if n < 1 {
		return 0, 0, false
	}
	for range n - 1 {
		nl := bytes.IndexByte(src[start:], '\n')
		if nl < 0 {
			return 0, 0, false
		}
		start += nl + 1
	}
	end = len(src)
	if nl := bytes.IndexByte(src[start:], '\n'); nl >= 0 {
		end = start + nl
	}
	return start, end, true
}

// equivalentDirective starts the comment line that marks the mutants of
// the line below it as equivalent: no behaviour a test could check tells
// them from the code as written. The kinds follow, separated by spaces or
// commas, each alone (every mutant of the kind on the line) or with the
// byte column of one operator (ARITHMETIC_BASE@22); none means every
// kind. The comments above it say why.
const equivalentDirective = "//mutants:equivalent"

// markedEquivalent reports whether the line before m's line in src is a
// directive that marks m's kind equivalent.
func markedEquivalent(src []byte, m mutant) bool {
	start, end, ok := lineAt(src, m.Line-1)
	if !ok {
		return false
	}
	prev := strings.TrimSpace(string(src[start:end]))
	rest, ok := strings.CutPrefix(prev, equivalentDirective)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return false
	}
	kinds := strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	return len(kinds) == 0 || slices.Contains(kinds, m.Kind) || slices.Contains(kinds, fmt.Sprintf("%s@%d", m.Kind, m.Col))
}

// outcome is what became of a mutant: its status as classify names it,
// turned into EQUIVALENT when a marked mutant lived and MISMARKED when a
// marked one was killed (its mark is wrong).
func outcome(status string, marked bool) string {
	switch {
	case marked && status == "LIVED":
		return "EQUIVALENT"
	case marked && status == "KILLED":
		return "MISMARKED"
	}
	return status
}

// tally counts the outcomes of a run.
type tally map[string]int

// String sums a run up: the count of each outcome, the efficacy as the
// mutation tester reckons it (killed over killed and lived, marked
// equivalents counted as lived) and the mutation score without the marked
// equivalents.
func (t tally) String() string {
	killed := t["KILLED"] + t["MISMARKED"]
	var b strings.Builder
	for _, s := range []string{"KILLED", "LIVED", "EQUIVALENT", "MISMARKED", "NOT VIABLE", "TIMED OUT", "SKIPPED"} {
		fmt.Fprintf(&b, "%s %d, ", strings.ToLower(s), t[s])
	}
	b.WriteString("efficacy " + percent(killed, killed+t["LIVED"]+t["EQUIVALENT"]))
	b.WriteString(", without the marked equivalents " + percent(killed, killed+t["LIVED"]))
	return b.String()
}

// percent returns n/d as a percentage to one decimal, or "-" when d is 0.
func percent(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}

// classify names the outcome of a package's test run: err and output of
// go test, and whether it ran out of time.
func classify(err error, output []byte, timedOut bool) string {
	switch {
	case timedOut:
		return "TIMED OUT"
	case err == nil:
		return "LIVED"
	case bytes.Contains(output, []byte("[build failed]")) || bytes.Contains(output, []byte("[setup failed]")):
		return "NOT VIABLE"
	}
	return "KILLED"
}

// listDir lists the mutants of the Go files of the package in dir that
// this platform builds, test files left out, in file and position order.
func listDir(dir string) ([]mutant, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []mutant
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		out = append(out, listFile(fset, f, path)...)
	}
	return out, nil
}

// listFile lists the mutants of one parsed file.
func listFile(fset *token.FileSet, f *ast.File, path string) []mutant {
	var out []mutant
	add := func(kind string, pos token.Pos) {
		p := fset.Position(pos)
		out = append(out, mutant{Kind: kind, File: path, Line: p.Line, Col: p.Column})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.BinaryExpr:
			switch e.Op {
			case token.EQL, token.NEQ:
				add("CONDITIONALS_NEGATION", e.OpPos)
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				add("CONDITIONALS_BOUNDARY", e.OpPos)
				add("CONDITIONALS_NEGATION", e.OpPos)
			case token.SUB:
				add("ARITHMETIC_BASE", e.OpPos)
				add("INVERT_NEGATIVES", e.OpPos)
			case token.ADD, token.MUL, token.QUO, token.REM:
				add("ARITHMETIC_BASE", e.OpPos)
			}
		case *ast.UnaryExpr:
			if e.Op == token.SUB {
				add("INVERT_NEGATIVES", e.OpPos)
			}
		case *ast.IncDecStmt:
			add("INCREMENT_DECREMENT", e.TokPos)
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Col < out[j].Col
	})
	return out
}
