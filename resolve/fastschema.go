package resolve

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// fastSchema is one node of a boolean pre-check compiled from the same
// embedded schema JSON the full validator uses. It answers only "valid or
// not", for the keywords our schemas use, walking document values as the
// parser produces them without converting them; a document it rejects goes
// through the full validator for the messages.
type fastSchema struct {
	// isBool marks a boolean schema, whose verdict is boolean.
	isBool, boolean bool
	types           jsonTypes
	enum            []any
	minLength       int
	pattern         *regexp.Regexp
	properties      map[string]*fastSchema
	// additional applies to members not named in properties; nil allows
	// them.
	additional *fastSchema
	required   []string
	items      *fastSchema
	oneOf      []*fastSchema
	anyOf      []*fastSchema
	not        *fastSchema
	ref        *fastSchema
}

// jsonTypes is a set of JSON Schema type names.
type jsonTypes uint8

const (
	typeNull jsonTypes = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeNames = map[string]jsonTypes{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "array": typeArray, "object": typeObject,
}

// compileFast compiles a schema document; it refuses any keyword or
// keyword shape it does not evaluate exactly as the full validator does.
func compileFast(data []byte) (*fastSchema, error) {
	var root any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	c := &fastCompiler{defs: map[string]any{}, done: map[string]*fastSchema{}}
	if m, ok := root.(map[string]any); ok {
		if d, ok := m["$defs"]; ok {
			defs, ok := d.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("$defs: not an object")
			}
			c.defs = defs
		}
	}
	s, err := c.compile(root, "#", true)
	if err != nil {
		return nil, err
	}
	// Definitions nothing refers to still have to be understood.
	for _, name := range slices.Sorted(maps.Keys(c.defs)) {
		if _, err := c.def(name); err != nil {
			return nil, err
		}
	}
	return s, nil
}

type fastCompiler struct {
	defs map[string]any
	done map[string]*fastSchema
}

// def compiles the definition name once; a reference cycle gets the node
// being filled.
func (c *fastCompiler) def(name string) (*fastSchema, error) {
	if s, ok := c.done[name]; ok {
		return s, nil
	}
	raw, ok := c.defs[name]
	if !ok {
		return nil, fmt.Errorf("$ref to unknown definition %q", name)
	}
	s := &fastSchema{}
	c.done[name] = s
	compiled, err := c.compile(raw, "#/$defs/"+name, false)
	if err != nil {
		return nil, err
	}
	*s = *compiled
	return s, nil
}

func (c *fastCompiler) compile(raw any, at string, root bool) (*fastSchema, error) {
	if b, ok := raw.(bool); ok {
		return &fastSchema{isBool: true, boolean: b}, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: schema is neither an object nor a boolean", at)
	}
	s := &fastSchema{minLength: -1}
	for _, kw := range slices.Sorted(maps.Keys(m)) {
		if err := c.keyword(s, kw, m[kw], at, root); err != nil {
			return nil, fmt.Errorf("%s/%s: %w", at, kw, err)
		}
	}
	return s, nil
}

func (c *fastCompiler) keyword(s *fastSchema, kw string, v any, at string, root bool) error {
	sub := func(raw any, where string) (*fastSchema, error) { return c.compile(raw, at+"/"+where, false) }
	subs := func(raw any) ([]*fastSchema, error) {
		list, ok := raw.([]any)
		if !ok || len(list) == 0 {
			return nil, fmt.Errorf("not a non-empty array")
		}
		out := make([]*fastSchema, len(list))
		for i, e := range list {
			var err error
			if out[i], err = sub(e, fmt.Sprintf("%s/%d", kw, i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	var err error
	switch kw {
	case "$schema", "$id", "title", "description":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("not a string")
		}
	case "$defs":
		if !root {
			return fmt.Errorf("only supported at the root")
		}
	case "type":
		return s.setTypes(v)
	case "enum":
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("not an array")
		}
		for _, e := range list {
			switch e.(type) {
			case nil, bool, string:
			default:
				return fmt.Errorf("only null, boolean and string values are supported")
			}
		}
		s.enum = list
	case "minLength":
		n, ok := v.(float64)
		if !ok || n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
			return fmt.Errorf("not a non-negative integer")
		}
		s.minLength = int(n)
	case "pattern":
		p, ok := v.(string)
		if !ok {
			return fmt.Errorf("not a string")
		}
		s.pattern, err = regexp.Compile(p)
	case "properties":
		props, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("not an object")
		}
		s.properties = make(map[string]*fastSchema, len(props))
		for name, p := range props {
			if s.properties[name], err = sub(p, "properties/"+name); err != nil {
				return err
			}
		}
	case "additionalProperties":
		if b, ok := v.(bool); ok && b {
			return nil
		}
		s.additional, err = sub(v, kw)
	case "required":
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("not an array")
		}
		for _, e := range list {
			name, ok := e.(string)
			if !ok {
				return fmt.Errorf("not an array of strings")
			}
			s.required = append(s.required, name)
		}
	case "items":
		s.items, err = sub(v, kw)
	case "oneOf":
		s.oneOf, err = subs(v)
	case "anyOf":
		s.anyOf, err = subs(v)
	case "not":
		s.not, err = sub(v, kw)
	case "$ref":
		ref, ok := v.(string)
		name, local := strings.CutPrefix(ref, "#/$defs/")
		if !ok || !local || strings.ContainsAny(name, "/~%") {
			return fmt.Errorf("only references to #/$defs/<name> are supported")
		}
		s.ref, err = c.def(name)
	default:
		return fmt.Errorf("keyword not supported by the fast check")
	}
	return err
}

func (s *fastSchema) setTypes(v any) error {
	names, ok := v.([]any)
	if !ok {
		names = []any{v}
	}
	for _, n := range names {
		name, _ := n.(string)
		t, ok := typeNames[name]
		if !ok {
			return fmt.Errorf("unknown type %v", n)
		}
		s.types |= t
	}
	if s.types == 0 {
		return fmt.Errorf("no types")
	}
	return nil
}

// valid reports whether v, a document value (nil, bool, float64, string,
// []any, *Object), satisfies s exactly as the full validator decides.
func (s *fastSchema) valid(v any) bool {
	if s.isBool {
		return s.boolean
	}
	t := fastTypeOf(v)
	if t == 0 {
		// Non-finite numbers and foreign shapes fail every schema.
		return false
	}
	if s.types != 0 && s.types&t == 0 && (s.types&typeInteger == 0 || t != typeNumber || !isWhole(v)) {
		return false
	}
	if s.enum != nil && !inEnum(s.enum, v) {
		return false
	}
	if s.ref != nil && !s.ref.valid(v) {
		return false
	}
	switch v := v.(type) {
	case *Object:
		if !s.validObject(v) {
			return false
		}
	case []any:
		if s.items != nil {
			for _, e := range v {
				if !s.items.valid(e) {
					return false
				}
			}
		}
	case string:
		if s.minLength > 0 && utf8.RuneCountInString(v) < s.minLength {
			return false
		}
		if s.pattern != nil && !s.pattern.MatchString(v) {
			return false
		}
	}
	if s.anyOf != nil && !slices.ContainsFunc(s.anyOf, func(a *fastSchema) bool { return a.valid(v) }) {
		return false
	}
	if s.oneOf != nil {
		matched := 0
		for _, o := range s.oneOf {
			if o.valid(v) {
				matched++
				if matched > 1 {
					return false
				}
			}
		}
		if matched == 0 {
			return false
		}
	}
	return s.not == nil || !s.not.valid(v)
}

func (s *fastSchema) validObject(o *Object) bool {
	for _, name := range s.required {
		if o.find(name) < 0 {
			return false
		}
	}
	for i := range o.entries {
		e := &o.entries[i]
		if p, ok := s.properties[e.key]; ok {
			if !p.valid(e.val) {
				return false
			}
		} else if s.additional != nil && !s.additional.valid(e.val) {
			return false
		}
	}
	return true
}

// fastTypeOf returns the JSON type of v, or 0 for a value no schema
// accepts.
func fastTypeOf(v any) jsonTypes {
	switch v := v.(type) {
	case nil:
		return typeNull
	case bool:
		return typeBoolean
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0
		}
		return typeNumber
	case string:
		return typeString
	case []any:
		return typeArray
	case *Object:
		if v == nil {
			return 0
		}
		return typeObject
	}
	return 0
}

// isWhole reports whether the finite number v is an integer.
func isWhole(v any) bool {
	f, ok := v.(float64)
	return ok && f == math.Trunc(f)
}

// inEnum reports whether the scalar v equals one of the (scalar) values.
func inEnum(values []any, v any) bool {
	switch v.(type) {
	case nil, bool, string:
		return slices.Contains(values, v)
	}
	return false
}
