package jsstack

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The built-in filters of LiquidJS (src/filters).

type lqFilterCall struct{ ctx *lqCtx }

// lqFilterFunc is a filter: the value and the evaluated arguments (a
// key-value argument is the array [key, value], as LiquidJS passes it).
type lqFilterFunc func(fc *lqFilterCall, v any, args []any) (any, error)

func lqArg(args []any, i int) any {
	if i < len(args) {
		return args[i]
	}
	return lqUndefined
}

var lqFilters map[string]lqFilterFunc

func init() {
	str := func(f func(s string) string) lqFilterFunc {
		return func(_ *lqFilterCall, v any, _ []any) (any, error) { return f(lqStringify(v)), nil }
	}
	num := func(f func(xs []float64) float64) lqFilterFunc {
		return func(_ *lqFilterCall, v any, args []any) (any, error) {
			xs := []float64{lqToNumber(v)}
			for _, a := range args {
				xs = append(xs, lqToNumber(a))
			}
			return f(xs), nil
		}
	}
	at := func(xs []float64, i int) float64 {
		if i < len(xs) {
			return xs[i]
		}
		return 0
	}
	lqFilters = map[string]lqFilterFunc{
		// html
		"escape":        str(lqEscape),
		"xml_escape":    str(lqEscape),
		"escape_once":   str(func(s string) string { return lqEscape(lqUnescape(s)) }),
		"newline_to_br": str(func(s string) string { return lqNewlineRE().ReplaceAllString(s, "<br />\n") }),
		"strip_html":    str(lqStripHTML),
		// math
		"abs": num(func(xs []float64) float64 { return math.Abs(xs[0]) }),
		"at_least": num(func(xs []float64) float64 {
			return lqMathFold(xs, math.Max)
		}),
		"at_most": num(func(xs []float64) float64 {
			return lqMathFold(xs, math.Min)
		}),
		"ceil": num(func(xs []float64) float64 { return math.Ceil(xs[0]) }),
		"divided_by": num(func(xs []float64) float64 {
			if at(xs, 2) != 0 {
				return math.Floor(xs[0] / at(xs, 1))
			}
			return xs[0] / at(xs, 1)
		}),
		"floor":  num(func(xs []float64) float64 { return math.Floor(xs[0]) }),
		"minus":  num(func(xs []float64) float64 { return xs[0] - at(xs, 1) }),
		"plus":   num(func(xs []float64) float64 { return xs[0] + at(xs, 1) }),
		"modulo": num(func(xs []float64) float64 { return math.Mod(xs[0], at(xs, 1)) }),
		"times":  num(func(xs []float64) float64 { return xs[0] * at(xs, 1) }),
		"round": func(_ *lqFilterCall, v any, args []any) (any, error) {
			x := lqToNumber(v)
			amp := math.Pow(10, lqToNumber(lqArg(args, 0)))
			return lqMathRound(x*amp*(1+2.220446049250313e-16)) / amp, nil
		},
		// url
		"url_decode": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			s, err := lqDecodeURIComponent(lqStringify(v))
			if err != nil {
				return nil, err
			}
			return strings.ReplaceAll(s, "+", " "), nil
		},
		"url_encode": str(func(s string) string {
			return strings.ReplaceAll(lqEncodeURI(s, lqURIComponentSafe), "%20", "+")
		}),
		"cgi_escape": str(func(s string) string {
			s = strings.ReplaceAll(lqEncodeURI(s, lqURIComponentSafe), "%20", "+")
			return strings.NewReplacer("!", "%21", "'", "%27", "(", "%28", ")", "%29", "*", "%2A").Replace(s)
		}),
		"uri_escape": str(func(s string) string {
			return strings.NewReplacer("%5B", "[", "%5D", "]").Replace(lqEncodeURI(s, lqURISafe))
		}),
		"slugify": lqSlugify,
		// array
		"join": func(_ *lqFilterCall, v any, args []any) (any, error) {
			arr := lqToArray(v)
			arg := lqToValue(lqArg(args, 0))
			sep := " "
			if !lqIsNil(arg) {
				sep = lqStringify(arg)
			}
			return lqJoin(arr, sep), nil
		},
		"last": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			v = lqToValue(v)
			switch x := v.(type) {
			case []any:
				if len(x) == 0 {
					return lqUndefined, nil
				}
				return x[len(x)-1], nil
			case string:
				u := lqU16(x)
				if len(u) == 0 {
					return "", nil // isArrayLike('') is false
				}
				return lqFromU16(u[len(u)-1:]), nil
			}
			return "", nil
		},
		"first": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			v = lqToValue(v)
			switch x := v.(type) {
			case []any:
				if len(x) == 0 {
					return lqUndefined, nil
				}
				return x[0], nil
			case string:
				u := lqU16(x)
				if len(u) == 0 {
					return "", nil // isArrayLike('') is false
				}
				return lqFromU16(u[:1]), nil
			}
			return "", nil
		},
		"reverse": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			arr := slices.Clone(lqToArray(v))
			slices.Reverse(arr)
			return lqNonNil(arr), nil
		},
		"sort":         func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.sortBy(v, lqArg(args, 0), false) },
		"sort_natural": func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.sortBy(v, lqArg(args, 0), true) },
		"size": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			if !lqTruthyJS(v) {
				return 0.0, nil
			}
			var n any = lqUndefined
			switch x := v.(type) {
			case string:
				n = float64(lqLen(x))
			case []any:
				n = float64(len(x))
			case *lqForloop:
				n = float64(x.length)
			default:
				n = lqReadJS(v, "length")
			}
			if !lqTruthyJS(n) {
				return 0.0, nil
			}
			return n, nil
		},
		"map": func(fc *lqFilterCall, v any, args []any) (any, error) {
			arr := lqToArray(v)
			path := lqSplitPath(lqStringify(lqArg(args, 0)))
			out := make([]any, 0, len(arr))
			for _, item := range arr {
				x, _ := fc.ctx.getFromScope(item, path, false)
				out = append(out, x)
			}
			return out, nil
		},
		"sum": func(fc *lqFilterCall, v any, args []any) (any, error) {
			sum := 0.0
			prop := lqArg(args, 0)
			for _, item := range lqToArray(v) {
				x := item
				if lqTruthyJS(prop) {
					x, _ = fc.ctx.getFromScope(item, lqSplitPath(lqStringify(prop)), false)
				}
				d := lqToNumberJS(lqToPrimitive(lqToValue(x)))
				if !math.IsNaN(d) {
					sum += d
				}
			}
			return sum, nil
		},
		"compact": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			out := []any{}
			for _, x := range lqToArray(v) {
				if !lqIsNil(lqToValue(x)) {
					out = append(out, x)
				}
			}
			return out, nil
		},
		"concat": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqNonNil(append(slices.Clone(lqToArray(v)), lqToArray(lqArg(args, 0))...)), nil
		},
		"push": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return append(slices.Clone(lqToArray(v)), lqArg(args, 0)), nil
		},
		"unshift": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return append([]any{lqArg(args, 0)}, lqToArray(v)...), nil
		},
		"pop": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			arr := slices.Clone(lqToArray(v))
			if len(arr) > 0 {
				arr = arr[:len(arr)-1]
			}
			return lqNonNil(arr), nil
		},
		"shift": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			arr := slices.Clone(lqToArray(v))
			if len(arr) > 0 {
				arr = arr[1:]
			}
			return lqNonNil(arr), nil
		},
		"slice":          lqSliceFilter,
		"where":          func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.filter(true, v, args) },
		"reject":         func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.filter(false, v, args) },
		"where_exp":      func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.filterExp(true, v, args) },
		"reject_exp":     func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.filterExp(false, v, args) },
		"group_by":       func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.groupBy(v, args, false) },
		"group_by_exp":   func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.groupBy(v, args, true) },
		"has":            func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.search(v, args, false, 'h') },
		"has_exp":        func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.search(v, args, true, 'h') },
		"find_index":     func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.search(v, args, false, 'i') },
		"find_index_exp": func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.search(v, args, true, 'i') },
		"find":           func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.search(v, args, false, 'f') },
		"find_exp":       func(fc *lqFilterCall, v any, args []any) (any, error) { return fc.search(v, args, true, 'f') },
		"uniq": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			out := []any{}
			for _, x := range lqToArray(v) {
				if !slices.ContainsFunc(out, func(y any) bool { return lqSameValueZero(x, y) }) {
					out = append(out, x)
				}
			}
			return out, nil
		},
		"sample": func(_ *lqFilterCall, v any, args []any) (any, error) {
			v = lqToValue(v)
			if lqIsNil(v) {
				return []any{}, nil
			}
			var items []any
			if a, ok := v.([]any); ok {
				items = slices.Clone(a)
			} else {
				for _, r := range lqStringify(v) {
					items = append(items, string(r))
				}
			}
			rand.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
			count := lqArg(args, 0)
			if count == lqUndefined || count == 1.0 {
				if len(items) == 0 {
					return lqUndefined, nil
				}
				return items[0], nil
			}
			return lqSliceArray(items, 0.0, count), nil
		},
		// date
		"date": func(fc *lqFilterCall, v any, args []any) (any, error) {
			return lqDateFilter(v, lqArg(args, 0), lqArg(args, 1))
		},
		"date_to_xmlschema": func(fc *lqFilterCall, v any, _ []any) (any, error) {
			return lqDateFilter(v, "%Y-%m-%dT%H:%M:%S%:z", lqUndefined)
		},
		"date_to_rfc822": func(fc *lqFilterCall, v any, _ []any) (any, error) {
			return lqDateFilter(v, "%a, %d %b %Y %H:%M:%S %z", lqUndefined)
		},
		"date_to_string": func(fc *lqFilterCall, v any, args []any) (any, error) {
			return lqStringifyDate(v, "%b", lqArg(args, 0), lqArg(args, 1))
		},
		"date_to_long_string": func(fc *lqFilterCall, v any, args []any) (any, error) {
			return lqStringifyDate(v, "%B", lqArg(args, 0), lqArg(args, 1))
		},
		// string
		"append": func(_ *lqFilterCall, v any, args []any) (any, error) {
			if len(args) != 1 {
				return nil, lqErrorf("append expect 2 arguments")
			}
			return lqStringify(v) + lqStringify(args[0]), nil
		},
		"prepend": func(_ *lqFilterCall, v any, args []any) (any, error) {
			if len(args) != 1 {
				return nil, lqErrorf("prepend expect 2 arguments")
			}
			return lqStringify(args[0]) + lqStringify(v), nil
		},
		"lstrip": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqStrip(v, lqArg(args, 0), true, false), nil
		},
		"rstrip": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqStrip(v, lqArg(args, 0), false, true), nil
		},
		"strip": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqStrip(v, lqArg(args, 0), true, true), nil
		},
		"downcase": str(lqLower),
		"upcase":   str(lqUpper),
		"remove": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqReplaceAll(lqStringify(v), lqStringify(lqArg(args, 0)), ""), nil
		},
		"remove_first": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return strings.Replace(lqStringify(v), lqStringify(lqArg(args, 0)), "", 1), nil
		},
		"remove_last": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqReplaceLast(lqStringify(v), lqStringify(lqArg(args, 0)), ""), nil
		},
		"split": func(_ *lqFilterCall, v any, args []any) (any, error) {
			parts := lqSplit(lqStringify(v), lqStringify(lqArg(args, 0)))
			for len(parts) > 0 && parts[len(parts)-1] == "" {
				parts = parts[:len(parts)-1]
			}
			out := make([]any, len(parts))
			for i, p := range parts {
				out[i] = p
			}
			return out, nil
		},
		"strip_newlines": str(func(s string) string { return lqNewlineRE().ReplaceAllString(s, "") }),
		"capitalize": str(func(s string) string {
			u := lqU16(s)
			if len(u) == 0 {
				return ""
			}
			return lqUpper(lqFromU16(u[:1])) + lqLower(lqFromU16(u[1:]))
		}),
		"replace": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqReplaceAll(lqStringify(v), lqStringify(lqArg(args, 0)), lqStringify(lqArg(args, 1))), nil
		},
		"replace_first": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return strings.Replace(lqStringify(v), lqStringify(lqArg(args, 0)), lqStringify(lqArg(args, 1)), 1), nil
		},
		"replace_last": func(_ *lqFilterCall, v any, args []any) (any, error) {
			return lqReplaceLast(lqStringify(v), lqStringify(lqArg(args, 0)), lqStringify(lqArg(args, 1))), nil
		},
		"truncate":                 lqTruncate,
		"truncatewords":            lqTruncateWords,
		"normalize_whitespace":     str(func(s string) string { return lqSpacesRE().ReplaceAllString(s, " ") }),
		"number_of_words":          lqNumberOfWords,
		"array_to_sentence_string": lqArrayToSentence,
		// base64 and crypto
		"base64_encode": str(func(s string) string { return base64.StdEncoding.EncodeToString([]byte(lqWritten(s))) }),
		"base64_decode": str(lqBase64Decode),
		"sha256": str(func(s string) string {
			h := sha256.Sum256([]byte(lqWritten(s)))
			return hex.EncodeToString(h[:])
		}),
		"hmac_sha256": func(_ *lqFilterCall, v any, args []any) (any, error) {
			m := hmac.New(sha256.New, []byte(lqWritten(lqStringify(lqArg(args, 0)))))
			m.Write([]byte(lqWritten(lqStringify(v))))
			return hex.EncodeToString(m.Sum(nil)), nil
		},
		// misc
		"default": func(_ *lqFilterCall, v any, args []any) (any, error) {
			v = lqToValue(v)
			def := lqArg(args, 0)
			switch x := v.(type) {
			case string:
				if x == "" {
					return def, nil
				}
				return x, nil
			case []any:
				if len(x) == 0 {
					return def, nil
				}
				return x, nil
			}
			if v == false {
				allow, err := lqMapGet(args[min(1, len(args)):], "allow_false")
				if err != nil {
					return nil, err
				}
				if lqTruthyJS(allow) {
					return false, nil
				}
			}
			if lqIsFalsy(v) {
				return def, nil
			}
			return v, nil
		},
		"raw":     func(_ *lqFilterCall, v any, _ []any) (any, error) { return v, nil },
		"jsonify": lqJSONFilter,
		"json":    lqJSONFilter,
		"inspect": lqJSONFilter,
		"to_integer": func(_ *lqFilterCall, v any, _ []any) (any, error) {
			return lqToNumberJS(lqToPrimitive(lqToValue(v))), nil
		},
	}
}

// lqArrayToSentence is array_to_sentence_string, with the TypeErrors
// JavaScript throws for a value that is no array.
func lqArrayToSentence(_ *lqFilterCall, v any, args []any) (any, error) {
	conn := lqArg(args, 0)
	if conn == lqUndefined {
		conn = "and"
	}
	c := lqStringify(conn)
	var items []any
	switch x := v.(type) {
	case nil:
		return nil, lqErrorf("Cannot read properties of null (reading 'length')")
	case lqUndefinedValue:
		return nil, lqErrorf("Cannot read properties of undefined (reading 'length')")
	case []any:
		items = x
	case string:
		u := lqU16(x)
		for i := range u {
			items = append(items, lqFromU16(u[i:i+1]))
		}
		if len(items) > 2 {
			return nil, lqErrorf("array.slice(...).join is not a function")
		}
	default:
		return nil, lqErrorf("array.slice is not a function")
	}
	switch len(items) {
	case 0:
		return "", nil
	case 1:
		return items[0], nil
	case 2:
		return lqString(items[0]) + " " + c + " " + lqString(items[1]), nil
	}
	return lqJoin(items[:len(items)-1], ", ") + ", " + c + " " + lqString(items[len(items)-1]), nil
}

func lqNonNil(a []any) []any {
	if a == nil {
		return []any{}
	}
	return a
}

func lqMathFold(xs []float64, f func(a, b float64) float64) float64 {
	r := xs[0]
	for _, x := range xs[1:] {
		if math.IsNaN(x) || math.IsNaN(r) {
			return math.NaN()
		}
		r = f(r, x)
	}
	return r
}

// lqMathRound is Math.round.
func lqMathRound(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r := math.Floor(x)
	if x-r >= 0.5 {
		r++
	}
	return r
}

// lqJoin is Array.prototype.join.
func lqJoin(arr []any, sep string) string {
	parts := make([]string, len(arr))
	for i, e := range arr {
		if !lqIsNil(e) {
			parts[i] = lqString(e)
		}
	}
	return strings.Join(parts, sep)
}

func lqSameValueZero(a, b any) bool {
	if x, ok := a.(float64); ok {
		if y, ok := b.(float64); ok && math.IsNaN(x) && math.IsNaN(y) {
			return true
		}
	}
	return lqStrictEquals(a, b)
}

// lqMapGet is new Map(args).get(key).
func lqMapGet(args []any, key string) (any, error) {
	var found any = lqUndefined
	for _, a := range args {
		switch x := a.(type) {
		case []any:
			if len(x) > 0 && lqSameValueZero(x[0], key) {
				found = lqArg(x, 1)
			}
		case *Object:
			k, _ := x.Get("0")
			if lqSameValueZero(lqOrUndefined(x.Get("0")), key) || k == key {
				found = lqOrUndefined(x.Get("1"))
			}
		default:
			return nil, lqErrorf("Iterator value " + lqString(a) + " is not an entry object")
		}
	}
	return found, nil
}

var lqEscapeReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

func lqEscape(s string) string { return lqEscapeReplacer.Replace(s) }

var lqUnescapeRE = lqLazyRE(`&(amp|lt|gt|#34|#39);`)

func lqUnescape(s string) string {
	return lqUnescapeRE().ReplaceAllStringFunc(s, func(m string) string {
		return map[string]string{"&amp;": "&", "&lt;": "<", "&gt;": ">", "&#34;": `"`, "&#39;": "'"}[m]
	})
}

var (
	lqNewlineRE = lqLazyRE(`\r?\n`)
	lqSpacesRE  = lqLazyRE(`[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+`)
)

func lqStripHTML(s string) string {
	type block struct{ open, close string }
	blocks := []block{{"<script", "</script>"}, {"<style", "</style>"}, {"<!--", "-->"}, {"<", ">"}}
	var out strings.Builder
	i := 0
	for i < len(s) {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			return out.String() + s[i:]
		}
		lt += i
		out.WriteString(s[i:lt])
		for k := 0; k < len(blocks); k++ {
			b := blocks[k]
			if !strings.HasPrefix(s[lt:], b.open) {
				continue
			}
			if e := strings.Index(s[lt+len(b.open):], b.close); e >= 0 {
				i = lt + len(b.open) + e + len(b.close)
				break
			}
			blocks = slices.Delete(blocks, k, k+1)
			k--
		}
		if i <= lt {
			return out.String() + s[lt:]
		}
	}
	return out.String()
}

const (
	lqURIComponentSafe = "-_.!~*'()"
	lqURISafe          = "-_.!~*'();/?:@&=+$,#"
)

// lqEncodeURI is encodeURIComponent (safe lqURIComponentSafe) or encodeURI.
func lqEncodeURI(s, safe string) string {
	s = lqWritten(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(safe, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteString(strings.ToUpper(hex.EncodeToString([]byte{c})))
	}
	return b.String()
}

// lqDecodeURIComponent is decodeURIComponent.
func lqDecodeURIComponent(s string) (string, error) {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", lqErrorf("URI malformed")
		}
		x, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", lqErrorf("URI malformed")
		}
		b = append(b, byte(x))
		i += 2
	}
	if !utf8.Valid(b) {
		return "", lqErrorf("URI malformed")
	}
	return string(b), nil
}

var lqSlugifyRE = map[string]func() *regexp.Regexp{
	"raw":     lqLazyRE(`[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+`),
	"default": lqLazyRE(`[^\p{M}\p{L}\p{Nd}]+`),
	"pretty":  lqLazyRE(`[^\p{M}\p{L}\p{Nd}._~!$&'()+,;=@]+`),
	"ascii":   lqLazyRE(`[^A-Za-z0-9]+`),
	"latin":   lqLazyRE(`[^\p{M}\p{L}\p{Nd}]+`),
}

var lqAccents = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ã", "a", "ä", "a", "å", "a", "æ", "ae", "ç", "c",
	"è", "e", "é", "e", "ê", "e", "ë", "e", "ì", "i", "í", "i", "î", "i", "ï", "i", "ð", "d", "ñ", "n",
	"ò", "o", "ó", "o", "ô", "o", "õ", "o", "ö", "o", "ø", "o", "ù", "u", "ú", "u", "û", "u", "ü", "u",
	"ý", "y", "ÿ", "y", "ß", "ss", "œ", "oe", "þ", "th", "ẞ", "SS", "Œ", "OE", "Þ", "TH")

func lqSlugify(_ *lqFilterCall, v any, args []any) (any, error) {
	s := lqStringify(v)
	mode := "default"
	if m := lqArg(args, 0); m != lqUndefined {
		mode = lqPropertyKey(m)
	}
	if lazy := lqSlugifyRE[mode]; lazy != nil {
		re := lazy()
		if mode == "latin" {
			s = lqAccents.Replace(s)
		}
		s = re.ReplaceAllString(s, "-")
		s = strings.TrimPrefix(s, "-")
		s = strings.TrimSuffix(s, "-")
	}
	if lqTruthyJS(lqArg(args, 1)) {
		return s, nil
	}
	return lqLower(s), nil
}

func lqOrUndefined(v any, ok bool) any {
	if !ok {
		return lqUndefined
	}
	return v
}

// lqLower and lqUpper are toLowerCase and toUpperCase, with the
// unconditional special casings Go's tables lack.
func lqLower(s string) string {
	return lqMapCase(s, func(x string) string { return strings.ToLower(strings.ReplaceAll(x, "\u0130", "i\u0307")) })
}

// lqMapCase applies a case mapping to the text of s around its lone
// surrogates, which it keeps.
func lqMapCase(s string, f func(string) string) string {
	if !strings.Contains(s, "\xed") {
		return f(s)
	}
	var b strings.Builder
	start := 0
	for i := 0; i+2 < len(s); {
		if s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf {
			b.WriteString(f(s[start:i]))
			b.WriteString(s[i : i+3])
			i += 3
			start = i
			continue
		}
		i++
	}
	b.WriteString(f(s[start:]))
	return b.String()
}

var lqUpperSpecial = strings.NewReplacer("ß", "SS", "ŉ", "ʼN", "ﬀ", "FF", "ﬁ", "FI", "ﬂ", "FL", "ﬃ", "FFI", "ﬄ", "FFL", "ﬅ", "ST", "ﬆ", "ST")

func lqUpper(s string) string {
	return lqMapCase(s, func(x string) string { return strings.ToUpper(lqUpperSpecial.Replace(x)) })
}

// lqSplit is String.prototype.split with a string separator.
func lqSplit(s, sep string) []string {
	if sep == "" {
		u := lqU16(s)
		out := make([]string, len(u))
		for i := range u {
			out[i] = lqFromU16(u[i : i+1])
		}
		return out
	}
	return strings.Split(s, sep)
}

func lqReplaceAll(s, old, rep string) string {
	return strings.Join(lqSplit(s, old), rep)
}

func lqReplaceLast(s, old, rep string) string {
	i := strings.LastIndex(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + rep + s[i+len(old):]
}

func lqStrip(v, chars any, left, right bool) string {
	s := lqStringify(v)
	if !lqTruthyJS(chars) {
		trim := func(r rune) bool { return lqIsJSSpace(r) }
		if left {
			s = strings.TrimLeftFunc(s, trim)
		}
		if right {
			s = strings.TrimRightFunc(s, trim)
		}
		return s
	}
	set := lqStringify(chars)
	in := func(r rune) bool { return strings.ContainsRune(set, r) }
	if left {
		s = strings.TrimLeftFunc(s, in)
	}
	if right {
		s = strings.TrimRightFunc(s, in)
	}
	return s
}

func lqSliceFilter(_ *lqFilterCall, v any, args []any) (any, error) {
	v = lqToValue(v)
	if lqIsNil(v) {
		return []any{}, nil
	}
	begin, length := lqArg(args, 0), lqArg(args, 1)
	if length == lqUndefined {
		length = 1.0
	}
	if a, ok := v.([]any); ok {
		if lqCompare("<", begin, 0.0) {
			begin = lqJSAdd(float64(len(a)), begin)
		}
		return lqSliceArray(a, begin, lqJSAdd(begin, length)), nil
	}
	u := lqU16(lqStringify(v))
	if lqCompare("<", begin, 0.0) {
		begin = lqJSAdd(float64(len(u)), begin)
	}
	b := lqSliceIndex(begin, len(u), 0)
	e := lqSliceIndex(lqJSAdd(begin, length), len(u), len(u))
	if b >= e {
		return "", nil
	}
	return lqFromU16(u[b:e]), nil
}

func lqTruncate(_ *lqFilterCall, v any, args []any) (any, error) {
	s := lqStringify(v)
	l := lqArg(args, 0)
	if l == lqUndefined {
		l = 50.0
	}
	o := "..."
	if x := lqArg(args, 1); x != lqUndefined {
		o = lqStringify(x)
	}
	u := lqU16(s)
	if lqCompare("<=", float64(len(u)), l) {
		return v, nil
	}
	end := lqToNumberJS(lqToPrimitive(l)) - float64(lqLen(o))
	if math.IsNaN(end) || end < 0 {
		end = 0
	}
	end = math.Min(math.Trunc(end), float64(len(u)))
	return lqFromU16(u[:int(end)]) + o, nil
}

var lqSpaceSplitRE = lqSpacesRE

func lqTruncateWords(_ *lqFilterCall, v any, args []any) (any, error) {
	s := lqStringify(v)
	words := lqArg(args, 0)
	if words == lqUndefined {
		words = 15.0
	}
	o := "..."
	if x := lqArg(args, 1); x != lqUndefined {
		o = lqStringify(x)
	}
	arr := lqSpaceSplitRE().Split(s, -1)
	if lqCompare("<=", words, 0.0) {
		words = 1.0
	}
	items := make([]any, len(arr))
	for i, w := range arr {
		items[i] = w
	}
	ret := lqJoin(lqSliceArray(items, 0.0, words), " ")
	if lqCompare(">=", float64(len(arr)), words) {
		ret += o
	}
	return ret, nil
}

var (
	lqCJKRE    = lqLazyRE(`[\x{4E00}-\x{9FFF}\x{F900}-\x{FAFF}\x{3400}-\x{4DBF}\x{3040}-\x{309F}\x{30A0}-\x{30FF}\x{AC00}-\x{D7AF}]`)
	lqNonCJKRE = lqLazyRE(`[^\x{4E00}-\x{9FFF}\x{F900}-\x{FAFF}\x{3400}-\x{4DBF}\x{3040}-\x{309F}\x{30A0}-\x{30FF}\x{AC00}-\x{D7AF}\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+`)
)

func lqNumberOfWords(_ *lqFilterCall, v any, args []any) (any, error) {
	s := strings.TrimFunc(lqStringify(v), lqIsJSSpace)
	if s == "" {
		return 0.0, nil
	}
	mode := lqArg(args, 0)
	cjk := float64(len(lqCJKRE().FindAllString(s, -1)))
	non := float64(len(lqNonCJKRE().FindAllString(s, -1)))
	switch mode {
	case "cjk":
		return cjk + non, nil
	case "auto":
		if cjk > 0 {
			return cjk + non, nil
		}
	}
	return float64(len(lqSpaceSplitRE().Split(s, -1))), nil
}

func lqBase64Decode(s string) string {
	var clean []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '-':
			clean = append(clean, '+')
		case c == '_':
			clean = append(clean, '/')
		case c == '=':
			i = len(s)
		}
	}
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	b, _ := base64.RawStdEncoding.DecodeString(string(clean))
	var out strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out.WriteRune(r)
		b = b[n:]
	}
	return out.String()
}

func lqJSONFilter(_ *lqFilterCall, v any, args []any) (any, error) {
	space := ""
	switch x := lqArg(args, 0).(type) {
	case float64:
		if n := math.Min(10, math.Trunc(x)); n >= 1 {
			space = strings.Repeat(" ", int(n))
		}
	case string:
		u := lqU16(x)
		space = lqFromU16(u[:min(10, len(u))])
	}
	s, ok := lqJSONValue(v, space, "")
	if !ok {
		return lqUndefined, nil
	}
	return s, nil
}

// lqStringifyJSON is JSON.stringify(v, null, space) for a value that has a
// text.
func lqStringifyJSON(v any, space string) string {
	s, _ := lqJSONValue(v, space, "")
	return s
}

// lqJSONValue is JSON.stringify's SerializeJSONProperty; ok is false for
// undefined.
func lqJSONValue(v any, space, indent string) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case lqUndefinedValue:
		return "", false
	case bool:
		return lqString(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "null", true
		}
		return NumberString(x), true
	case string:
		return lqQuoteJSON(lqU16(x)), true
	case []any:
		if len(x) == 0 {
			return "[]", true
		}
		inner := indent + space
		parts := make([]string, len(x))
		for i, e := range x {
			s, ok := lqJSONValue(e, space, inner)
			if !ok {
				s = "null"
			}
			parts[i] = s
		}
		if space == "" {
			return "[" + strings.Join(parts, ",") + "]", true
		}
		return "[\n" + inner + strings.Join(parts, ",\n"+inner) + "\n" + indent + "]", true
	case *lqForloop:
		o := NewObject()
		o.Set("i", float64(x.i))
		o.Set("length", float64(x.length))
		o.Set("name", x.name)
		if x.tablerow {
			o.Set("cols", x.cols)
		}
		return lqJSONValue(o, space, indent)
	case *lqNilDrop, *lqEmptyDrop:
		return "{}", true
	}
	keys, ok := lqKeys(v)
	if !ok {
		return "", false
	}
	inner := indent + space
	var parts []string
	for _, k := range keys {
		val, _ := lqOwn(v, k)
		s, ok := lqJSONValue(val, space, inner)
		if !ok {
			continue
		}
		sep := ":"
		if space != "" {
			sep = ": "
		}
		parts = append(parts, lqQuoteJSON(lqU16(k))+sep+s)
	}
	if len(parts) == 0 {
		return "{}", true
	}
	if space == "" {
		return "{" + strings.Join(parts, ",") + "}", true
	}
	return "{\n" + inner + strings.Join(parts, ",\n"+inner) + "\n" + indent + "}", true
}

// Filters that read items through paths and expressions.

func (fc *lqFilterCall) sortBy(v, prop any, natural bool) (any, error) {
	arr := lqToArray(v)
	type pair struct{ item, key any }
	pairs := make([]pair, len(arr))
	for i, item := range arr {
		key := item
		if lqTruthyJS(prop) {
			key, _ = fc.ctx.getFromScope(item, lqSplitPath(lqStringify(prop)), false)
		}
		pairs[i] = pair{item, key}
	}
	cmp := func(a, b any) int {
		an, bn := lqIsNil(a), lqIsNil(b)
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		}
		if natural {
			a, b = lqLower(lqString(a)), lqLower(lqString(b))
		}
		if lqCompare("<", a, b) {
			return -1
		}
		if lqCompare(">", a, b) {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(pairs, func(x, y pair) int { return cmp(x.key, y.key) })
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = p.item
	}
	return out, nil
}

func (fc *lqFilterCall) scopeValue(prop any) (tok lqToken, err error) {
	defer lqCatch(&err)
	return newLqTokenizerString(lqStringify(prop)).readScopeValue(), nil
}

func (fc *lqFilterCall) expValue(exp any) (v *lqValue, err error) {
	defer lqCatch(&err)
	fv, err := newLqTokenizerString(lqStringify(exp)).readFilteredValue()
	if err != nil {
		return nil, err
	}
	return newLqValue(fv)
}

func (fc *lqFilterCall) matcher(args []any) func(any) bool {
	if len(args) < 2 {
		return func(v any) bool { return !lqIsFalsy(v) }
	}
	expected := args[1]
	if expected == lqUndefined {
		return func(v any) bool { return !lqIsFalsy(v) }
	}
	return func(v any) bool { return lqEquals(v, expected) }
}

func (fc *lqFilterCall) filter(include bool, v any, args []any) (any, error) {
	arr := lqToArray(v)
	tok, err := fc.scopeValue(lqArg(args, 0))
	if err != nil {
		return nil, err
	}
	values := make([]any, len(arr))
	for i, item := range arr {
		if values[i], err = fc.ctx.spawn(item).evalToken(tok, false); err != nil {
			return nil, err
		}
	}
	match := fc.matcher(args)
	out := []any{}
	for i, item := range arr {
		if match(values[i]) == include {
			out = append(out, item)
		}
	}
	return out, nil
}

func (fc *lqFilterCall) withItem(name any, item any, f func() (any, error)) (any, error) {
	scope := NewObject()
	scope.Set(lqPropertyKey(name), item)
	fc.ctx.push(scope)
	defer fc.ctx.pop()
	return f()
}

func (fc *lqFilterCall) filterExp(include bool, v any, args []any) (any, error) {
	val, err := fc.expValue(lqArg(args, 1))
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, item := range lqToArray(v) {
		x, err := fc.withItem(lqArg(args, 0), item, func() (any, error) { return val.value(fc.ctx, false) })
		if err != nil {
			return nil, err
		}
		if x == include {
			out = append(out, item)
		}
	}
	return out, nil
}

func (fc *lqFilterCall) groupBy(v any, args []any, exp bool) (any, error) {
	arr := lqToEnumerable(v)
	var tok lqToken
	var val *lqValue
	var err error
	if exp {
		val, err = fc.expValue(lqArg(args, 1))
	} else {
		tok, err = fc.scopeValue(lqArg(args, 0))
	}
	if err != nil {
		return nil, err
	}
	var keys []any
	groups := map[int][]any{}
	for _, item := range arr {
		var key any
		if exp {
			key, err = fc.withItem(lqArg(args, 0), item, func() (any, error) { return val.value(fc.ctx, false) })
		} else {
			key, err = fc.ctx.spawn(item).evalToken(tok, false)
		}
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(keys, func(k any) bool { return lqSameValueZero(k, key) })
		if i < 0 {
			keys = append(keys, key)
			i = len(keys) - 1
		}
		groups[i] = append(groups[i], item)
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		o := NewObject()
		o.Set("name", k)
		o.Set("items", groups[i])
		out[i] = o
	}
	return out, nil
}

// search is has, find and find_index: what is 'h', 'f' or 'i'.
func (fc *lqFilterCall) search(v any, args []any, exp bool, what byte) (any, error) {
	arr := lqToArray(v)
	index := -1
	if exp {
		val, err := fc.expValue(lqArg(args, 1))
		if err != nil {
			return nil, err
		}
		for i, item := range arr {
			x, err := fc.withItem(lqArg(args, 0), item, func() (any, error) { return val.value(fc.ctx, false) })
			if err != nil {
				return nil, err
			}
			if lqTruthyJS(x) {
				index = i
				break
			}
		}
	} else {
		tok, err := fc.scopeValue(lqArg(args, 0))
		if err != nil {
			return nil, err
		}
		match := fc.matcher(args)
		for i, item := range arr {
			x, err := fc.ctx.spawn(item).evalToken(tok, false)
			if err != nil {
				return nil, err
			}
			if match(x) {
				index = i
				break
			}
		}
	}
	switch what {
	case 'h':
		return index >= 0, nil
	case 'i':
		if index < 0 {
			return lqUndefined, nil
		}
		return float64(index), nil
	}
	if index < 0 {
		return lqUndefined, nil
	}
	return arr[index], nil
}

// lqLazyRE compiles a pattern on first use, so that the package's
// initialization (run by every program that links it) compiles nothing.
func lqLazyRE(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
