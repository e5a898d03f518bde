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
	start := 0 // the offset of line m.Line
	for range m.Line - 1 {
		nl := bytes.IndexByte(src[start:], '\n')
		if nl < 0 {
			return nil, "", false
		}
		start += nl + 1
	}
	end := len(src)
	if nl := bytes.IndexByte(src[start:], '\n'); nl >= 0 {
		end = start + nl
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
