package jsstack

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// FuzzParseYAML: ParseYAML never panics, whatever the text, and what it
// refuses it refuses with an error; the seeds are the library table's
// documents.
func FuzzParseYAML(f *testing.F) {
	data, err := os.ReadFile("testdata/node-yaml.json")
	if err != nil {
		f.Fatal(err)
	}
	var rows [][2]json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		f.Fatal(err)
	}
	for _, r := range rows {
		var doc string
		if err := json.Unmarshal(r[0], &doc); err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseYAML(data)
		if err != nil && v != nil {
			t.Fatalf("a value and an error: %v", err)
		}
		if err != nil && err.Error() == "" {
			t.Fatal("an error without text")
		}
	})
}

// FuzzFindOpenFlow: findOpenFlow never panics and ends on any text, and
// an open collection it finds starts at a bracket (a problem of a token:
// at a bracket, a quote, a block scalar indicator, an alias or a
// character a plain scalar cannot start with) and is
// refused within the text (or at its end).
func FuzzFindOpenFlow(f *testing.F) {
	for _, s := range []string{"a: [1, 2\n", "a:\n  b: {x:\n  c: 3\n", "a: {b: 2\n# c\n", "- [1,\n 2\n", "a: |\n  [x\nb: [y\n", "[1, [2\r\n", "a: {b: [1, 2}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o := findOpenFlow(data)
		if o == nil {
			return
		}
		starts := "[{"
		if o.lexical {
			starts = "[{\"'|>*@`%"
		}
		if o.start < 0 || o.start >= len(data) || strings.IndexByte(starts, data[o.start]) < 0 {
			t.Fatalf("start %d is no bracket of %q", o.start, data)
		}
		if o.at < 0 || o.at > len(data) || o.end > len(data)+1 {
			t.Fatalf("at %d outside %q", o.at, data)
		}
		if e := o.error(data); e.Line < 1 || e.Col < 1 {
			t.Fatalf("unlocated: %v", e)
		}
	})
}
