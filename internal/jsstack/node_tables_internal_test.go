package jsstack

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"strconv"
	"syscall"
	"testing"
)

// The tests of this file check the twins against tables that Node 22
// produced (testdata/node-tables.mjs writes them; see the package doc for
// the command).

// readTable decodes testdata/name into v and fails unless it holds at
// least rows.
func readTable[T any](t testing.TB, name string, least int) []T {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var rows []T
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(rows) < least {
		t.Fatalf("%s holds %d rows, want at least %d: regenerate it", name, len(rows), least)
	}
	return rows
}

// TestParseJSONMatchesNode: on every text of testdata/node-jsonparse.json
// (the bounds of each of V8's messages, ill-formed UTF-8, positions in
// UTF-16 units, CRLF line counting, the ten units of context either side
// of an unexpected token), ParseJSON fails with Node's JSON.parse message
// or builds the value whose JSON.stringify is Node's.
func TestParseJSONMatchesNode(t *testing.T) {
	t.Parallel()
	type row struct{ Hex, Error, Value string }
	rows := readTable[row](t, "node-jsonparse.json", 99)
	errs := 0
	for _, r := range rows {
		in, err := hex.DecodeString(r.Hex)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ParseJSON(in)
		if r.Error != "" {
			errs++
			var se *JSONSyntaxError
			if !errors.As(err, &se) {
				t.Errorf("ParseJSON(%q) = %v, want a *JSONSyntaxError", in, err)
			} else if se.Error() != r.Error {
				t.Errorf("ParseJSON(%q):\n got %q\nnode %q", in, se.Error(), r.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseJSON(%q): %v, node parses it as %s", in, err, r.Value)
		} else if got := string(Stringify(v, "")); got != r.Value {
			t.Errorf("ParseJSON(%q) stringifies as %s, node %s", in, got, r.Value)
		}
	}
	if errs == 0 || errs == len(rows) {
		t.Fatalf("%d of %d rows are errors: the table should hold both", errs, len(rows))
	}
}

// TestNumbersMatchNode: NumberString is String(n) and Stringify is
// JSON.stringify(n) on every double of testdata/node-numbers.json (the
// bounds of the decimal notation, zeros, non-finite numbers, 2,000 random
// bit patterns and 500 short decimals at every scale).
func TestNumbersMatchNode(t *testing.T) {
	t.Parallel()
	rows := readTable[[3]string](t, "node-numbers.json", 2500)
	for _, r := range rows {
		bits, err := strconv.ParseUint(r[0], 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		f := math.Float64frombits(bits)
		if got := NumberString(f); got != r[1] {
			t.Errorf("NumberString(%s) = %q, String() gives %q", r[0], got, r[1])
		}
		if got := string(Stringify(f, "")); got != r[2] {
			t.Errorf("Stringify(%s) = %q, JSON.stringify gives %q", r[0], got, r[2])
		}
	}
}

// TestStringifyMatchesNode: the documents of testdata/node-stringify.json,
// read by ParseJSON, stringify as Node's JSON.stringify does compact and
// with two-space and tab indents (key order, nesting, empty containers,
// every ASCII character's escape).
func TestStringifyMatchesNode(t *testing.T) {
	t.Parallel()
	rows := readTable[[4]string](t, "node-stringify.json", 7)
	for _, r := range rows {
		v, err := ParseJSON([]byte(r[0]))
		if err != nil {
			t.Fatalf("ParseJSON(%s): %v", r[0], err)
		}
		for i, indent := range []string{"", "  ", "\t"} {
			if got := string(Stringify(v, indent)); got != r[1+i] {
				t.Errorf("Stringify(%s, %q) =\n%s\nJSON.stringify gives\n%s", r[0], indent, got, r[1+i])
			}
		}
	}
}

// TestKeyOrderMatchesNode: after each sequence of sets ("+k") and deletes
// ("-k") of testdata/node-keyorder.json, an Object's keys are in the order
// of Object.keys of a JavaScript object that had the same done to it.
func TestKeyOrderMatchesNode(t *testing.T) {
	t.Parallel()
	raw := readTable[[2][]string](t, "node-keyorder.json", 300)
	for _, r := range raw {
		o := NewObject()
		for i, op := range r[0] {
			if op[0] == '+' {
				o.Set(op[1:], float64(i))
			} else {
				o.Delete(op[1:])
			}
		}
		got := o.Keys()
		if len(got) != len(r[1]) {
			t.Errorf("after %q: keys %q, node %q", r[0], got, r[1])
			continue
		}
		for i := range got {
			if got[i] != r[1][i] {
				t.Errorf("after %q: keys %q, node %q", r[0], got, r[1])
				break
			}
		}
	}
}

// TestFSErrorMatchesNode: the errno names and texts are libuv's as Node
// 22 gives them (util.getSystemErrorMap), and FSError words each failure
// of testdata/node-errno.json as String() of the error Node's fs threw.
func TestFSErrorMatchesNode(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/node-errno.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Errnos map[string][2]string
		Thrown [][3]string
	}
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	byCode := map[string]syscall.Errno{}
	for errno, text := range nodeErrnos {
		byCode[text[0]] = errno
		if want, ok := table.Errnos[text[0]]; !ok || want != text {
			t.Errorf("%v: %q, node %q", errno, text, want)
		}
	}
	if len(byCode) != len(table.Errnos) || len(table.Thrown) < 10 {
		t.Fatalf("%d errnos of %d in the table, %d thrown errors: regenerate it", len(byCode), len(table.Errnos), len(table.Thrown))
	}
	for _, r := range table.Thrown {
		errno, ok := byCode[r[1]]
		if !ok {
			t.Fatalf("no errno for %s", r[1])
		}
		err := &fs.PathError{Op: r[0], Path: "NAME", Err: errno}
		if got := FSError(err, r[0], "NAME"); got != r[2] {
			t.Errorf("FSError(%s, %s) = %q, node %q", r[1], r[0], got, r[2])
		}
	}
}
