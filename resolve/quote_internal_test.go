package resolve

import (
	"strings"
	"testing"
)

// TestHasControlAsRunes holds hasControl to the rune by rune definition
// (isControl, newlines and tabs left out of a text) on every byte, the
// runes around the C1 range and U+FFFD, truncated and invalid sequences,
// alone and inside printable text.
func TestHasControlAsRunes(t *testing.T) {
	t.Parallel()
	var pieces []string
	for b := range 256 {
		pieces = append(pieces, string([]byte{byte(b)}))
	}
	for _, r := range []rune{0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xE9, 0x2028, 0xFFFD, 0xFFFE, 0x10FFFF} {
		pieces = append(pieces, string(r))
	}
	pieces = append(pieces, "\xc3", "\xe2\x80", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\xaf", "caf\u00e9", "e\u0301")
	for _, p := range pieces {
		for _, s := range []string{p, "a " + p, p + " z", "line\n" + p + "\tend"} {
			for _, text := range []bool{false, true} {
				want := strings.ContainsFunc(s, func(r rune) bool { return !(text && (r == '\n' || r == '\t')) && isControl(r) })
				if got := hasControl(s, text); got != want {
					t.Errorf("hasControl(%q, %v) = %v, want %v", s, text, got, want)
				}
			}
		}
	}
}
