package resolve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
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
	c := converter{active: make(map[*yaml.Node]bool)}
	return c.value(&doc)
}

func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return errors.New(yamlErrorPrefix + msg)
}

type converter struct {
	nodes  int
	active map[*yaml.Node]bool
}

func (c *converter) value(n *yaml.Node) (any, error) {
	c.nodes++
	if c.nodes > maxYAMLNodes {
		return nil, errors.New(yamlErrorPrefix + "Excessive alias count indicates a resource exhaustion attack")
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
		if c.active[n.Alias] {
			return nil, fmt.Errorf("%sline %d: alias *%s refers to a node that contains it", yamlErrorPrefix, n.Line, n.Value)
		}
		return c.value(n.Alias)
	case yaml.ScalarNode:
		return scalarValue(n), nil
	case yaml.SequenceNode:
		c.active[n] = true
		defer delete(c.active, n)
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
		c.active[n] = true
		defer delete(c.active, n)
		return c.mapping(n)
	}
	return nil, fmt.Errorf("%sunsupported node kind %d", yamlErrorPrefix, n.Kind)
}

func (c *converter) mapping(n *yaml.Node) (*Object, error) {
	obj := NewObject()
	seen := make(map[any]bool)
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k, err := c.value(kn)
		if err != nil {
			return nil, err
		}
		switch k.(type) {
		case *Object, []any:
			// Collection keys are never considered equal.
		default:
			if seen[k] {
				return nil, fmt.Errorf("%sline %d: Map keys must be unique", yamlErrorPrefix, kn.Line)
			}
			seen[k] = true
		}
		v, err := c.value(vn)
		if err != nil {
			return nil, err
		}
		obj.Set(keyString(k), v)
	}
	return obj, nil
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

var (
	reInt   = regexp.MustCompile(`^[-+]?[0-9]+$`)
	reOct   = regexp.MustCompile(`^0o[0-7]+$`)
	reHex   = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	reFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	reInf   = regexp.MustCompile(`^[-+]?\.(inf|Inf|INF)$`)
	reNaN   = regexp.MustCompile(`^\.(nan|NaN|NAN)$`)
)

// scalarValue resolves a scalar with the YAML 1.2 core schema. Quoted and
// block scalars are strings; an explicit !!str tag keeps the text.
func scalarValue(n *yaml.Node) any {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value
	}
	if n.Style&yaml.TaggedStyle != 0 && n.ShortTag() == "!!str" {
		return n.Value
	}
	return coreScalar(n.Value)
}

func coreScalar(s string) any {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil
	case "true", "True", "TRUE":
		return true
	case "false", "False", "FALSE":
		return false
	}
	switch {
	case reInt.MatchString(s):
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case reOct.MatchString(s):
		return parseRadix(s[2:], 8)
	case reHex.MatchString(s):
		return parseRadix(s[2:], 16)
	case reFloat.MatchString(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			// Out of range: ParseFloat returns ±Inf, as JavaScript does.
			return f
		}
		return f
	case reInf.MatchString(s):
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case reNaN.MatchString(s):
		return math.NaN()
	}
	return s
}

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
