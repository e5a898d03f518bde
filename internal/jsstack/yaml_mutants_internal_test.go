package jsstack

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// libraryAt is the location of a library error: "at line L, column C".
var libraryAt = regexp.MustCompile(` at line (\d+), column (\d+)`)

// mutantLeft lists the documents of testdata/node-yaml-mutants.json, by
// name, on which ParseYAML still differs from the library, grouped by the
// library's diagnostic, each with the library's error and the twin's
// (line.column). The test fails on any other difference, and on a listed
// document that no longer differs, so the list only shrinks.
var mutantLeft = map[string]string{
	// (accepted by the library) (15).
	// Documents the library reads and yaml/v3 refuses: a flow collection or an
	// alias as an implicit key ('{…}:', '[…]:', '*name:'), a ':' after a flow
	// item on a continuation line, a quoted scalar the lexer cuts where its
	// last character is an escaped quote; reading them means the library's
	// parser.
	"flows-crlf/colon-end@2":   "library reads it; twin: Nested mappings are not allowed in compact mappings (2.11)",
	"flows-crlf/colon-end@7":   "library reads it; twin: Nested mappings are not allowed in compact mappings (7.16)",
	"flows-crlf/colon-end@8":   "library reads it; twin: Nested mappings are not allowed in compact mappings (8.11)",
	"flows/colon-end@2":        "library reads it; twin: Nested mappings are not allowed in compact mappings (2.11)",
	"flows/colon-end@7":        "library reads it; twin: Nested mappings are not allowed in compact mappings (7.16)",
	"flows/colon-end@8":        "library reads it; twin: Nested mappings are not allowed in compact mappings (8.11)",
	"multiline/colon-end@4":    "library reads it; twin: line 3: did not find expected node content",
	"multiline/colon-end@5":    "library reads it; twin: Nested mappings are not allowed in compact mappings (4.13)",
	"multiline/colon-end@6":    "library reads it; twin: line 5: did not find expected node content",
	"multiline/colon-end@7":    "library reads it; twin: line 6: did not find expected node content",
	"multiline/colon-end@9":    "library reads it; twin: line 9: mapping values are not allowed in this context",
	"multiline/scalar-line@4":  "library reads it; twin: line 2: did not find expected ',' or '}'",
	"multiline/unclose@12.27":  "library reads it; twin: Missing closing \"quote (12.27)",
	"settings-bom/colon-end@7": "library reads it; twin: Nested mappings are not allowed in compact mappings (7.9)",
	"settings/colon-end@7":     "library reads it; twin: Nested mappings are not allowed in compact mappings (7.9)",
}

// TestParseYAMLMatchesTheLibraryOnMutants replays testdata/node-yaml-mutants.json
// (valid settings and profile documents broken one mutation at a time:
// truncated, a quote or bracket left open or out, indentation off by a
// column, tabs, stray colons, comments without a space, lines repeated
// or out of place; yaml-mutants.mjs writes it with the library): the same
// documents accepted and refused, the same values, and for a refused
// document the library's text (String(error)), but for the documents of
// mutantLeft.
func TestParseYAMLMatchesTheLibraryOnMutants(t *testing.T) {
	t.Parallel()
	raw := readTable[[3]json.RawMessage](t, "node-yaml-mutants.json", 1100)
	left := leftList{list: mutantLeft}
	var located, worded, refused int
	for _, r := range raw {
		var name, doc string
		var want libraryResult
		for i, v := range []any{&name, &doc, &want} {
			if err := json.Unmarshal(r[i], v); err != nil {
				t.Fatal(err)
			}
		}
		problem, err := parseAsLibrary(t, doc, want)
		if problem == "" && want.Error != "" {
			refused++
			var pe *YAMLParseError
			m := libraryAt.FindStringSubmatch(want.Error)
			switch {
			case err.Error() == want.Error:
				located++
				worded++
			case m != nil && errors.As(err, &pe) && strconv.Itoa(pe.Line) == m[1] && strconv.Itoa(pe.Col) == m[2]:
				located++
				problem = "located, other text:\n" + err.Error() + "library\n" + want.Error
			case m == nil && !errors.As(err, &pe):
				// Neither locates it (a ReferenceError, say): the same
				// class of error is enough.
				if strings.SplitN(err.Error(), ":", 2)[0] != strings.SplitN(want.Error, ":", 2)[0] {
					problem = "error " + err.Error() + "; library " + want.Error
				} else {
					located++
				}
			default:
				problem = "error " + strings.SplitN(err.Error(), "\n", 2)[0] + "; library " + strings.SplitN(want.Error, "\n", 2)[0]
			}
		}
		left.check(t, name, fmt.Sprintf("%s %q", name, doc), problem)
	}
	left.unseen(t)
	t.Logf("%d documents, %d refused by the library: %d located as it does, %d of them in its words", len(raw), refused, located, worded)
}

// BenchmarkParseYAML reads the documents of node-yaml-mutants.json that
// ParseYAML accepts (accepted: the path every settings and profile read
// takes) and those it refuses (refused: the error path, with the
// locator), each sub-benchmark one pass over its documents.
func BenchmarkParseYAML(b *testing.B) {
	raw := readTable[[3]json.RawMessage](b, "node-yaml-mutants.json", 1100)
	var accepted, refused [][]byte
	for _, r := range raw {
		var doc string
		if err := json.Unmarshal(r[1], &doc); err != nil {
			b.Fatal(err)
		}
		if _, err := ParseYAML([]byte(doc)); err == nil {
			accepted = append(accepted, []byte(doc))
		} else {
			refused = append(refused, []byte(doc))
		}
	}
	for _, c := range []struct {
		name string
		docs [][]byte
	}{{"accepted", accepted}, {"refused", refused}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, d := range c.docs {
					_, _ = ParseYAML(d)
				}
			}
		})
	}
}
