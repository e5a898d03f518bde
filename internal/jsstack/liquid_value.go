package jsstack

import (
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Values of the Liquid twin are JavaScript values: lqUndefinedValue
// (undefined), nil (null), bool, float64, string, []any, an object
// (LiquidObject or map[string]any) and LiquidJS's drops.

type lqUndefinedValue struct{}

var lqUndefined = lqUndefinedValue{}

// Drops.
type (
	lqNilDrop   struct{}
	lqEmptyDrop struct{ blank bool }
	lqForloop   struct {
		i, length int
		name      string
		tablerow  bool
		cols      any
	}
)

var (
	lqNil       = &lqNilDrop{}
	lqEmpty     = &lqEmptyDrop{}
	lqBlankDrop = &lqEmptyDrop{blank: true}
)

// lqEnvObject is the bindings with the keys the render wrote over them.
type lqEnvObject struct {
	base any // a LiquidObject or a map[string]any
	over *Object
}

func (o *lqEnvObject) Keys() []string {
	keys, _ := lqKeys(o.base)
	keys = slices.Clone(keys)
	for _, k := range o.over.Keys() {
		if _, ok := lqOwn(o.base, k); !ok {
			keys = append(keys, k)
		}
	}
	return lqJSOrder(keys)
}

func (o *lqEnvObject) Get(k string) (any, bool) {
	if v, ok := o.over.Get(k); ok {
		return v, ok
	}
	return lqOwn(o.base, k)
}

// lqArrayIndex reports whether k is an array index in JavaScript's sense.
func lqArrayIndex(k string) (int, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 32)
	if err != nil || n == math.MaxUint32 {
		return 0, false
	}
	return int(n), true
}

// lqJSOrder puts integer keys first, ascending, the others keeping their
// order.
func lqJSOrder(keys []string) []string {
	var ints, rest []string
	for _, k := range keys {
		if _, ok := lqArrayIndex(k); ok {
			ints = append(ints, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(ints) == 0 {
		return keys
	}
	sort.SliceStable(ints, func(i, j int) bool {
		a, _ := lqArrayIndex(ints[i])
		b, _ := lqArrayIndex(ints[j])
		return a < b
	})
	return append(ints, rest...)
}

// lqKeys returns an object's own keys, or false when v is no object.
func lqKeys(v any) ([]string, bool) {
	switch o := v.(type) {
	case LiquidObject:
		return o.Keys(), true
	case map[string]any:
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return lqJSOrder(keys), true
	}
	return nil, false
}

// lqOwn returns an object's own property.
func lqOwn(v any, k string) (any, bool) {
	switch o := v.(type) {
	case LiquidObject:
		return o.Get(k)
	case map[string]any:
		x, ok := o[k]
		return x, ok
	}
	return nil, false
}

func lqIsObject(v any) bool {
	switch v.(type) {
	case LiquidObject, map[string]any:
		return true
	}
	return false
}

// lqToValue is LiquidJS's toValue: a drop's valueOf.
func lqToValue(v any) any {
	switch d := v.(type) {
	case *lqNilDrop:
		return nil
	case *lqEmptyDrop:
		return ""
	case *lqForloop:
		return lqStringifyJSON(d, "")
	}
	return v
}

func lqIsNil(v any) bool { return v == nil || v == lqUndefined }

// lqStringify is LiquidJS's stringify.
func lqStringify(v any) string {
	v = lqToValue(v)
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, e := range x {
			b.WriteString(lqStringify(e))
		}
		return b.String()
	}
	if lqIsNil(v) {
		return ""
	}
	return lqString(v)
}

// lqString is JavaScript's String(v).
func lqString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case lqUndefinedValue:
		return "undefined"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		return NumberString(x)
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if !lqIsNil(e) {
				parts[i] = lqString(e)
			}
		}
		return strings.Join(parts, ",")
	case *lqForloop:
		return "[object Object]"
	case *lqNilDrop, *lqEmptyDrop:
		return "[object Object]"
	}
	return "[object Object]"
}

// lqStringToNumber is JavaScript's StringToNumber.
func lqStringToNumber(s string) float64 {
	s = strings.TrimFunc(s, func(r rune) bool {
		return r < 128 && lqType(int(r))&lqBlank != 0 || r == 0xfeff || r == 0xa0 || r == 0x1680 || r >= 0x2000 && r <= 0x200a || r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000
	})
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			f := 0.0
			for _, c := range s[2:] {
				d := strings.IndexRune("0123456789abcdef", lqLowerRune(c))
				if d < 0 || d >= base {
					return math.NaN()
				}
				f = f*float64(base) + float64(d)
			}
			return f
		}
	}
	switch s {
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return math.NaN()
		}
	}
	// Go accepts forms JavaScript refuses ("1_0", "0x" handled above) and
	// JavaScript accepts "1." and ".5", which Go also does.
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f
		}
		return math.NaN()
	}
	return f
}

func lqLowerRune(c rune) rune {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

// lqToNumberJS is JavaScript's Number(v).
func lqToNumberJS(v any) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case lqUndefinedValue:
		return math.NaN()
	case bool:
		if x {
			return 1
		}
		return 0
	case float64:
		return x
	case string:
		return lqStringToNumber(x)
	case []any:
		return lqStringToNumber(lqString(x))
	}
	return math.NaN()
}

// lqToNumber is LiquidJS's toNumber: +toValue(v) || 0.
func lqToNumber(v any) float64 {
	f := lqToNumberJS(lqToValue(v))
	if math.IsNaN(f) {
		return 0
	}
	return f
}

// lqTruthyJS is JavaScript's Boolean(v).
func lqTruthyJS(v any) bool {
	switch x := v.(type) {
	case nil, lqUndefinedValue:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	}
	return true
}

// lqIsFalsy is LiquidJS's isFalsy without jsTruthy.
func lqIsFalsy(v any) bool {
	v = lqToValue(v)
	return v == false || lqIsNil(v)
}

// lqSameValue is JavaScript's ===.
func lqStrictEquals(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && (x == y || strings.Contains(x+y, "\xed") && slices.Equal(lqU16(x), lqU16(y)))
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case lqUndefinedValue:
		return b == lqUndefined
	}
	if a == nil || b == nil {
		return false
	}
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	if ra.Type() != rb.Type() {
		return false
	}
	switch ra.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Slice:
		return ra.Pointer() == rb.Pointer() && (ra.Kind() != reflect.Slice || ra.Len() == rb.Len())
	}
	return false
}

// lqEquals is LiquidJS's equals.
func lqEquals(l, r any) bool {
	if d, ok := l.(*lqNilDrop); ok {
		return d.equals(r)
	}
	if d, ok := l.(*lqEmptyDrop); ok {
		return d.equals(r)
	}
	if d, ok := r.(*lqNilDrop); ok {
		return d.equals(l)
	}
	if d, ok := r.(*lqEmptyDrop); ok {
		return d.equals(l)
	}
	l, r = lqToValue(l), lqToValue(r)
	if la, ok := l.([]any); ok {
		ra, ok := r.([]any)
		if !ok || len(la) != len(ra) {
			return false
		}
		for i := range la {
			if !lqEquals(la[i], ra[i]) {
				return false
			}
		}
		return true
	}
	return lqStrictEquals(l, r)
}

func (*lqNilDrop) equals(v any) bool { return lqIsNil(lqToValue(v)) }

func (d *lqEmptyDrop) equals(v any) bool {
	if d.blank {
		if v == false || lqIsNil(lqToValue(v)) {
			return true
		}
		if s, ok := v.(string); ok {
			return strings.TrimLeft(s, " \t\n\r\f\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff") == ""
		}
	}
	if _, ok := v.(*lqEmptyDrop); ok {
		return false
	}
	v = lqToValue(v)
	switch x := v.(type) {
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	if keys, ok := lqKeys(v); ok {
		return len(keys) == 0
	}
	return false
}

func lqIsComparable(v any) bool {
	switch v.(type) {
	case *lqNilDrop, *lqEmptyDrop:
		return true
	}
	return false
}

// lqCompare is the relational operators of JavaScript on toValue'd
// operands: op is one of < > <= >=.
func lqCompare(op string, l, r any) bool {
	if lqIsComparable(l) || lqIsComparable(r) {
		// Drops compare false in gt, geq, lt and leq.
		return false
	}
	l, r = lqToPrimitive(lqToValue(l)), lqToPrimitive(lqToValue(r))
	ls, lok := l.(string)
	rs, rok := r.(string)
	if lok && rok {
		c := lqCompareUTF16(ls, rs)
		switch op {
		case "<":
			return c < 0
		case ">":
			return c > 0
		case "<=":
			return c <= 0
		}
		return c >= 0
	}
	a, b := lqToNumberJS(l), lqToNumberJS(r)
	switch op {
	case "<":
		return a < b
	case ">":
		return a > b
	case "<=":
		return a <= b
	}
	return a >= b
}

// lqToPrimitive converts arrays and objects as JavaScript's ToPrimitive
// does with the number hint.
func lqToPrimitive(v any) any {
	switch v.(type) {
	case []any:
		return lqString(v)
	case LiquidObject, map[string]any:
		return "[object Object]"
	}
	return v
}

func lqCompareUTF16(a, b string) int {
	return slices.Compare(lqU16(a), lqU16(b))
}

// lqLen is a string's length in UTF-16 code units.
func lqLen(s string) int {
	if strings.Contains(s, "\xed") {
		return len(lqU16(s))
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// lqToEnumerable is LiquidJS's toEnumerable.
func lqToEnumerable(v any) []any {
	v = lqToValue(v)
	switch x := v.(type) {
	case []any:
		return x
	case string:
		if x != "" {
			return []any{x}
		}
		return nil
	}
	if keys, ok := lqKeys(v); ok {
		out := make([]any, len(keys))
		for i, k := range keys {
			val, _ := lqOwn(v, k)
			out[i] = []any{k, val}
		}
		return out
	}
	return nil
}

// lqToArray is LiquidJS's toArray.
func lqToArray(v any) []any {
	v = lqToValue(v)
	if lqIsNil(v) {
		return nil
	}
	if a, ok := v.([]any); ok {
		return a
	}
	return []any{v}
}

// lqPropertyKey is JavaScript's ToPropertyKey for the keys of a read.
func lqPropertyKey(k any) string {
	if f, ok := k.(float64); ok {
		return NumberString(f)
	}
	return lqString(k)
}

// lqReadJS reads obj[key] of own properties, as LiquidJS does with
// ownPropertyOnly; drops read their members.
func lqReadJS(obj any, key string) any {
	switch o := obj.(type) {
	case string:
		u := lqU16(o)
		if key == "length" {
			return float64(len(u))
		}
		if i, ok := lqArrayIndex(key); ok && i < len(u) {
			return lqFromU16(u[i : i+1])
		}
		return lqUndefined
	case []any:
		if key == "length" {
			return float64(len(o))
		}
		if i, ok := lqArrayIndex(key); ok && i < len(o) {
			return o[i]
		}
		return lqUndefined
	case *lqForloop:
		return o.member(key)
	case *lqNilDrop, *lqEmptyDrop:
		return lqUndefined
	}
	if v, ok := lqOwn(obj, key); ok {
		return v
	}
	return lqUndefined
}

func (f *lqForloop) member(key string) any {
	switch key {
	case "i":
		return float64(f.i)
	case "length":
		return float64(f.length)
	case "name":
		return f.name
	case "index0":
		return float64(f.i)
	case "index":
		return float64(f.i + 1)
	case "first":
		return f.i == 0
	case "last":
		return f.i == f.length-1
	case "rindex":
		return float64(f.length - f.i)
	case "rindex0":
		return float64(f.length - f.i - 1)
	case "next":
		f.i++
		return lqUndefined
	case "valueOf":
		return lqToValue(f)
	}
	if f.tablerow {
		cols := lqToNumberJS(f.cols)
		switch key {
		case "cols":
			return f.cols
		case "row":
			return math.Floor(float64(f.i)/cols) + 1
		case "col0":
			return math.Mod(float64(f.i), cols)
		case "col":
			return math.Mod(float64(f.i), cols) + 1
		case "col_first":
			return math.Mod(float64(f.i), cols) == 0
		case "col_last":
			return math.Mod(float64(f.i), cols)+1 == cols
		}
	}
	return lqUndefined
}

// lqReadProperty is LiquidJS's Context.readProperty.
func lqReadProperty(obj, key any) any {
	key = lqToValue(key)
	if lqIsNil(obj) {
		return obj
	}
	if a, ok := obj.([]any); ok {
		if lqCompare("<", key, 0.0) {
			i := float64(len(a)) + lqToNumberJS(lqToPrimitive(key))
			if i >= 0 && i == math.Trunc(i) {
				return a[int(i)]
			}
			return lqUndefined
		}
	}
	k := lqPropertyKey(key)
	v := lqReadJS(obj, k)
	switch obj.(type) {
	case *lqForloop, *lqNilDrop, *lqEmptyDrop:
		return v
	}
	switch k {
	case "size":
		return lqReadSize(obj)
	case "first":
		if a, ok := obj.([]any); ok {
			if len(a) == 0 {
				return lqUndefined
			}
			return a[0]
		}
		return v
	case "last":
		if a, ok := obj.([]any); ok {
			if len(a) == 0 {
				return lqUndefined
			}
			return a[len(a)-1]
		}
		return v
	}
	return v
}

func lqReadSize(obj any) any {
	if v, ok := lqOwn(obj, "size"); ok {
		return v
	}
	switch o := obj.(type) {
	case []any:
		return float64(len(o))
	case string:
		return float64(lqLen(o))
	}
	if keys, ok := lqKeys(obj); ok {
		return float64(len(keys))
	}
	return lqUndefined
}

// lqHasKey is JavaScript's "key in obj" for a scope or an environment.
func lqHasKey(obj any, key string) bool {
	switch o := obj.(type) {
	case string, []any:
		return lqReadJS(o, key) != lqUndefined
	}
	_, ok := lqOwn(obj, key)
	return ok
}

// JavaScript strings are sequences of UTF-16 code units, which may hold
// a lone surrogate (a string split between the two halves of a pair).
// The twin keeps such a unit in a Go string as its three-byte
// generalized UTF-8 form (WTF-8), so that halves joined again make the
// character; lqWritten turns what is left alone into U+FFFD, as Node does
// when it writes the text as UTF-8.

// lqU16 returns the UTF-16 code units of a string.
func lqU16(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] == 0xed && i+2 < len(s) && s[i+1] >= 0xa0 && s[i+1] <= 0xbf && s[i+2] >= 0x80 && s[i+2] <= 0xbf {
			u = append(u, 0xd000|uint16(s[i+1]&0x3f)<<6|uint16(s[i+2]&0x3f))
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			u = append(u, uint16(a), uint16(b))
			continue
		}
		u = append(u, uint16(r))
	}
	return u
}

// lqFromU16 returns the string of UTF-16 code units, a lone surrogate in
// its WTF-8 form.
func lqFromU16(u []uint16) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c >= 0xd800 && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] < 0xe000:
			b.WriteRune(utf16.DecodeRune(rune(c), rune(u[i+1])))
			i++
		case c >= 0xd800 && c < 0xe000:
			b.Write([]byte{0xe0 | byte(c>>12), 0x80 | byte(c>>6)&0x3f, 0x80 | byte(c)&0x3f})
		default:
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

// lqWritten is the text Node writes for a rendered string: surrogate
// halves that meet become their character, lone ones U+FFFD.
func lqWritten(s string) string {
	if !strings.Contains(s, "\xed") {
		return s
	}
	return string(utf16.Decode(lqU16(s)))
}
