package resolve

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
	var b strings.Builder
	if s, ok := v.(string); ok {
		b.Grow(len(s) + 2) // the quotes; escapes grow it again
	}
	writeJS(&b, v, indent, "")
	return []byte(b.String())
}

// MarshalJSON encodes the object compactly, keys in order.
func (o *Object) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	return Stringify(o, ""), nil
}

func writeJS(b *strings.Builder, v any, indent, prefix string) {
	inner := prefix + indent
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case float64:
		b.WriteString(jsonNumber(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case string:
		writeJSString(b, v)
	case []string:
		list := make([]any, len(v))
		for i, s := range v {
			list[i] = s
		}
		writeJS(b, list, indent, prefix)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent, inner)
			writeJS(b, e, indent, inner)
		}
		newline(b, indent, prefix)
		b.WriteByte(']')
	case *Object:
		if v == nil {
			b.WriteString("null")
			return
		}
		if v.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, e := range v.entries {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent, inner)
			writeJSString(b, e.key)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			writeJS(b, e.val, indent, inner)
		}
		newline(b, indent, prefix)
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

func newline(b *strings.Builder, indent, prefix string) {
	if indent == "" {
		return
	}
	b.WriteByte('\n')
	b.WriteString(prefix)
}

func jsonNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	return formatNumber(f)
}

// formatNumber renders f as JavaScript's Number.prototype.toString does.
func formatNumber(f float64) string {
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

func writeJSString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if c < 0x20 {
					b.WriteString(`\u00`)
					b.WriteByte(hexDigits[c>>4])
					b.WriteByte(hexDigits[c&0xf])
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
