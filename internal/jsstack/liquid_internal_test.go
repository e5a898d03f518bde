package jsstack

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// liquidTable is testdata/liquid_table.json, which testdata/liquid_table.js
// writes by rendering every case with LiquidJS itself.
type liquidTable struct {
	LiquidJS string          `json:"liquidjs"`
	Node     string          `json:"node"`
	Bindings json.RawMessage `json:"bindings"`
	Cases    []struct {
		Template string  `json:"template"`
		Output   *string `json:"output"`
		Error    *string `json:"error"`
	} `json:"cases"`
}

// decodeOrdered decodes JSON keeping the key order of objects, as a
// JavaScript object would hold them.
func decodeOrdered(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var value func() any
	value = func() any {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("bindings: %v", err)
		}
		switch x := tok.(type) {
		case json.Delim:
			if x == '[' {
				arr := []any{}
				for dec.More() {
					arr = append(arr, value())
				}
				dec.Token()
				return arr
			}
			o := NewObject()
			for dec.More() {
				k, _ := dec.Token()
				o.Set(k.(string), value())
			}
			dec.Token()
			return o
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				t.Fatalf("bindings: %v", err)
			}
			return f
		}
		return tok
	}
	return value()
}

// liquidKnownDifferences lists the cases of the table whose result the
// twin does not reproduce, each with the reason; the test fails when one of
// them matches (remove it then) as when an unlisted case differs.
var liquidKnownDifferences = map[int]string{}

// TestLiquidTable renders every case of the differential table and
// compares the output, or the error's String(), with what LiquidJS gave.
// The cases run in order against one environment, as upstream renders
// the files of a run against one context object (increment and decrement
// write into it).
func TestLiquidTable(t *testing.T) {
	data, err := os.ReadFile("testdata/liquid_table.json")
	if err != nil {
		t.Fatal(err)
	}
	var table liquidTable
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	if table.LiquidJS != LiquidVersion {
		t.Fatalf("the table was produced by LiquidJS %s, the twin reproduces %s", table.LiquidJS, LiquidVersion)
	}
	if len(table.Cases) < 300 {
		t.Fatalf("the table holds %d cases, want a few hundred", len(table.Cases))
	}
	env := NewLiquidEnv(decodeOrdered(t, table.Bindings))
	pass := 0
	for i, c := range table.Cases {
		got, err := RenderLiquid(c.Template, env)
		var want, have string
		switch {
		case c.Output != nil:
			want = "output " + *c.Output
		case c.Error != nil:
			want = "error " + *c.Error
		}
		if err != nil {
			var le *LiquidError
			if !errors.As(err, &le) {
				t.Errorf("case %d %q: the error %v is no *LiquidError", i, c.Template, err)
			}
			have = "error " + err.Error()
		} else {
			have = "output " + got
		}
		reason, known := liquidKnownDifferences[i]
		switch {
		case have == want && known:
			t.Errorf("case %d %q is listed as differing (%s) and matches: remove it from the list", i, c.Template, reason)
		case have != want && !known:
			t.Errorf("case %d %q:\n got %q\nwant %q", i, c.Template, have, want)
		}
		if have == want {
			pass++
		}
	}
	t.Logf("%d of %d cases equal to LiquidJS %s (Node %s); %d listed differences", pass, len(table.Cases), table.LiquidJS, table.Node, len(liquidKnownDifferences))
}

// FuzzRenderLiquid checks that no template makes the twin panic or return
// an error that is no *LiquidError.
func FuzzRenderLiquid(f *testing.F) {
	for _, s := range []string{"[[= a | b: 1, c: 'x' ]]", "[[% if a %]]x[[% else %]]y[[% endif %]]", "[[% raw %]][[= x ]][[% endraw %]]", "[[% for i in (1..3) limit: 2 %]][[= i | date: '%Y' ]][[% endfor %]]", "[[% liquid\necho 1\n%]]", "[[= \"\\ud83d\" | split: '' ]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, template string) {
		env := NewLiquidEnv(map[string]any{"a": []any{1.0, "x", nil}, "b": map[string]any{"c": true}})
		_, err := RenderLiquid(template, env)
		var le *LiquidError
		if err != nil && !errors.As(err, &le) {
			t.Fatalf("%q: %v is no *LiquidError", template, err)
		}
	})
}
