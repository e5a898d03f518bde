package composite

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestParseJSONErrorsAreNodes pins parseJSON's messages to those of Node
// 22's JSON.parse on the same text (the oracle's node, v22.23.5): upstream
// quotes them when a pi keybindings file does not parse
// (agents/pi/PiAdapter.ts:301). A differential run against that node on
// 60,000 random near-JSON texts and 20,000 random byte strings (ill-formed
// UTF-8 included) found no other difference than the one documented on
// [JSONSyntaxError]'s unexpected token: a lone surrogate, which a Go
// string cannot hold, is printed as U+FFFD.
func TestParseJSONErrorsAreNodes(t *testing.T) {
	t.Parallel()
	cases := []struct{ text, want string }{
		{"", "Unexpected end of JSON input"},
		{"{\n", "Expected property name or '}' in JSON at position 2 (line 2 column 1)"},
		{"{", "Expected property name or '}' in JSON at position 1 (line 1 column 2)"},
		{"[1", "Expected ',' or ']' after array element in JSON at position 2 (line 1 column 3)"},
		{"[1,]", "Unexpected token ']', \"[1,]\" is not valid JSON"},
		{"{\"a\":1,}", "Expected double-quoted property name in JSON at position 7 (line 1 column 8)"},
		{"{\"a\" 1}", "Expected ':' after property name in JSON at position 5 (line 1 column 6)"},
		{"{\"a\":1 \"b\":2}", "Expected ',' or '}' after property value in JSON at position 7 (line 1 column 8)"},
		{"[1 2]", "Expected ',' or ']' after array element in JSON at position 3 (line 1 column 4)"},
		{"[\x01]", "Unexpected token '\x01', \"[\x01]\" is not valid JSON"},
		// Ill-formed UTF-8 decodes to one U+FFFD per maximal subpart, as
		// Node's reading of the file does (positions checked with Node):
		// a lead byte and the continuations that could have completed it.
		{"[\"\xE0\xA0\" 1]", "Expected ',' or ']' after array element in JSON at position 5 (line 1 column 6)"},
		{"[\"\xF0\x90\x80\" 1]", "Expected ',' or ']' after array element in JSON at position 5 (line 1 column 6)"},
		{"[\"\xE0\x80\" 1]", "Expected ',' or ']' after array element in JSON at position 6 (line 1 column 7)"},
		{"[\"a\"\r\n\r 1]", "Expected ',' or ']' after array element in JSON at position 8 (line 3 column 2)"},
		{"\"abc", "Unterminated string in JSON at position 4 (line 1 column 5)"},
		{"{} x", "Unexpected non-whitespace character after JSON at position 3 (line 1 column 4)"},
		{"\"\\x\"", "Bad escaped character in JSON at position 2 (line 1 column 3)"},
		{"\"a\tb\"", "Bad control character in string literal in JSON at position 2 (line 1 column 3)"},
		{"-", "No number after minus sign in JSON at position 1 (line 1 column 2)"},
		{"-x", "No number after minus sign in JSON at position 1 (line 1 column 2)"},
		{"1.", "Unterminated fractional number in JSON at position 2 (line 1 column 3)"},
		{"1e", "Exponent part is missing a number in JSON at position 2 (line 1 column 3)"},
		{"1e+", "Exponent part is missing a number in JSON at position 3 (line 1 column 4)"},
		{"01", "Unexpected number in JSON at position 1 (line 1 column 2)"},
		{"[01]", "Unexpected number in JSON at position 2 (line 1 column 3)"},
		{"tru", "Unexpected end of JSON input"},
		{"trx", "Unexpected token 'x', \"trx\" is not valid JSON"},
		{"tr\"", "Unexpected string in JSON at position 2 (line 1 column 3)"},
		{"undefined", "\"undefined\" is not valid JSON"},
		{"NaN", "\"NaN\" is not valid JSON"},
		{"   x   ", "Unexpected token 'x', \"   x   \" is not valid JSON"},
		{"{\"a\":tru}", "Unexpected token '}', \"{\"a\":tru}\" is not valid JSON"},
		{"\ufeff{}", "Unexpected token '\ufeff', \"\ufeff{}\" is not valid JSON"},
		{"\"\\u12g4\"", "Bad Unicode escape in JSON at position 5 (line 1 column 6)"},
		{"\"\\u12", "Bad Unicode escape in JSON at position 5 (line 1 column 6)"},
		{"\"\\", "Unexpected end of JSON input"},
		{"abcdefghijklmnopqrstuvwxyz", "Unexpected token 'a', \"abcdefghij\"... is not valid JSON"},
		{"{\"aaaaaaaaaaa\": x, \"bbbbbbbbbbbbbbb\": 1}", "Unexpected token 'x', ...\"aaaaaaa\": x, \"bbbbbb\"... is not valid JSON"},
		{"{\"aaaaaaaaaaaaaaaaaa\": x}", "Unexpected token 'x', ...\"aaaaaaa\": x}\" is not valid JSON"},
		{"[1,\r\n2,\r\n x]", "Unexpected token 'x', \"[1,\r\n2,\r\n x]\" is not valid JSON"},
		{"{\"a\":1}}", "Unexpected non-whitespace character after JSON at position 7 (line 1 column 8)"},
		{"[中]", "Unexpected token '中', \"[中]\" is not valid JSON"},
		{"\"\\中\"", "Unexpected token '中', \"\"\\中\"\" is not valid JSON"},
		{"{\"a\"}", "Expected ':' after property name in JSON at position 4 (line 1 column 5)"},
		{"{\"a\":}", "Unexpected token '}', \"{\"a\":}\" is not valid JSON"},
		{"{,}", "Expected property name or '}' in JSON at position 1 (line 1 column 2)"},
		{"t1", "Unexpected number in JSON at position 1 (line 1 column 2)"},
		{"-01", "Unexpected number in JSON at position 2 (line 1 column 3)"},
		{"1.5e3x", "Unexpected non-whitespace character after JSON at position 5 (line 1 column 6)"},
		{"[1}", "Expected ',' or ']' after array element in JSON at position 2 (line 1 column 3)"},
		{"{\r\n  \"a\": 1,\r\n  \"b\" 2\r\n}", "Expected ':' after property name in JSON at position 20 (line 3 column 7)"},
		{"\n\n\r\r]", "Unexpected token ']', \"\n\n\r\r]\" is not valid JSON"},
		// Ill-formed UTF-8: one U+FFFD per maximal subpart, as Node decodes.
		{"[\xc0\xaf]", "Unexpected token '\ufffd', \"[\ufffd\ufffd]\" is not valid JSON"},
		{"{\"a\":\"\xe2\x82\",}", "Expected double-quoted property name in JSON at position 9 (line 1 column 10)"},
		// Each lead byte class: a truncated sequence is one U+FFFD, a byte
		// that cannot continue it (an overlong or surrogate second byte,
		// above U+10FFFF) ends it, and a byte that is no lead is one alone.
		{"[\xc2]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xdf\xc0]", "Unexpected token '\ufffd', \"[\ufffd\ufffd]\" is not valid JSON"},
		{"[\xe0\x80\x80]", "Unexpected token '\ufffd', \"[\ufffd\ufffd\ufffd]\" is not valid JSON"},
		{"[\xe0\xa0]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xe1\x80]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xee\x80]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xed\xa0\x80]", "Unexpected token '\ufffd', \"[\ufffd\ufffd\ufffd]\" is not valid JSON"},
		{"[\xed\x9f]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xf0\x80\x80]", "Unexpected token '\ufffd', \"[\ufffd\ufffd\ufffd]\" is not valid JSON"},
		{"[\xf0\x90\x80]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xf1\x80\x80]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xf3\xbf\xbf]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xf4\x90\x80]", "Unexpected token '\ufffd', \"[\ufffd\ufffd\ufffd]\" is not valid JSON"},
		{"[\xf4\x8f\xbf]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		{"[\xf5\x80]", "Unexpected token '\ufffd', \"[\ufffd\ufffd]\" is not valid JSON"},
		{"[\xff]", "Unexpected token '\ufffd', \"[\ufffd]\" is not valid JSON"},
		// Positions count UTF-16 code units: an astral character is two.
		{"\"😀\" x", "Unexpected non-whitespace character after JSON at position 5 (line 1 column 6)"},
		{"[\"😀\", \"€\" 1]", "Expected ',' or ']' after array element in JSON at position 11 (line 1 column 12)"},
		// Upper-case hex digits, and the escapes of control characters.
		{"\"\\uABCG\"", "Bad Unicode escape in JSON at position 6 (line 1 column 7)"},
		{"\"\\uabcG\"", "Bad Unicode escape in JSON at position 6 (line 1 column 7)"},
		{"\"\\b\\f\\r\\t\\uFFFD\" x", "Unexpected non-whitespace character after JSON at position 17 (line 1 column 18)"},
		// The bounds of V8's message shapes (checked with Node): a number's first
		// character, escapes either side of U+00FF, and texts and positions
		// either side of ten code units of context.
		{"t0", "Unexpected number in JSON at position 1 (line 1 column 2)"},
		{"t9", "Unexpected number in JSON at position 1 (line 1 column 2)"},
		{"[-]", "No number after minus sign in JSON at position 2 (line 1 column 3)"},
		{"\"\\ÿ\"", "Bad escaped character in JSON at position 2 (line 1 column 3)"},
		{"\"\\Ā\"", "Unexpected token 'Ā', \"\"\\Ā\"\" is not valid JSON"},
		{"x                   ", "Unexpected token 'x', \"x                   \" is not valid JSON"},
		{"                   x", "Unexpected token 'x', \"                   x\" is not valid JSON"},
		{"x                    ", "Unexpected token 'x', \"x         \"... is not valid JSON"},
		{"                    x", "Unexpected token 'x', ...\"          x\" is not valid JSON"},
		{"x                     ", "Unexpected token 'x', \"x         \"... is not valid JSON"},
		{"                     x", "Unexpected token 'x', ...\"          x\" is not valid JSON"},
		{"         x                    ", "Unexpected token 'x', \"         x         \"... is not valid JSON"},
		{"          x                   ", "Unexpected token 'x', ...\"          x         \"... is not valid JSON"},
		{"           x                  ", "Unexpected token 'x', ...\"          x         \"... is not valid JSON"},
		{"[1,1,1,1,1,1,1,1,x]          ", "Unexpected token 'x', ...\"1,1,1,1,1,x]        \"... is not valid JSON"},
		{"[1,1,1,1,1,1,1,1,1,x]         ", "Unexpected token 'x', ...\"1,1,1,1,1,x]        \"... is not valid JSON"},
		{"[1,1,1,1,1,1,1,1,1,x]        ", "Unexpected token 'x', ...\"1,1,1,1,1,x]        \" is not valid JSON"},
		{"[1,1,1,1,1,1,1,1,1,1,x]       ", "Unexpected token 'x', ...\"1,1,1,1,1,x]       \" is not valid JSON"},
	}
	for _, tc := range cases {
		_, err := parseJSON([]byte(tc.text))
		var se *JSONSyntaxError
		if !errors.As(err, &se) {
			t.Errorf("parseJSON(%q) = %v, want a *JSONSyntaxError", tc.text, err)
			continue
		}
		if se.Error() != tc.want {
			t.Errorf("parseJSON(%q):\n got %q\nwant %q", tc.text, se.Error(), tc.want)
		}
	}
}

// TestParseJSONValues checks the values parseJSON builds: JavaScript's key
// order and duplicate keys, escapes, numbers out of float64's range.
func TestParseJSONValues(t *testing.T) {
	t.Parallel()
	cases := []struct{ text, want string }{
		{` {"b": 1, "2": [true, false, null], "a": "x\u00e9\n", "b": 2} `, `{"2":[true,false,null],"b":2,"a":"xé\n"}`},
		{`[1e400, -1e400, 1e-400, -0, 0.5e1]`, `[null,null,0,0,5]`},
		{`[19, 0.09, 9E+9, -9]`, `[19,0.09,9000000000,-9]`},
		{`"\ud83d\ude00 \/"`, `"😀 /"`},
		{`["\b\f\r\t", "\u00C9\u00e9\u0041"]`, `["\b\f\r\t","ÉéA"]`},
		{`"\u00ff\u00FF\u0039"`, `"ÿÿ9"`},
	}
	for _, tc := range cases {
		v, err := parseJSON([]byte(tc.text))
		if err != nil {
			t.Errorf("parseJSON(%q): %v", tc.text, err)
			continue
		}
		if got := compactJSON(v); got != tc.want {
			t.Errorf("parseJSON(%q) stringifies as %s, want %s", tc.text, got, tc.want)
		}
	}
}

// TestNodeUTF16MatchesNode checks nodeUTF16 on ill-formed UTF-8 around
// every boundary of the lead and continuation bytes against Node's own
// decoding: testdata/node-utf8-decoding.json holds, for each byte
// sequence (hex), the UTF-16 units of Buffer.from(bytes).toString("utf8")
// in Node 20 (lead bytes C1 C2 DF E0 E1 EC ED EE EF F0 F1 F3 F4 F5, a
// first continuation 7F 80 8F 90 9F A0 BF or C0, then up to two 80, then
// "x").
func TestNodeUTF16MatchesNode(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/node-utf8-decoding.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][2]string
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	// Sequences cut by the end of the text, also from Node.
	rows = append(rows, [2]string{"f090", "fffd"}, [2]string{"e0a0", "fffd"}, [2]string{"f09080", "fffd"}, [2]string{"c2", "fffd"})
	if len(rows) < 300 {
		t.Fatalf("%d rows of Node's decoding, want the whole table", len(rows))
	}
	for _, row := range rows {
		in, err := hex.DecodeString(row[0])
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range nodeUTF16(in) {
			got = append(got, fmt.Sprintf("%04x", u))
		}
		if strings.Join(got, " ") != row[1] {
			t.Errorf("nodeUTF16(%s) = %s, Node gives %s", row[0], strings.Join(got, " "), row[1])
		}
	}
}
