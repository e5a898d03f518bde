package jsstack

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Compare orders strings by UTF-16 code units, as JavaScript's default
// sort (and so Node's) does: a negative number when a sorts first, 0
// when they are equal, a positive number else. A Go string's runes
// stand for their UTF-16 units (a supplementary character, two
// surrogates, sorts after U+D7FF and before U+E000).
func Compare(a, b string) int {
	if ascii(a) && ascii(b) { // one UTF-16 unit per byte
		return strings.Compare(a, b)
	}
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if ra[i] == rb[i] {
			continue
		}
		return utf16Key(ra[i]) - utf16Key(rb[i])
	}
	return len(ra) - len(rb)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		// A lone 0x80 (">") sorts after every ASCII character either
		// way, as its U+FFFD does.
		//mutants:equivalent CONDITIONALS_BOUNDARY
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// utf16Key maps a rune to an order-preserving key of its UTF-16 encoding:
// supplementary runes (high surrogate first) sort after U+D7FF and before
// U+E000.
func utf16Key(r rune) int {
	switch {
	// "r <= 0xD800" is the same: a Go string decodes no surrogate, so r
	// is never 0xD800.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	case r < 0xD800:
		return int(r)
	case r >= 0x10000:
		return 0xD800 + int(r)
	}
	return int(r) + 0x110000
}

// IsSpace reports whether JavaScript's String.prototype.trim removes r
// (ECMAScript's WhiteSpace and LineTerminator): Unicode white space and
// line terminators and the byte order mark, but not the next-line control
// U+0085.
func IsSpace(r rune) bool {
	return r == '\uFEFF' || r != '\u0085' && unicode.IsSpace(r)
}

// Trim is JavaScript's String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, IsSpace) }

// TrimEnd is JavaScript's String.prototype.trimEnd.
func TrimEnd(s string) string { return strings.TrimRightFunc(s, IsSpace) }

// Basename is Node's path.basename(p) (POSIX): the last name, trailing
// slashes ignored; "" for "" and for "/".
func Basename(p string) string {
	p = strings.TrimRight(p, "/")
	return p[strings.LastIndexByte(p, '/')+1:]
}
