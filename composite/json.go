package composite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/outfitter-go/vfsim/resolve"
)

// parseJSON decodes one JSON document into the value shapes of
// [resolve.Object]: nil, bool, float64, string, []any and *resolve.Object,
// with JavaScript's key order.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of JSON input")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := resolve.NewObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %q", t)
	default:
		return t, nil
	}
}

// json2 is JSON.stringify(v, null, 2) followed by a newline.
func json2(v any) string {
	var b strings.Builder
	writeJSON(&b, v, "\n", "  ")
	b.WriteByte('\n')
	return b.String()
}

// compactJSON is JSON.stringify(v) without indentation.
func compactJSON(v any) string {
	var b strings.Builder
	writeJSON(&b, v, "", "")
	return b.String()
}

// stableJSON is JSON with object keys sorted, used for identities.
func stableJSON(v any) string {
	var b strings.Builder
	writeStable(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v any, nl, indent string) {
	switch v := v.(type) {
	case *resolve.Object:
		if v.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		inner := nl + indent
		for i, k := range v.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			if nl != "" {
				b.WriteString(inner)
			}
			writeString(b, k)
			b.WriteByte(':')
			if nl != "" {
				b.WriteByte(' ')
			}
			e, _ := v.Get(k)
			writeJSON(b, e, inner, indent)
		}
		if nl != "" {
			b.WriteString(nl)
		}
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		inner := nl + indent
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if nl != "" {
				b.WriteString(inner)
			}
			writeJSON(b, e, inner, indent)
		}
		if nl != "" {
			b.WriteString(nl)
		}
		b.WriteByte(']')
	case []string:
		list := make([]any, len(v))
		for i, s := range v {
			list[i] = s
		}
		writeJSON(b, list, nl, indent)
	default:
		writeScalar(b, v)
	}
}

func writeStable(b *strings.Builder, v any) {
	switch v := v.(type) {
	case *resolve.Object:
		keys := v.Keys()
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			e, _ := v.Get(k)
			writeStable(b, e)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeStable(b, e)
		}
		b.WriteByte(']')
	default:
		writeScalar(b, v)
	}
}

func writeScalar(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writeString(b, v)
	case float64:
		b.WriteString(jsNumber(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	default:
		// Values outside the document shapes serialize as null, as
		// JSON.stringify does for functions and symbols inside arrays.
		b.WriteString("null")
	}
}

// jsNumber formats f as JavaScript's Number.prototype.toString does.
func jsNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		return mant + "e" + string(sign) + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(b, `\u%04x`, 0xfffd)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
