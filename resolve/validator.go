package resolve

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/message"
)

// The documents are checked by a validator of the JSON Schema keywords
// the embedded schemas and agent blocks may use (draft 2020-12), which
// evaluates them as the JSON Schema library santhosh-tekuri/jsonschema/v6
// does: the same keywords in the same order, the same error tree and the
// library's own error kinds (its kind package, which has no package
// initialization of its own). The library itself is not linked into
// programs: its package initialization compiles every draft's
// metaschemas, about 22 million instructions and 21,000 allocations that
// every process paid before doing anything. The tests compile the same
// schemas with the library and check that both give the same issues.

// checkKeywords are the keywords the validator evaluates or accepts as
// annotations; a schema with any other keyword is refused.
var checkKeywords = map[string]bool{
	"$schema": true, "$id": true, "$defs": true, "$comment": true, "$ref": true,
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "format": true,
	"type": true, "enum": true, "const": true,
	"minLength": true, "maxLength": true, "pattern": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"required": true, "properties": true, "additionalProperties": true,
	"minProperties": true, "maxProperties": true,
	"items": true, "prefixItems": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
}

// jsonType is a JSON value type, as a bit of a type set, in the
// library's order.
type jsonType int

const (
	invalidType jsonType = 0
	nullType    jsonType = 1 << iota
	booleanType
	numberType
	integerType
	stringType
	arrayType
	objectType
)

var jsonTypeNames = [...]struct {
	t    jsonType
	name string
}{
	{nullType, "null"}, {booleanType, "boolean"}, {numberType, "number"}, {integerType, "integer"},
	{stringType, "string"}, {arrayType, "array"}, {objectType, "object"},
}

func (t jsonType) String() string {
	for _, n := range jsonTypeNames {
		if n.t == t {
			return n.name
		}
	}
	return ""
}

// names lists the types of a set in the library's order.
func (t jsonType) names() []string {
	var out []string
	for _, n := range jsonTypeNames {
		if t&n.t != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// typeOf is the JSON type of a plain document value; invalidType for a
// value JSON cannot hold (a NaN or an infinity).
func typeOf(v any) jsonType {
	switch v := v.(type) {
	case nil:
		return nullType
	case bool:
		return booleanType
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return invalidType
		}
		return numberType
	case json.Number, int, int64:
		return numberType
	case string:
		return stringType
	case []any:
		return arrayType
	case map[string]any, *Object:
		return objectType
	}
	return invalidType
}

// ratOf is a number as an exact rational, as the library reads it.
func ratOf(v any) (*big.Rat, bool) {
	return new(big.Rat).SetString(fmt.Sprint(v))
}

// jsonEquals is the library's equality of JSON values; a kind for a
// value JSON cannot hold.
func jsonEquals(v1, v2 any) (bool, errorKind) {
	switch v1 := v1.(type) {
	case *Object, map[string]any:
		o1, _ := viewOf(v1)
		o2, ok := viewOf(v2)
		if !ok || o1.Len() != o2.Len() {
			return false, nil
		}
		for i := range o1.Len() {
			k, val1 := o1.At(i)
			val2, ok := o2.Get(k)
			if !ok {
				return false, nil
			}
			if ok, k := jsonEquals(val1, val2); !ok || k != nil {
				return ok, k
			}
		}
		return true, nil
	case []any:
		v2, ok := v2.([]any)
		if !ok || len(v1) != len(v2) {
			return false, nil
		}
		for i := range v1 {
			if ok, k := jsonEquals(v1[i], v2[i]); !ok || k != nil {
				return ok, k
			}
		}
		return true, nil
	case nil:
		return v2 == nil, nil
	case bool:
		v2, ok := v2.(bool)
		return ok && v1 == v2, nil
	case string:
		v2, ok := v2.(string)
		return ok && v1 == v2, nil
	case json.Number, float64, int, int64:
		if typeOf(v2) != numberType {
			return false, nil
		}
		n1, ok1 := ratOf(v1)
		n2, ok2 := ratOf(v2)
		return ok1 && ok2 && n1.Cmp(n2) == 0, nil
	}
	return false, &kind.InvalidJsonValue{Value: v1}
}

// errorKind is what a validation error says: one of the library's kinds.
type errorKind interface {
	LocalizedString(*message.Printer) string
}

// checkError is one node of a validation error tree, shaped as the
// library's ValidationError.
type checkError struct {
	kind     errorKind
	location []string
	causes   []*checkError
}

// checkNode is one compiled schema.
type checkNode struct {
	location string // JSON pointer in its document
	boolean  *bool

	types    jsonType
	constVal *any
	enum     *[]any
	enumType jsonType
	ref      *checkNode
	refPath  string

	minLength, maxLength *int
	pattern              *regexp.Regexp

	minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf *big.Rat

	minProperties, maxProperties *int
	required                     []string
	properties                   map[string]*checkNode
	additional                   *checkNode

	minItems, maxItems *int
	uniqueItems        bool
	prefixItems        []*checkNode
	items              *checkNode

	not              *checkNode
	allOf            []*checkNode
	anyOf            []*checkNode
	oneOf            []*checkNode
	ifS, thenS, elsS *checkNode
}

// compileCheckDoc compiles a decoded schema document (numbers as
// json.Number). The compiled schema refers to parts of doc, which must
// not change.
func compileCheckDoc(doc any) (*checkNode, error) {
	c := &checkCompiler{root: doc, nodes: map[string]*checkNode{}}
	root, err := c.compile(doc, "")
	if err != nil {
		return nil, err
	}
	for len(c.pending) > 0 {
		n := c.pending[0]
		c.pending = c.pending[1:]
		target, err := c.resolveRef(n.refPath)
		if err != nil {
			return nil, fmt.Errorf("%s/$ref: %w", n.location, err)
		}
		n.ref = target
	}
	if err := checkNoCycle(root); err != nil {
		return nil, err
	}
	return root, nil
}

type checkCompiler struct {
	root    any
	nodes   map[string]*checkNode // by location
	pending []*checkNode          // nodes whose $ref is not resolved yet
}

// resolveRef resolves a $ref within the document: "#" or "#/pointer".
func (c *checkCompiler) resolveRef(ref string) (*checkNode, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || (frag != "" && !strings.HasPrefix(frag, "/")) {
		return nil, fmt.Errorf("%q: only references inside the document (#/...) are supported", ref)
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", ref, err)
	}
	if n, ok := c.nodes[frag]; ok {
		return n, nil
	}
	v := c.root
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			if strings.Contains(tok, "~") {
				tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
			}
			switch cur := v.(type) {
			case map[string]any:
				if v, ok = cur[tok]; !ok {
					return nil, fmt.Errorf("%q: no such location", ref)
				}
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(cur) {
					return nil, fmt.Errorf("%q: no such location", ref)
				}
				v = cur[i]
			default:
				return nil, fmt.Errorf("%q: no such location", ref)
			}
		}
	}
	return c.compile(v, frag)
}

func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// compile compiles the schema v found at location.
func (c *checkCompiler) compile(v any, location string) (*checkNode, error) {
	if n, ok := c.nodes[location]; ok {
		return n, nil
	}
	n := &checkNode{location: location}
	c.nodes[location] = n
	if b, ok := v.(bool); ok {
		n.boolean = &b
		return n, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a schema must be an object or a boolean", location)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !checkKeywords[k] {
			return nil, fmt.Errorf("%s/%s: keyword not supported", location, escapeToken(k))
		}
		if k == "$id" && location != "" {
			return nil, fmt.Errorf("%s/$id: only the root may have an $id", location)
		}
	}
	bad := func(k, want string) error { return fmt.Errorf("%s/%s: must be %s", location, k, want) }
	sub := func(k string, v any) (*checkNode, error) { return c.compile(v, location+"/"+escapeToken(k)) }
	subs := func(k string) ([]*checkNode, error) {
		arr, ok := obj[k].([]any)
		if !ok || len(arr) == 0 {
			return nil, bad(k, "a non-empty array of schemas")
		}
		out := make([]*checkNode, len(arr))
		for i, e := range arr {
			var err error
			if out[i], err = c.compile(e, location+"/"+k+"/"+strconv.Itoa(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	count := func(k string) (*int, error) {
		num, ok := obj[k].(json.Number)
		if !ok {
			return nil, bad(k, "a non-negative integer")
		}
		r, ok := ratOf(num)
		if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() || r.Num().Int64() > math.MaxInt32 {
			return nil, bad(k, "a non-negative integer")
		}
		i := int(r.Num().Int64())
		return &i, nil
	}
	number := func(k string) (*big.Rat, error) {
		num, ok := obj[k].(json.Number)
		if !ok {
			return nil, bad(k, "a number")
		}
		r, ok := ratOf(num)
		if !ok {
			return nil, bad(k, "a number")
		}
		return r, nil
	}
	var err error
	for _, k := range keys {
		kv := obj[k]
		switch k {
		case "$defs":
			defs, ok := kv.(map[string]any)
			if !ok {
				return nil, bad(k, "an object")
			}
			for name, d := range defs {
				if _, err := c.compile(d, location+"/$defs/"+escapeToken(name)); err != nil {
					return nil, err
				}
			}
		case "$ref":
			s, ok := kv.(string)
			if !ok {
				return nil, bad(k, "a string")
			}
			n.refPath = s
			c.pending = append(c.pending, n)
		case "type":
			switch t := kv.(type) {
			case string:
				if n.types = typeNamed(t); n.types == invalidType {
					return nil, bad(k, "a JSON type")
				}
			case []any:
				for _, e := range t {
					s, _ := e.(string)
					if typeNamed(s) == invalidType || n.types&typeNamed(s) != 0 {
						return nil, bad(k, "a JSON type or a list of distinct JSON types")
					}
					n.types |= typeNamed(s)
				}
			default:
				return nil, bad(k, "a JSON type or a list of JSON types")
			}
		case "const":
			n.constVal = &kv
		case "enum":
			arr, ok := kv.([]any)
			if !ok {
				return nil, bad(k, "an array")
			}
			n.enum = &arr
			for _, e := range arr {
				n.enumType |= typeOf(e)
			}
		case "minLength":
			n.minLength, err = count(k)
		case "maxLength":
			n.maxLength, err = count(k)
		case "pattern":
			s, ok := kv.(string)
			if !ok {
				return nil, bad(k, "a string")
			}
			if n.pattern, err = regexp.Compile(s); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", location, k, err)
			}
		case "minimum":
			n.minimum, err = number(k)
		case "maximum":
			n.maximum, err = number(k)
		case "exclusiveMinimum":
			n.exclusiveMinimum, err = number(k)
		case "exclusiveMaximum":
			n.exclusiveMaximum, err = number(k)
		case "multipleOf":
			if n.multipleOf, err = number(k); err == nil && n.multipleOf.Sign() <= 0 {
				err = bad(k, "a number above 0")
			}
		case "required":
			arr, ok := kv.([]any)
			if !ok {
				return nil, bad(k, "an array of strings")
			}
			for _, e := range arr {
				s, ok := e.(string)
				if !ok || slices.Contains(n.required, s) {
					return nil, bad(k, "an array of distinct strings")
				}
				n.required = append(n.required, s)
			}
		case "properties":
			props, ok := kv.(map[string]any)
			if !ok {
				return nil, bad(k, "an object")
			}
			n.properties = make(map[string]*checkNode, len(props))
			for name, p := range props {
				if n.properties[name], err = c.compile(p, location+"/properties/"+escapeToken(name)); err != nil {
					return nil, err
				}
			}
		case "additionalProperties":
			n.additional, err = sub(k, kv)
		case "minProperties":
			n.minProperties, err = count(k)
		case "maxProperties":
			n.maxProperties, err = count(k)
		case "items":
			n.items, err = sub(k, kv)
		case "prefixItems":
			n.prefixItems, err = subs(k)
		case "minItems":
			n.minItems, err = count(k)
		case "maxItems":
			n.maxItems, err = count(k)
		case "uniqueItems":
			b, ok := kv.(bool)
			if !ok {
				return nil, bad(k, "a boolean")
			}
			n.uniqueItems = b
		case "allOf":
			n.allOf, err = subs(k)
		case "anyOf":
			n.anyOf, err = subs(k)
		case "oneOf":
			n.oneOf, err = subs(k)
		case "not":
			n.not, err = sub(k, kv)
		case "if":
			n.ifS, err = sub(k, kv)
		case "then":
			n.thenS, err = sub(k, kv)
		case "else":
			n.elsS, err = sub(k, kv)
		case "$schema":
			if s, ok := kv.(string); !ok || location != "" || strings.TrimSuffix(s, "#") != "https://json-schema.org/draft/2020-12/schema" {
				return nil, bad(k, "https://json-schema.org/draft/2020-12/schema, at the root")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

func typeNamed(s string) jsonType {
	for _, n := range jsonTypeNames {
		if n.name == s {
			return n.t
		}
	}
	return invalidType
}

// checkNoCycle refuses a schema that can reach itself on the same value
// ($ref, allOf, anyOf, oneOf, not, if, then, else), which would never end
// (the library reports such a cycle when a document reaches it).
func checkNoCycle(root *checkNode) error {
	const (
		unseen = iota
		active
		done
	)
	state := map[*checkNode]int{}
	var visit func(n *checkNode) error
	visit = func(n *checkNode) error {
		switch state[n] {
		case active:
			return fmt.Errorf("%s: the schema refers to itself without descending into the document", n.location)
		case done:
			return nil
		}
		state[n] = active
		next := slices.Concat(n.allOf, n.anyOf, n.oneOf, []*checkNode{n.ref, n.not, n.ifS, n.thenS, n.elsS})
		for _, m := range next {
			if m != nil {
				if err := visit(m); err != nil {
					return err
				}
			}
		}
		state[n] = done
		return nil
	}
	// Every node reachable by descending starts a same-value walk of its own.
	seen := map[*checkNode]bool{}
	var all func(n *checkNode)
	all = func(n *checkNode) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		for _, p := range n.properties {
			all(p)
		}
		for _, m := range slices.Concat(n.allOf, n.anyOf, n.oneOf, n.prefixItems, []*checkNode{n.ref, n.not, n.ifS, n.thenS, n.elsS, n.additional, n.items}) {
			all(m)
		}
	}
	all(root)
	for n := range seen {
		if err := visit(n); err != nil {
			return err
		}
	}
	return nil
}

// validate checks a document value (*Object or map, slices, strings,
// float64, bools, nil) and returns the error tree, nil when valid. The
// error kinds hold plain values (maps for objects), as the library's do.
func (n *checkNode) validate(v any) *checkError {
	return n.check(v, make([]string, 0, 8))
}

// check validates v at loc against n as the library's validator does.
func (n *checkNode) check(v any, loc []string) *checkError {
	fail := func(k errorKind) *checkError { return &checkError{kind: k, location: slices.Clone(loc)} }
	if n.boolean != nil {
		if *n.boolean {
			return nil
		}
		return fail(&kind.FalseSchema{})
	}
	t := typeOf(v)
	if t == invalidType {
		return fail(&kind.InvalidJsonValue{Value: v})
	}
	if n.types != 0 {
		matched := n.types&t != 0 || (n.types&integerType != 0 && t == numberType && isInteger(v))
		if !matched {
			return fail(&kind.Type{Got: t.String(), Want: n.types.names()})
		}
	}
	if n.constVal != nil {
		ok, k := jsonEquals(v, *n.constVal)
		if k != nil {
			return fail(k)
		} else if !ok {
			return fail(&kind.Const{Got: plainValue(v), Want: *n.constVal})
		}
	}
	if n.enum != nil {
		matched := false
		if n.enumType&t != 0 {
			for _, item := range *n.enum {
				ok, k := jsonEquals(v, item)
				if k != nil {
					return fail(k)
				} else if ok {
					matched = true
					break
				}
			}
		}
		if !matched {
			return fail(&kind.Enum{Got: plainValue(v), Want: *n.enum})
		}
	}
	var errs []*checkError
	add := func(e *checkError) {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if n.ref != nil {
		if e := n.ref.check(v, loc); e != nil {
			ref := fail(&kind.Reference{Keyword: "$ref", URL: n.ref.location})
			if _, ok := e.kind.(*kind.Group); ok {
				ref.causes = e.causes
			} else {
				ref.causes = []*checkError{e}
			}
			add(ref)
		}
	}
	switch v := v.(type) {
	case *Object:
		n.checkObject(v, loc, fail, add)
	case map[string]any:
		n.checkObject(newMapView(v), loc, fail, add)
	case []any:
		if n.minItems != nil && len(v) < *n.minItems {
			add(fail(&kind.MinItems{Got: len(v), Want: *n.minItems}))
		}
		if n.maxItems != nil && len(v) > *n.maxItems {
			add(fail(&kind.MaxItems{Got: len(v), Want: *n.maxItems}))
		}
		if n.uniqueItems && len(v) > 1 {
			if e := uniqueItems(v); e != nil {
				add(fail(e))
			}
		}
		evaluated := min(len(n.prefixItems), len(v))
		for i, item := range v[:evaluated] {
			add(n.prefixItems[i].check(item, append(loc, strconv.Itoa(i))))
		}
		if n.items != nil {
			for i, item := range v[evaluated:] {
				add(n.items.check(item, append(loc, strconv.Itoa(evaluated+i))))
			}
		}
	case string:
		length := utf8.RuneCountInString(v)
		if n.minLength != nil && length < *n.minLength {
			add(fail(&kind.MinLength{Got: length, Want: *n.minLength}))
		}
		if n.maxLength != nil && length > *n.maxLength {
			add(fail(&kind.MaxLength{Got: length, Want: *n.maxLength}))
		}
		if n.pattern != nil && !n.pattern.MatchString(v) {
			add(fail(&kind.Pattern{Got: v, Want: n.pattern.String()}))
		}
	case float64, json.Number, int, int64:
		num, _ := ratOf(v)
		if n.minimum != nil && num.Cmp(n.minimum) < 0 {
			add(fail(&kind.Minimum{Got: num, Want: n.minimum}))
		}
		if n.maximum != nil && num.Cmp(n.maximum) > 0 {
			add(fail(&kind.Maximum{Got: num, Want: n.maximum}))
		}
		if n.exclusiveMinimum != nil && num.Cmp(n.exclusiveMinimum) <= 0 {
			add(fail(&kind.ExclusiveMinimum{Got: num, Want: n.exclusiveMinimum}))
		}
		if n.exclusiveMaximum != nil && num.Cmp(n.exclusiveMaximum) >= 0 {
			add(fail(&kind.ExclusiveMaximum{Got: num, Want: n.exclusiveMaximum}))
		}
		if n.multipleOf != nil {
			if q := new(big.Rat).Quo(num, n.multipleOf); !q.IsInt() {
				add(fail(&kind.MultipleOf{Got: num, Want: n.multipleOf}))
			}
		}
	}
	if n.not != nil && n.not.check(v, loc) == nil {
		add(fail(&kind.Not{}))
	}
	if len(n.allOf) > 0 {
		var causes []*checkError
		for _, s := range n.allOf {
			if e := s.check(v, loc); e != nil {
				causes = append(causes, e)
			}
		}
		if causes != nil {
			e := fail(&kind.AllOf{})
			e.causes = causes
			add(e)
		}
	}
	if len(n.anyOf) > 0 {
		var causes []*checkError
		matched := false
		for _, s := range n.anyOf {
			e := s.check(v, loc)
			if e == nil {
				matched = true
				break
			}
			causes = append(causes, e)
		}
		if !matched {
			e := fail(&kind.AnyOf{})
			e.causes = causes
			add(e)
		}
	}
	if len(n.oneOf) > 0 {
		matched := -1
		var causes []*checkError
		for i, s := range n.oneOf {
			e := s.check(v, loc)
			if e != nil {
				if matched == -1 {
					causes = append(causes, e)
				}
				continue
			}
			if matched == -1 {
				matched = i
				continue
			}
			add(fail(&kind.OneOf{Subschemas: []int{matched, i}}))
			break
		}
		if matched == -1 {
			e := fail(&kind.OneOf{})
			e.causes = causes
			add(e)
		}
	}
	if n.ifS != nil {
		if n.ifS.check(v, loc) == nil {
			if n.thenS != nil {
				add(n.thenS.check(v, loc))
			}
		} else if n.elsS != nil {
			add(n.elsS.check(v, loc))
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	e := fail(&kind.Group{})
	e.causes = errs
	return e
}

// objectView is what the validator reads of an object: a document's
// *Object, or a plain map (mapView).
type objectView interface {
	Len() int
	At(i int) (key string, value any)
	Get(key string) (any, bool)
	Has(key string) bool
}

// viewOf returns v as an objectView when it is an object.
func viewOf(v any) (objectView, bool) {
	switch v := v.(type) {
	case *Object:
		return v, true
	case map[string]any:
		return newMapView(v), true
	}
	return nil, false
}

// mapView is a plain map as an objectView, its keys in byte order.
type mapView struct {
	m    map[string]any
	keys []string
}

func newMapView(m map[string]any) mapView {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return mapView{m: m, keys: keys}
}

func (m mapView) Len() int                   { return len(m.keys) }
func (m mapView) At(i int) (string, any)     { return m.keys[i], m.m[m.keys[i]] }
func (m mapView) Get(key string) (any, bool) { v, ok := m.m[key]; return v, ok }
func (m mapView) Has(key string) bool        { _, ok := m.m[key]; return ok }

// checkObject evaluates the object keywords of n on v at loc, in the
// library's order.
func (n *checkNode) checkObject(v objectView, loc []string, fail func(errorKind) *checkError, add func(*checkError)) {
	if n.minProperties != nil && v.Len() < *n.minProperties {
		add(fail(&kind.MinProperties{Got: v.Len(), Want: *n.minProperties}))
	}
	if n.maxProperties != nil && v.Len() > *n.maxProperties {
		add(fail(&kind.MaxProperties{Got: v.Len(), Want: *n.maxProperties}))
	}
	var missing []string
	for _, p := range n.required {
		if !v.Has(p) {
			missing = append(missing, p)
		}
	}
	if missing != nil {
		add(fail(&kind.Required{Missing: missing}))
	}
	var additional []string
	for i := range v.Len() {
		p, pv := v.At(i)
		if s, ok := n.properties[p]; ok {
			add(s.check(pv, append(loc, p)))
		} else if n.additional != nil {
			if b := n.additional.boolean; b != nil {
				if !*b {
					additional = append(additional, p)
				}
			} else {
				add(n.additional.check(pv, append(loc, p)))
			}
		}
	}
	if len(additional) > 0 {
		add(fail(&kind.AdditionalProperties{Properties: additional}))
	}
}

// isInteger reports whether a number is integral, as the library reads it.
func isInteger(v any) bool {
	r, ok := ratOf(v)
	return ok && r.IsInt()
}

// uniqueItems returns the library's kind for the first two equal items of
// arr (by the later one), nil when all differ.
func uniqueItems(arr []any) errorKind {
	for i := 1; i < len(arr); i++ {
		for j := 0; j < i; j++ {
			if ok, k := jsonEquals(arr[i], arr[j]); k != nil {
				return k
			} else if ok {
				return &kind.UniqueItems{Duplicates: [2]int{j, i}}
			}
		}
	}
	return nil
}
