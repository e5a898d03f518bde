package writeback

import (
	"strings"
	"unicode/utf8"
)

// asciiOrder lists the non-ignorable ASCII characters in the order of the
// root collation of the Unicode CLDR (what ICU and JavaScript's
// localeCompare use): whitespace, punctuation and symbols, digits, then
// letters, each lowercase letter just before its uppercase form.
const asciiOrder = "\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789" +
	"aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"

// primaryASCII holds the primary weight of each ASCII byte; zero marks an
// ignorable control character. Upper and lower case share a weight.
// tertiaryASCII is 1 for uppercase letters. Both are filled once by
// weights and never written afterwards.
var primaryASCII, tertiaryASCII = weights()

func weights() (primary, tertiary [128]int32) {
	w := int32(0)
	for i := 0; i < len(asciiOrder); i++ {
		c := asciiOrder[i]
		if 'A' <= c && c <= 'Z' {
			primary[c] = primary[c+'a'-'A']
			tertiary[c] = 1
			continue
		}
		w++
		primary[c] = w
	}
	return primary, tertiary
}

// nonASCII is the primary weight base of characters outside ASCII: they
// sort after every ASCII character, by code point.
const nonASCII = 1 << 8

// Compare orders two paths as JavaScript's a.localeCompare(b) does with
// ICU's root collation, the order in which upstream sorts issues:
// punctuation and symbols before digits before letters, letters compared
// case-insensitively first and lowercase before uppercase on a tie, a
// proper prefix before the longer string, control characters ignored.
// "10" sorts before "9" (digits are characters, not numbers).
//
// The order is exact for ASCII. Characters outside ASCII sort after all
// ASCII characters by code point (ICU would interleave accented letters
// with their base letters). Where ICU reports equality, Compare breaks the
// tie by byte order, so it is a total order.
func Compare(a, b string) int {
	// Every character has its own weights, so a common prefix weighs the
	// same in both strings at every level: compare what follows it. The
	// cut is made after an ASCII byte, which no UTF-8 sequence spans.
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	for k > 0 && a[k-1] >= utf8.RuneSelf {
		k--
	}
	return compareWhole(a[k:], b[k:])
}

// compareWhole is Compare without the shortcut of the common prefix.
func compareWhole(a, b string) int {
	if c := compareLevel(a, b, primaryWeight); c != 0 {
		return c
	}
	if c := compareLevel(a, b, tertiaryWeight); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// compareLevel compares the weight sequences of a and b at one level,
// skipping ignorable characters (weight -1).
func compareLevel(a, b string, weight func(r rune) int32) int {
	for {
		wa, na := nextWeight(a, weight)
		wb, nb := nextWeight(b, weight)
		a, b = a[na:], b[nb:]
		switch {
		// Both strings end together on the tertiary level, whose weights
		// may be 0: the primary level found as many weights in each. So
		// "wa <= 0" or "wb <= 0" here is the same.
		//mutants:equivalent CONDITIONALS_BOUNDARY
		case wa < 0 && wb < 0:
			return 0
		case wa < 0:
			return -1
		case wb < 0:
			return 1
		case wa < wb:
			return -1
		case wa > wb:
			return 1
		}
	}
}

// nextWeight returns the weight of the first non-ignorable character of s
// and the number of bytes up to and including it, or -1 at the end.
func nextWeight(s string, weight func(r rune) int32) (int32, int) {
	for n := 0; n < len(s); {
		r, size := utf8.DecodeRuneInString(s[n:])
		n += size
		if w := weight(r); w >= 0 {
			return w, n
		}
	}
	return -1, len(s)
}

func primaryWeight(r rune) int32 {
	if r < 128 {
		if w := primaryASCII[r]; w != 0 {
			return w
		}
		return -1
	}
	return nonASCII + r
}

func tertiaryWeight(r rune) int32 {
	if r < 128 {
		if primaryASCII[r] == 0 {
			return -1
		}
		return tertiaryASCII[r]
	}
	return 0
}
