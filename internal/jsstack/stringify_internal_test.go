package jsstack

import (
	"math"
	"strings"
	"testing"
)

func TestStringifyNumbers(t *testing.T) {
	t.Parallel()
	for f, want := range map[float64]string{
		0: "0", math.Copysign(0, -1): "0", 1: "1", -2.5: "-2.5", 1e21: "1e+21", 1e20: "100000000000000000000",
		1e-6: "0.000001", 1.5e-7: "1.5e-7", 123456789012345680000: "123456789012345680000", 0.1: "0.1",
		math.NaN(): "null", math.Inf(1): "null",
	} {
		if got := string(Stringify(f, "")); got != want {
			t.Errorf("Stringify(%v) = %q, want %q", f, got, want)
		}
	}
	if got, want := string(Stringify("a\"\\\n\t\x01<>&\u2028é", "")), `"a\"\\\n\t\u0001<>&`+"\u2028é\""; got != want {
		t.Errorf("Stringify(string) = %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		"\x1f":      `"\u001f"`,
		" \x7f":     "\" \x7f\"",
		"a\x80b":    `"a\ufffdb"`,
		"\ufffd":    "\"\ufffd\"",
		"\xe9t\xe9": `"\ufffdt\ufffd"`,
	} {
		if got := string(Stringify(in, "")); got != want {
			t.Errorf("Stringify(%q) = %q, want %q (invalid UTF-8 becomes an escaped U+FFFD, a real U+FFFD stays)", in, got, want)
		}
	}
	if got, want := string(Stringify([]any{NewObject(), []any{}}, "  ")), "[\n  {},\n  []\n]"; got != want {
		t.Errorf("Stringify(empties) = %q, want %q", got, want)
	}
}

// TestStringifyIndent: the indented form is JSON.stringify's (the compact
// text re-indented, empty containers kept as "[]" and "{}"), at every
// depth, for lists of strings too; AppendStringify appends it.
func TestStringifyIndent(t *testing.T) {
	t.Parallel()
	inner := NewObject()
	inner.Set("k", []any{true, nil, 1.5, []any{}, NewObject()})
	inner.Set("s", []string{"x", "y"})
	inner.Set("e", []string{})
	o := NewObject()
	o.Set("a", inner)
	o.Set("b", []any{[]any{"\"q\""}, inner})
	want := `{
  "a": {
    "k": [
      true,
      null,
      1.5,
      [],
      {}
    ],
    "s": [
      "x",
      "y"
    ],
    "e": []
  },
  "b": [
    [
      "\"q\""
    ],
    {
      "k": [
        true,
        null,
        1.5,
        [],
        {}
      ],
      "s": [
        "x",
        "y"
      ],
      "e": []
    }
  ]
}`
	if got := string(Stringify(o, "  ")); got != want {
		t.Errorf("Stringify(o, \"  \") =\n%s\nwant\n%s", got, want)
	}
	if got, want := string(Stringify(o, "\t")), strings.ReplaceAll(want, "  ", "\t"); got != want {
		t.Errorf("Stringify(o, tab) =\n%s\nwant\n%s", got, want)
	}
	if got := string(AppendStringify([]byte("x="), o, "  ")); got != "x="+want {
		t.Errorf("AppendStringify = %q, want %q", got, "x="+want)
	}
	if got, want := string(Stringify(inner, "")), `{"k":[true,null,1.5,[],{}],"s":["x","y"],"e":[]}`; got != want {
		t.Errorf("compact = %s, want %s", got, want)
	}
}
