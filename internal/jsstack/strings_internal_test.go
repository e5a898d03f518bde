package jsstack

import (
	"slices"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"
)

// TestPropCompare checks Compare against the order of the
// strings' UTF-16 encodings (JavaScript's default sort), ASCII fast path
// included.
func TestPropCompare(t *testing.T) {
	t.Parallel()
	text := rapid.StringOf(rapid.SampledFrom([]rune{'a', 'b', 'Z', '-', '.', 'é', '\uFFFD', '\uE000', '\uD7FF', '😀', '𐀀'}))
	rapid.Check(t, func(t *rapid.T) {
		a, b := text.Draw(t, "a"), text.Draw(t, "b")
		if rapid.Bool().Draw(t, "invalid UTF-8") {
			a += "\xff"
		}
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := Compare(a, b); sign(got) != want {
			t.Fatalf("Compare(%q, %q) = %d, want sign %d", a, b, got, want)
		}
	})
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// TestIsSpaceMatchesNode: IsSpace holds for exactly the code points of
// testdata/node-space.json, those String.prototype.trim removes in Node
// 22 (surrogates aside, which a Go rune never is).
func TestIsSpaceMatchesNode(t *testing.T) {
	t.Parallel()
	rows := readTable[int](t, "node-space.json", 20)
	want := map[rune]bool{}
	for _, c := range rows {
		want[rune(c)] = true
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if IsSpace(r) != want[r] {
			t.Errorf("IsSpace(%U) = %v, Node's trim says %v", r, IsSpace(r), want[r])
		}
	}
	if got := Trim("\ufeff\u00a0 x\u2028"); got != "x" {
		t.Errorf("Trim = %q, want x", got)
	}
	if got := TrimEnd("\u0085x\u0085 \t"); got != "\u0085x\u0085" {
		t.Errorf("TrimEnd = %q: U+0085 is no JavaScript white space", got)
	}
}

// TestCompareMatchesNode: sorting with Compare gives the order of
// JavaScript's default sort on every list of testdata/node-sort.json.
func TestCompareMatchesNode(t *testing.T) {
	t.Parallel()
	for _, want := range readTable[[]string](t, "node-sort.json", 300) {
		got := slices.Clone(want)
		slices.Reverse(got)
		slices.SortStableFunc(got, Compare)
		if !slices.Equal(got, want) {
			t.Errorf("sorted %q, Node sorts %q", got, want)
		}
	}
}

// TestBasenameMatchesNode: Basename is path.basename on every name of
// testdata/node-basename.json.
func TestBasenameMatchesNode(t *testing.T) {
	t.Parallel()
	for _, r := range readTable[[2]string](t, "node-basename.json", 16) {
		if got := Basename(r[0]); got != r[1] {
			t.Errorf("Basename(%q) = %q, Node %q", r[0], got, r[1])
		}
	}
}
