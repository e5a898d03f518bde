package resolve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxYAMLNodes bounds the values a document may expand to through aliases,
// so that a small file cannot make the resolver build a huge tree.
const maxYAMLNodes = 1 << 16

// errYAML prefixes every YAML problem as upstream's YAMLParseError does.
const yamlErrorPrefix = "YAMLParseError: "

// parseYAML decodes one YAML document into a document value (nil, bool,
// float64, string, []any, *Object) with YAML 1.2 core-schema scalars. An
// empty or comment-only document is nil. Duplicate mapping keys, several
// documents and syntax errors are errors whose text starts with
// "YAMLParseError: ".
func parseYAML(data []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, yamlError(err)
		}
		return nil, errors.New(yamlErrorPrefix + "Source contains multiple documents; please use YAML.parseAllDocuments()")
	}
	var c converter
	return c.value(&doc)
}

func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return errors.New(yamlErrorPrefix + msg)
}

// converter turns a node tree into a document value, counting the values
// it builds so that aliases cannot blow a small file up.
type converter struct {
	nodes int
	// active holds the collections being converted, innermost last: an
	// alias to one of them would recurse for ever.
	active []*yaml.Node
	// seen holds the keys of the mappings being converted, innermost last.
	seen []mapKey
}

// mapKey is a decoded mapping key compared as upstream does: strings by
// text, other scalars by value (NaN never equal), collections never equal.
type mapKey struct {
	str        string
	val        any
	isStr      bool
	collection bool
}

func (k mapKey) same(o mapKey) bool {
	if k.collection || o.collection || k.isStr != o.isStr {
		return false
	}
	if k.isStr {
		return k.str == o.str
	}
	return k.val == o.val
}

// count accounts for one more value.
func (c *converter) count() error {
	c.nodes++
	if c.nodes > maxYAMLNodes {
		return errors.New(yamlErrorPrefix + "Excessive alias count indicates a resource exhaustion attack")
	}
	return nil
}

func (c *converter) value(n *yaml.Node) (any, error) {
	if err := c.count(); err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0])
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, errors.New(yamlErrorPrefix + "unresolved alias")
		}
		if slices.Contains(c.active, n.Alias) {
			return nil, fmt.Errorf("%sline %d: alias *%s refers to a node that contains it", yamlErrorPrefix, n.Line, n.Value)
		}
		return c.value(n.Alias)
	case yaml.ScalarNode:
		return scalarValue(n), nil
	case yaml.SequenceNode:
		c.active = append(c.active, n)
		defer c.pop()
		list := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.value(e)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		c.active = append(c.active, n)
		defer c.pop()
		return c.mapping(n)
	}
	return nil, fmt.Errorf("%sunsupported node kind %d", yamlErrorPrefix, n.Kind)
}

func (c *converter) pop() { c.active = c.active[:len(c.active)-1] }

// bigMapping is the number of keys above which duplicate keys are looked
// up in a map rather than by scanning.
const bigMapping = 32

func (c *converter) mapping(n *yaml.Node) (*Object, error) {
	size := len(n.Content) / 2
	obj := newObjectSize(size)
	start := len(c.seen)
	defer func() { c.seen = c.seen[:start] }()
	var index map[mapKey]bool
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k, err := c.key(kn)
		if err != nil {
			return nil, err
		}
		if !k.collection {
			dup := false
			if index != nil {
				dup = index[k]
				index[k] = true
			} else {
				for _, s := range c.seen[start:] {
					if s.same(k) {
						dup = true
						break
					}
				}
				c.seen = append(c.seen, k)
				if len(c.seen)-start > bigMapping {
					index = make(map[mapKey]bool, size)
					for _, s := range c.seen[start:] {
						index[s] = true
					}
				}
			}
			if dup {
				return nil, fmt.Errorf("%sline %d: Map keys must be unique", yamlErrorPrefix, kn.Line)
			}
		}
		v, err := c.value(vn)
		if err != nil {
			return nil, err
		}
		obj.Set(k.text(), v)
	}
	return obj, nil
}

// text is the object key of k, as JavaScript's String() would give it.
func (k mapKey) text() string {
	if k.isStr {
		return k.str
	}
	return keyString(k.val)
}

// key decodes a mapping key; a scalar key that is a string does not go
// through an interface value.
func (c *converter) key(n *yaml.Node) (mapKey, error) {
	if n.Kind == yaml.ScalarNode {
		if err := c.count(); err != nil {
			return mapKey{}, err
		}
		if stringStyle(n) {
			return mapKey{str: n.Value, isStr: true}, nil
		}
		if v, ok := coreNonString(n.Value); ok {
			return mapKey{val: v}, nil
		}
		return mapKey{str: n.Value, isStr: true}, nil
	}
	v, err := c.value(n)
	if err != nil {
		return mapKey{}, err
	}
	return keyOf(v), nil
}

func keyOf(v any) mapKey {
	switch v := v.(type) {
	case string:
		return mapKey{str: v, isStr: true}
	case *Object, []any:
		return mapKey{val: v, collection: true}
	}
	return mapKey{val: v}
}

// keyString turns a decoded key into an object key like JavaScript's
// String() would.
func keyString(k any) string {
	switch k := k.(type) {
	case nil:
		return ""
	case string:
		return k
	case bool:
		return strconv.FormatBool(k)
	case float64:
		return formatNumber(k)
	}
	return string(Stringify(k, ""))
}

// scalarValue resolves a scalar with the YAML 1.2 core schema. Quoted and
// block scalars are strings; an explicit !!str tag keeps the text.
func scalarValue(n *yaml.Node) any {
	if stringStyle(n) {
		return n.Value
	}
	return coreScalar(n.Value)
}

// stringStyle reports whether a scalar is a string whatever its text.
func stringStyle(n *yaml.Node) bool {
	return n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 ||
		n.Style&yaml.TaggedStyle != 0 && n.ShortTag() == "!!str"
}

// coreScalar resolves a plain scalar with the YAML 1.2 core schema: null,
// booleans, decimal, octal (0o) and hexadecimal (0x) integers, floats,
// infinities and NaN; anything else is the string itself.
func coreScalar(s string) any {
	if v, ok := coreNonString(s); ok {
		return v
	}
	return s
}

// coreNonString is the value of a plain scalar that the core schema does
// not resolve to a string, and false for a string.
func coreNonString(s string) (any, bool) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil, true
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), true
	}
	// Every number starts with a digit, a sign or a point.
	if c := s[0]; !isDigit(c) && c != '-' && c != '+' && c != '.' {
		return nil, false
	}
	switch {
	case len(s) > 2 && s[:2] == "0o" && allBytes(s[2:], isOctal):
		return parseRadix(s[2:], 8), true
	case len(s) > 2 && s[:2] == "0x" && allBytes(s[2:], isHex):
		return parseRadix(s[2:], 16), true
	case isCoreFloat(s):
		// Integers are floats too. Out of range, ParseFloat returns ±Inf,
		// as JavaScript does.
		f, _ := strconv.ParseFloat(s, 64)
		return f, true
	}
	return nil, false
}

// isCoreFloat reports whether s matches the core schema's float (and so
// integer) pattern [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?.
func isCoreFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	intDigits := digitRun(s[i:])
	i += intDigits
	if i < len(s) && s[i] == '.' {
		i++
		frac := digitRun(s[i:])
		i += frac
		if intDigits == 0 && frac == 0 {
			return false
		}
	} else if intDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := digitRun(s[i:])
		if exp == 0 {
			return false
		}
		i += exp
	}
	return i == len(s)
}

// digitRun returns the number of leading ASCII digits of s.
func digitRun(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isOctal(c byte) bool { return c >= '0' && c <= '7' }
func isHex(c byte) bool   { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// parseRadix converts digits of any length to the nearest float64, like
// JavaScript's parseInt.
func parseRadix(digits string, base int) float64 {
	var f float64
	for _, r := range digits {
		d, _ := strconv.ParseUint(string(r), base, 8)
		f = f*float64(base) + float64(d)
	}
	return f
}
