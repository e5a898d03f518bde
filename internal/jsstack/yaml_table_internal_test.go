package jsstack

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// encodeYAMLValue encodes a document value as testdata/yaml-tables.mjs
// encodes the library's: numbers as {"n": String(n)}, objects as {"o":
// [[key, value], …]} in key order.
func encodeYAMLValue(v any) any {
	switch v := v.(type) {
	case float64:
		if v == 0 && math.Signbit(v) {
			return map[string]any{"n": "-0"}
		}
		return map[string]any{"n": NumberString(v)}
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = encodeYAMLValue(e)
		}
		return out
	case *Object:
		o := []any{}
		for i := range v.Len() {
			k, e := v.At(i)
			o = append(o, []any{k, encodeYAMLValue(e)})
		}
		return map[string]any{"o": o}
	}
	return v
}

// yamlLeft lists the documents of testdata/node-yaml.json on which
// ParseYAML still differs from the library, each with what differs. The
// test fails on any other difference, and on a listed document that no
// longer differs, so the list only shrinks.
var yamlLeft = map[string]string{
	// Values.
	"%YAML 1.1\n---\na: yes\nb: 012\nc: 0o12\n": "a %YAML 1.1 document: the library reads it with the YAML 1.1 schema",
	"\t# c\na: 1\n":           "a comment line indented by a tab: yaml/v3 refuses the tab",
	"...\n---\n":              "error: a document end before a document start: yaml/v3 refuses the end",
	"a: \"\\ud83d\"\n":        "a lone surrogate escape: a Go string cannot hold it",
	"a: \"\\ude80\\ud83d\"\n": "lone surrogate escapes: a Go string cannot hold them",
	"a: !!binary aGk=\n":      "the !!binary tag",
	"a: !!set {a}\n":          "the !!set tag",
	"a: !!omap [a: 1]\n":      "the !!omap tag",
	"[a, b]: c\n":             "a collection as a key: the library's text of it",
	"{a: 1}: x\n":             "a collection as a key: the library's text of it",
	"[a]: 1\n[a]: 2\n":        "a collection as a key: the library's text of it",
	"\ufeff\ufeffa: 1\n":      "a second byte order mark",
	"a: 1\rb: 2\n":            "a lone carriage return: yaml/v3 reads it as a line break",
	": x\n":                   "an empty implicit key: yaml/v3 refuses it",
	"a: [b, c]: d\n":          "a flow sequence as an implicit key: yaml/v3 refuses it",
	"a: 1\n\x01b: 2\n":        "a control character: yaml/v3 refuses it",
	// Syntax errors the library locates where ParseYAML does not.
	"%YAML 1.2\na: 1\n":      "error: directives without a document start",
	"a: -\n":                 "error: a block sequence on a key's line",
	"a: - b\n":               "error: a block sequence on a key's line",
	"a: }\n":                 "error: a flow end without its start",
	"a: ]\n":                 "error: a flow end without its start",
	"[1, 2]]\n":              "error: a flow end without its start",
	"{a: 1}}\n":              "error: a flow end without its start",
	"a: !!str !!int 1\n":     "error: two tags",
	"a: &x &y 1\n":           "error: two anchors",
	"- a\n-b\n":              "error: a scalar after a sequence",
	"a: [b,, c]\n":           "error: an empty flow entry",
	"a: {,}\n":               "error: an empty flow entry",
	"%YAML\n---\na: 1\n":     "error: a %YAML directive without a version",
	"a:\tb: c\n":             "error: a tab before a nested mapping",
	"[[a]\n: 1]\n":           "a collection as the key of a flow sequence's pair, its ':' on the next line: yaml/v3 refuses it",
	"{a\n: 1}\n":             "a flow mapping's key and its ':' on two lines: yaml/v3 refuses it",
	"[x, {a\n: 1}]\n":        "a flow mapping's key and its ':' on two lines: yaml/v3 refuses it",
	"a:\n  b: *x\n   c: 1\n": "error: a key indented under an alias: yaml/v3 reads '*x c' as an alias name and fails on it",
	"a: {x: \"\"y: 1}\n":     "error: a key right after a quoted value in a flow mapping: the library's 'Unexpected scalar token'",
	"[- x]\n":                "error: a '- ' right after a flow sequence's bracket, which the library reads as a pair's key",
	"\"x\ny\": 1\n":          "error: a quoted key over two lines",
}

// TestParseYAMLMatchesTheLibrary checks ParseYAML on every document of
// testdata/node-yaml.json (upstream's yaml library, 2.9.0, as upstream
// calls it; yaml-tables.mjs writes it): the same documents accepted and
// refused, the same values, and for a refused document the same text
// (String(error)), but for the documents of yamlLeft.
func TestParseYAMLMatchesTheLibrary(t *testing.T) {
	t.Parallel()
	raw := readTable[[2]json.RawMessage](t, "node-yaml.json", 510)
	left := leftList{list: yamlLeft}
	for _, r := range raw {
		var doc string
		var want libraryResult
		if err := json.Unmarshal(r[0], &doc); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(r[1], &want); err != nil {
			t.Fatal(err)
		}
		problem, err := parseAsLibrary(t, doc, want)
		switch {
		case problem != "" || want.Error == "":
		case err.Error() != want.Error:
			problem = "error " + strings.SplitN(err.Error(), "\n", 2)[0] + "; library " + strings.SplitN(want.Error, "\n", 2)[0]
			var pe *YAMLParseError
			if errors.As(err, &pe) && pe.Line > 0 {
				problem = "located error\n" + err.Error() + "\nlibrary\n" + want.Error
			}
		}
		left.check(t, doc, fmt.Sprintf("%q", doc), problem)
	}
	left.unseen(t)
}

// libraryResult is the yaml library's result for one document of a
// table: its value as JSON, or its error as String(error).
type libraryResult struct {
	Value json.RawMessage
	Error string
}

// parseAsLibrary parses doc with ParseYAML and returns what differs from
// the library's result want in acceptance or value, and its error;
// where both refuse doc the problem is "" and the caller compares the
// errors.
func parseAsLibrary(t *testing.T, doc string, want libraryResult) (problem string, err error) {
	t.Helper()
	v, err := ParseYAML([]byte(doc))
	switch {
	case want.Error == "" && err != nil:
		return "refused: " + err.Error(), err
	case want.Error == "":
		got, _ := json.Marshal(encodeYAMLValue(v))
		var w any
		if err := json.Unmarshal(want.Value, &w); err != nil {
			t.Fatal(err)
		}
		wb, _ := json.Marshal(w)
		if string(got) != string(wb) {
			return "value " + string(got) + ", library " + string(wb), nil
		}
	case err == nil:
		return "accepted; library: " + want.Error, nil
	}
	return "", err
}

// leftList holds a table test to its list of documents left different
// from the library: a difference must be listed, and a listed document
// must be in the table and still differ.
type leftList struct {
	list map[string]string
	seen map[string]bool
}

// check reports a problem of the document key, shown as label, unless it
// is listed, and a listed document without one.
func (l *leftList) check(t *testing.T, key, label, problem string) {
	t.Helper()
	why, listed := l.list[key]
	switch {
	case problem != "" && !listed:
		t.Errorf("%s: %s", label, problem)
	case problem == "" && listed:
		t.Errorf("%s is listed as left (%s) but matches the library: take it off", label, why)
	}
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	l.seen[key] = true
}

// unseen reports the listed documents the table does not hold.
func (l *leftList) unseen(t *testing.T) {
	t.Helper()
	for key := range l.list {
		if !l.seen[key] {
			t.Errorf("%q is listed as left but is not in the table", key)
		}
	}
}
