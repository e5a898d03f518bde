package jsstack

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Stringify encodes a document value (nil, bool, float64, string, []any,
// *Object, plus the Go integer types) exactly as JavaScript's
// JSON.stringify(value, null, indent) does: object keys in [Object] order,
// numbers in JavaScript notation, non-finite numbers as null, and only the
// characters JSON requires escaped. An empty indent gives the compact form.
// Values of other types encode as null.
func Stringify(v any, indent string) []byte {
	var b []byte
	if s, ok := v.(string); ok {
		b = make([]byte, 0, len(s)+2) // the quotes; escapes grow it again
	}
	return AppendStringify(b, v, indent)
}

// AppendStringify appends [Stringify] of v with indent to dst and returns
// the extended buffer.
func AppendStringify(dst []byte, v any, indent string) []byte {
	return appendJS(dst, v, indent, 0)
}

// MarshalJSON encodes the object compactly, keys in order.
func (o *Object) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	return Stringify(o, ""), nil
}

// appendJS appends v encoded at nesting depth depth.
func appendJS(b []byte, v any, indent string, depth int) []byte {
	switch v := v.(type) {
	case nil:
		b = append(b, "null"...)
	case bool:
		b = strconv.AppendBool(b, v)
	case float64:
		b = appendJSONNumber(b, v)
	case int:
		b = strconv.AppendInt(b, int64(v), 10)
	case int64:
		b = strconv.AppendInt(b, v, 10)
	case string:
		b = AppendString(b, v)
	case []string:
		if len(v) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, indent, depth+1)
			b = AppendString(b, s)
		}
		b = newline(b, indent, depth)
		b = append(b, ']')
	case []any:
		if len(v) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, indent, depth+1)
			b = appendJS(b, e, indent, depth+1)
		}
		b = newline(b, indent, depth)
		b = append(b, ']')
	case *Object:
		if v == nil {
			return append(b, "null"...)
		}
		if v.Len() == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, e := range v.entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, indent, depth+1)
			b = AppendString(b, e.key)
			b = append(b, ':')
			if indent != "" {
				b = append(b, ' ')
			}
			b = appendJS(b, e.val, indent, depth+1)
		}
		b = newline(b, indent, depth)
		b = append(b, '}')
	default:
		b = append(b, "null"...)
	}
	return b
}

// newline appends, when indenting, a newline and depth indents.
func newline(b []byte, indent string, depth int) []byte {
	if indent == "" {
		return b
	}
	b = append(b, '\n')
	for range depth {
		b = append(b, indent...)
	}
	return b
}

// appendJSONNumber appends f as JSON.stringify writes a number.
func appendJSONNumber(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	// formatNumber's notation, without its string: at 1e-6 both write
	// 0.000001, so > 1e-6 (a mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY@29
	if abs := math.Abs(f); abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	return append(b, NumberString(f)...)
}

// NumberString renders f as JavaScript's Number.prototype.toString does
// (String(f)).
func NumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as JSON.stringify writes a string: quoted, with
// only the characters JSON requires escaped and ill-formed UTF-8 as
// \ufffd.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, `\"`...)
			case '\\':
				b = append(b, `\\`...)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				if c < 0x20 {
					b = append(b, `\u00`...)
					b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
				} else {
					b = append(b, c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
