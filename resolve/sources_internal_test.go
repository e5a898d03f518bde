package resolve

import (
	"slices"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"
)

// TestPropCompareUTF16 checks compareUTF16 against the order of the
// strings' UTF-16 encodings (JavaScript's default sort), ASCII fast path
// included.
func TestPropCompareUTF16(t *testing.T) {
	t.Parallel()
	text := rapid.StringOf(rapid.SampledFrom([]rune{'a', 'b', 'Z', '-', '.', 'é', '\uFFFD', '\uE000', '\uD7FF', '😀', '𐀀'}))
	rapid.Check(t, func(t *rapid.T) {
		a, b := text.Draw(t, "a"), text.Draw(t, "b")
		if rapid.Bool().Draw(t, "invalid UTF-8") {
			a += "\xff"
		}
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := compareUTF16(a, b); sign(got) != want {
			t.Fatalf("compareUTF16(%q, %q) = %d, want sign %d", a, b, got, want)
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
