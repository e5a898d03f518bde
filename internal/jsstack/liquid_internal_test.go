package jsstack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
			o := newLqObject()
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
		if have != want {
			t.Errorf("case %d %q:\n got %q\nwant %q", i, c.Template, have, want)
			continue
		}
		pass++
	}
	t.Logf("%d of %d cases equal to LiquidJS %s (Node %s)", pass, len(table.Cases), table.LiquidJS, table.Node)
}

func TestLiquidNumberString(t *testing.T) {
	point1, point2 := 0.1, 0.2
	for f, want := range map[float64]string{
		0: "0", 1: "1", -4: "-4", 2.5: "2.5", 1e21: "1e+21", 1e-7: "1e-7", 123456789e12: "123456789000000000000",
		point1 + point2: "0.30000000000000004", 1.5e-6: "0.0000015", 1.23e25: "1.23e+25",
	} {
		if got := lqNumberString(f); got != want {
			t.Errorf("%v: %q, want %q", f, got, want)
		}
	}
	_ = fmt.Sprint()
}
