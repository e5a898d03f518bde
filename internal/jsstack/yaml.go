package jsstack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limits on YAML documents.
//
// maxAliasCount is upstream's alias budget (the yaml package's default
// maxAliasCount): an anchor may be used while the number of its uses, the
// anchor itself included, times its alias count stays at most 100; the
// alias count of a scalar or of a collection without aliases is 1, that of
// a collection the largest among its members, that of an alias the uses
// times the alias count of its anchor when the anchor is first aliased. A
// document beyond it is refused with upstream's message.
//
// The other two limits are the port's own; upstream has none. Upstream's
// aliases share one value, while conversion here copies it:
// MaxAliasValues bounds the values copied through aliases, which
// upstream's budget allows to reach about a hundred times the document.
// MaxYAMLBytes bounds the text, which the decoder's node tree holds at
// about twenty-five times its size in memory. Both are far above real
// files: 40,000 environment variables take 1 MB, 100,001 profile sources
// 3.3 MB.
const (
	maxAliasCount  = 100
	MaxAliasValues = 1 << 20
	MaxYAMLBytes   = 16 << 20
)

// yamlErrorPrefix prefixes every YAML problem as upstream's YAMLParseError
// does; aliasErrorPrefix those found resolving aliases, upstream's
// ReferenceError.
const (
	yamlErrorPrefix  = "YAMLParseError: "
	aliasErrorPrefix = "ReferenceError: "
)

// errAliasBudget is upstream's refusal of a document over its alias budget.
var errAliasBudget = errors.New(aliasErrorPrefix + "Excessive alias count indicates a resource exhaustion attack")

// YAMLSizeError reports a YAML document beyond a size limit of the port
// (upstream has none): its text is over Limit bytes, or its aliases would
// copy more than Limit values. Size is the document's length in bytes, or
// the number of values copied when the conversion stopped; File, which
// ParseYAML leaves empty, names the file for the caller that read it.
type YAMLSizeError struct {
	// File is the file the document was read from.
	File string
	// Aliases reports that the limit is on values copied through aliases.
	Aliases bool
	// Size is the length or the number of values copied.
	Size int
	// Limit is the limit exceeded.
	Limit int
}

// Error describes the limit exceeded.
func (e *YAMLSizeError) Error() string {
	if e.Aliases {
		return fmt.Sprintf("YAML document too large: its aliases copy more than the limit of %d values", e.Limit)
	}
	return fmt.Sprintf("YAML document too large: %d bytes, over the limit of %d", e.Size, e.Limit)
}

// ParseYAML decodes one YAML document into a document value (nil, bool,
// float64, string, []any, *Object) with YAML 1.2 core-schema scalars. An
// empty or comment-only document is nil. Duplicate mapping keys, several
// documents and syntax errors are errors whose text starts with
// "YAMLParseError: ". A document over upstream's alias budget is refused
// with upstream's ReferenceError, after any duplicate key (which upstream
// finds first); one over the port's size limits with a [*YAMLSizeError].
func ParseYAML(data []byte) (any, error) {
	if len(data) > MaxYAMLBytes {
		return nil, &YAMLSizeError{Size: len(data), Limit: MaxYAMLBytes}
	}
	r := readV3(data)
	if r.err != nil {
		if onlyMarkers(data) {
			return nil, nil
		}
		return nil, libraryError(data, r.err)
	}
	doc, text := r.doc, r.text
	if doc == nil {
		return nil, nil
	}
	if e := lexerRefusal(data, r); e != nil {
		return nil, e
	}
	var c converter
	v, err := c.value(doc)
	if err != nil {
		var dup *duplicateKey
		if errors.As(err, &dup) {
			at := duplicateKeyAt(data, originalOffset(offsetOf(text, dup.node.Line, dup.node.Column), r.edits))
			return nil, newYAMLParseError(data, "Map keys must be unique", at, at+1)
		}
		return nil, err
	}
	if c.stop != nil {
		return nil, c.stop
	}
	return v, nil
}

// onlyMarkers reports whether data holds no node: blank lines, comments,
// directives and document markers only, one document start at most and
// before every document end. The library reads it as one empty document
// (null); yaml/v3 refuses a document end without a document.
func onlyMarkers(data []byte) bool {
	starts, ended := 0, false
	for _, ln := range splitLines(bytes.TrimPrefix(data, []byte("\ufeff"))) {
		t := bytes.TrimSpace(ln.text)
		switch {
		case len(t) == 0 || t[0] == '#' || t[0] == '%' && starts == 0 && !ended:
		case bytes.Equal(t, []byte("...")) || bytes.HasPrefix(t, []byte("... ")) || bytes.HasPrefix(t, []byte("...\t")):
			ended = true
		case bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- #")):
			if starts++; starts > 1 || ended {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// duplicateKey is the converter's finding of a key already in its
// mapping, at node.
type duplicateKey struct{ node *yaml.Node }

func (e *duplicateKey) Error() string {
	return fmt.Sprintf("%sline %d: Map keys must be unique", yamlErrorPrefix, e.node.Line)
}

// errSecondDocument is yaml/v3's finding of a second document.
var errSecondDocument = errors.New(yamlErrorPrefix + "Source contains multiple documents; please use YAML.parseAllDocuments()")

// unknownAnchor is yaml/v3's text for an alias without its anchor.
var unknownAnchor = regexp.MustCompile(`unknown anchor '(.*)' referenced$`)

// libraryError words a refusal of yaml/v3 as the library words the same
// refusal, where ParseYAML knows it; elsewhere it is "YAMLParseError: "
// and yaml/v3's text.
func libraryError(data []byte, err error) error {
	if errors.Is(err, errSecondDocument) {
		if e := locateSecondDocument(data); e != nil {
			return e
		}
		return err
	}
	var v3 *v3Error
	if !errors.As(err, &v3) {
		return err
	}
	if m := unknownAnchor.FindStringSubmatch(v3.msg); m != nil {
		// The library refuses a flow collection left open, or a block
		// mapping in one, before it resolves aliases.
		if f := findOpenFlow(data); f != nil {
			return f.error(data)
		}
		if e := flowItemRefusal(data); e != nil {
			return e
		}
		return errors.New(aliasErrorPrefix + "Unresolved alias (the anchor must be set before the alias): " + libraryAnchorName(data, '*', m[1]))
	}
	if strings.Contains(v3.msg, "mapping values are not allowed in this context") {
		// An alias value whose name goes on with a ':' ("*name:"): the
		// library's lexer reads the ':' into the name, which no anchor
		// has, where yaml/v3 reads a ':' after the alias.
		line := 1 // yaml/v3 names no line for the first
		if m := yamlV3Line.FindStringSubmatch(v3.msg); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		if name := colonAlias(data, line); name != "" && findOpenFlow(data) == nil {
			return errors.New(aliasErrorPrefix + "Unresolved alias (the anchor must be set before the alias): " + name)
		}
	}
	if e := locateYAMLError(data, v3.msg); e != nil {
		return e
	}
	return errors.New(yamlErrorPrefix + strings.TrimPrefix(v3.msg, "yaml: "))
}

// isLibraryAnchorChar reports whether the library's lexer reads c into
// the name of an anchor or an alias: all but white space and flow
// indicators (yaml/v3 takes letters, digits, '_' and '-' only).
func isLibraryAnchorChar(c byte) bool {
	return bytes.IndexByte([]byte(" ,[]{}\n\r\t"), c) < 0
}

// libraryAnchorName returns the name the library reads for the first
// anchor or alias (indicator '&' or '*') of data that yaml/v3 names
// name: where the text goes on after it with characters the library
// reads into the name, the longer name.
func libraryAnchorName(data []byte, indicator byte, name string) string {
	token := append([]byte{indicator}, name...)
	for i := 0; i < len(data); {
		k := bytes.Index(data[i:], token)
		if k < 0 {
			break
		}
		at := i + k
		if at == 0 || yamlBlank(data, at-1) || bytes.IndexByte([]byte("[{,"), data[at-1]) >= 0 {
			end := at + len(token)
			for end < len(data) && isLibraryAnchorChar(data[end]) {
				end++
			}
			return string(data[at+1 : end])
		}
		i = at + 1
	}
	return name
}

// colonAlias returns the name the library reads for an alias that is the
// value of the mapping pair on line (from 1) and whose name goes on with
// a ':' to the end of the line's content, where no anchor of that name
// comes before it, or "".
func colonAlias(data []byte, line int) string {
	lines := textLines(data)
	if line < 1 || line > len(lines) {
		return ""
	}
	ln := lines[line-1]
	v := valueStart(ln.text)
	if v < 0 || ln.text[v] != '*' {
		return ""
	}
	end := v + 1
	for end < len(ln.text) && isLibraryAnchorChar(ln.text[end]) {
		end++
	}
	name := ln.text[v+1 : end]
	rest := bytes.TrimLeft(ln.text[end:], " \t")
	if !bytes.Contains(name, []byte(":")) || len(rest) > 0 && rest[0] != '#' {
		return ""
	}
	anchor := append([]byte{'&'}, name...)
	if k := bytes.Index(data[:ln.start+v], anchor); k >= 0 && (k+len(anchor) == len(data) || !isLibraryAnchorChar(data[k+len(anchor)])) {
		return ""
	}
	return string(name)
}

// v3Error is an error of yaml/v3, its text kept.
type v3Error struct{ msg string }

func (e *v3Error) Error() string { return yamlErrorPrefix + strings.TrimPrefix(e.msg, "yaml: ") }

// originalOffset maps an offset of the rewritten text back to data.
func originalOffset(off int, edits ...[]yamlEdit) int {
	var all []yamlEdit
	for _, e := range edits {
		all = append(all, e...)
	}
	slices.SortFunc(all, func(a, b yamlEdit) int { return a.at - b.at })
	shift := 0
	for _, e := range all {
		newAt := e.at + shift
		if newAt >= off {
			break
		}
		if off < newAt+len(e.with) {
			return e.at
		}
		shift += len(e.with) - e.old
	}
	return off - shift
}

// decodeOne reads the one document of text: nil for none, and the
// library's error for several.
func decodeOne(text []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, &v3Error{err.Error()}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, &v3Error{err.Error()}
		}
		return nil, errSecondDocument
	}
	return &doc, nil
}

// converter turns a node tree into a document value. It keeps upstream's
// alias budget and counts the values it copies through aliases; once
// either is exceeded it records the error in stop and goes on without
// expanding aliases, only to find a duplicate key, which takes precedence.
type converter struct {
	// anchors holds the uses of each anchored node converted so far.
	anchors map[*yaml.Node]*anchorUse
	// expanding is the depth of alias expansion: a node converted at a
	// depth above zero is a copy, and its aliases were counted where the
	// anchored node stands.
	expanding int
	copies    int
	stop      error
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

// anchorUse is upstream's record of an anchor: the uses of its node (one
// for the anchor, one per alias) and its alias count, 0 until first
// aliased.
type anchorUse struct {
	count, aliasCount int
}

// anchor starts the record of an anchored node where it stands.
func (c *converter) anchor(n *yaml.Node) *anchorUse {
	if c.anchors == nil {
		c.anchors = make(map[*yaml.Node]*anchorUse)
	}
	use := &anchorUse{count: 1}
	c.anchors[n] = use
	return use
}

// count accounts for one more value, counting copies.
func (c *converter) count() {
	if c.expanding == 0 {
		return
	}
	if c.copies++; c.copies > MaxAliasValues && c.stop == nil {
		c.stop = &YAMLSizeError{Aliases: true, Size: c.copies, Limit: MaxAliasValues}
	}
}

// useAlias records a use of n's anchor, as upstream does, and stops the
// conversion when the budget is exceeded.
func (c *converter) useAlias(n *yaml.Node) {
	use := c.anchors[n.Alias]
	if use == nil {
		// An anchor is converted before its aliases: not reached.
		use = c.anchor(n.Alias)
	}
	use.count++
	if use.aliasCount == 0 {
		use.aliasCount = c.aliasCount(n.Alias)
	}
	if use.count*use.aliasCount > maxAliasCount && c.stop == nil {
		c.stop = errAliasBudget
	}
}

// aliasCount is upstream's alias count of a node: 1 for a scalar, the
// largest among the members of a collection (0 for an empty one), the uses
// times the alias count of the anchor of an alias.
func (c *converter) aliasCount(n *yaml.Node) int {
	switch n.Kind {
	case yaml.AliasNode:
		if use := c.anchors[n.Alias]; use != nil {
			return use.count * use.aliasCount
		}
		return 0
	case yaml.SequenceNode, yaml.MappingNode:
		most := 0
		for _, e := range n.Content {
			most = max(most, c.aliasCount(e))
		}
		return most
	}
	return 1
}

// stub stands for an alias once the conversion has stopped: the scalar
// itself (keys are compared by value), an empty collection otherwise.
func stub(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		return NewObject()
	case yaml.SequenceNode:
		return []any{}
	}
	return scalarValue(n)
}

// enter accounts for converting n: one more value, and, where n stands,
// its anchor.
func (c *converter) enter(n *yaml.Node) {
	c.count()
	// Not recording an anchor here ("==") would be the same: useAlias
	// records one it has not seen, with the same count.
	//mutants:equivalent CONDITIONALS_NEGATION@14
	if n.Anchor != "" && c.expanding == 0 {
		c.anchor(n)
	}
}

func (c *converter) value(n *yaml.Node) (any, error) {
	c.enter(n)
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
		if c.expanding == 0 {
			c.useAlias(n)
		}
		if c.stop != nil {
			return stub(n.Alias), nil
		}
		c.expanding++
		defer func() { c.expanding-- }()
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
	//mutants:equivalent ARITHMETIC_BASE
	size := len(n.Content) / 2 // a capacity: "*" would only allocate more
	obj := NewObjectSize(size)
	start := len(c.seen)
	defer func() { c.seen = c.seen[:start] }()
	var index map[mapKey]bool
	for i := 0; i < len(n.Content); i += 2 { // keys and values in pairs
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
				// Building the index at any other size (">=", "<=",
				// "+start") only moves the point where lookups switch:
				// for keys that are not collections, a map's equality of
				// mapKey is same.
				//mutants:equivalent ARITHMETIC_BASE INVERT_NEGATIVES CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
				if len(c.seen)-start > bigMapping {
					index = make(map[mapKey]bool, size)
					for _, s := range c.seen[start:] {
						index[s] = true
					}
				}
			}
			if dup {
				return nil, &duplicateKey{kn}
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
		c.enter(n)
		if n.Style&yaml.TaggedStyle != 0 {
			return keyOf(taggedScalar(n)), nil
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
	k := keyOf(v)
	// The library compares keys that are scalars by value; an alias is
	// no scalar node, so an aliased key equals no other.
	k.collection = k.collection || n.Kind == yaml.AliasNode
	return k, nil
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
		return NumberString(k)
	}
	return string(Stringify(k, ""))
}

// scalarValue resolves a scalar with the YAML 1.2 core schema. Quoted and
// block scalars are strings; an explicit !!str tag keeps the text.
func scalarValue(n *yaml.Node) any {
	if n.Style&yaml.TaggedStyle != 0 {
		return taggedScalar(n)
	}
	if stringStyle(n) {
		return n.Value
	}
	return coreScalar(n.Value)
}

// taggedScalar resolves a scalar with an explicit tag as the library
// does: a tag of the core schema (!!null, !!bool, !!int, !!float) gives
// its value when the text, quoted or not, matches that tag's pattern, and
// a string otherwise, as does any other tag (the library warns that it
// cannot resolve it). The library's tags beyond the core schema (!!binary,
// !!set, !!omap, !!pairs, !!timestamp) are not reproduced: their text is
// kept as a string.
func taggedScalar(n *yaml.Node) any {
	v, ok := coreNonString(n.Value)
	if !ok {
		return n.Value
	}
	s := n.Value
	switch n.ShortTag() {
	case "!!null":
		if v == nil {
			return nil
		}
	case "!!bool":
		if _, isBool := v.(bool); isBool {
			return v
		}
	case "!!int":
		if isCoreInt(s) {
			return v
		}
	case "!!float":
		if _, isNum := v.(float64); isNum && !isCoreInt(s) && !strings.HasPrefix(s, "0o") && !strings.HasPrefix(s, "0x") {
			return v
		}
	}
	return s
}

// isCoreInt reports whether s matches the core schema's decimal, octal or
// hexadecimal integer pattern.
func isCoreInt(s string) bool {
	switch {
	case len(s) > 2 && s[:2] == "0o":
		return allBytes(s[2:], isOctal)
	case len(s) > 2 && s[:2] == "0x":
		return allBytes(s[2:], isHex)
	case s != "" && (s[0] == '-' || s[0] == '+'):
		s = s[1:]
	}
	return s != "" && allBytes(s, isDigitByte)
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
	if c := s[0]; !isDigitByte(c) && c != '-' && c != '+' && c != '.' {
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
	// Its one caller, coreNonString, never passes "", so "i <= len(s)"
	// in the first test is the same.
	//mutants:equivalent CONDITIONALS_BOUNDARY
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
	for n < len(s) && isDigitByte(s[n]) {
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

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
func isOctal(c byte) bool     { return c >= '0' && c <= '7' }
func isHex(c byte) bool       { return isDigitByte(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

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

// lexerRefusal returns the library's refusal of a document yaml/v3 reads,
// where the library's lexer ends a token where yaml/v3 does not: a flow
// collection or quoted scalar ended by a line indented less than its
// block context requires (tabs do not indent), a comment right after a
// quoted scalar, a flow indicator or a block scalar header. findOpenFlow
// finds it; it counts only where yaml/v3 read a node of that kind at the
// place, so that a text findOpenFlow misreads is not refused.
func lexerRefusal(data []byte, r v3Read) *YAMLParseError {
	if bytes.IndexAny(data, "[{\"'#") < 0 {
		return nil
	}
	f := findOpenFlow(data)
	if f == nil {
		return nil
	}
	if !nodeAt(r.doc, func(n *yaml.Node) bool {
		at := originalOffset(offsetOf(r.text, n.Line, n.Column), r.edits)
		// yaml/v3 places a node with properties at its first property.
		for at >= 0 && at < len(data) && (data[at] == '&' || data[at] == '!') {
			for at < len(data) && !yamlBlank(data, at) {
				at++
			}
			for at < len(data) && yamlBlank(data, at) {
				at++
			}
		}
		return at == f.token
	}) {
		return nil
	}
	return f.error(data)
}

// nodeAt reports whether ok holds for n or a node below it.
func nodeAt(n *yaml.Node, ok func(*yaml.Node) bool) bool {
	if n.Kind != yaml.DocumentNode && ok(n) {
		return true
	}
	for _, c := range n.Content {
		if nodeAt(c, ok) {
			return true
		}
	}
	return false
}
