package writeback

import (
	"testing"

	"pgregory.net/rapid"
)

// TestPropComparePrefixShortcut checks that Compare, which skips the
// common prefix of its arguments, orders them as the comparison of the
// whole strings does, on strings that share a prefix and mix ASCII,
// ignorable controls, multi-byte characters and invalid UTF-8.
func TestPropComparePrefixShortcut(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "A", "b", "/", "-", ".", "0", "\x01", "é", "É", "€", "\xe2\x82", "\xac", "\xff", ""}
	str := rapid.Custom(func(t *rapid.T) string {
		s := ""
		for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 6).Draw(t, "pieces") {
			s += p
		}
		return s
	})
	rapid.Check(t, func(t *rapid.T) {
		prefix, a, b := str.Draw(t, "prefix"), str.Draw(t, "a"), str.Draw(t, "b")
		a, b = prefix+a, prefix+b
		if got, want := Compare(a, b), compareWhole(a, b); got != want {
			t.Fatalf("Compare(%q, %q) = %d, whole strings %d", a, b, got, want)
		}
	})
}
