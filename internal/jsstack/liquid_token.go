package jsstack

import (
	"strings"
	"unicode/utf16"
)

// The tokenizer is LiquidJS's (src/parser/tokenizer.ts), on the template's
// UTF-16 code units so that positions count as JavaScript counts them.

// Character classes of LiquidJS's util/character.ts.
const (
	lqWord        = 1
	lqBlank       = 4
	lqQuote       = 8
	lqInlineBlank = 16
	lqNumber      = 32
	lqSign        = 64
	lqPunctuation = 128
)

var lqTypes = [128]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 4, 4, 4, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 2, 8, 0, 0, 0, 0, 8, 0, 0, 0, 64, 0, 65, 0, 0, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 0, 0, 2, 2, 2, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}

// lqType is TYPES[c] (0 for a position outside the input, c < 0).
func lqType(c int) uint8 {
	switch {
	case c < 0:
		return 0
	case c < 128:
		return lqTypes[c]
	}
	switch c {
	case 160, 5760, 6158, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288:
		return lqBlank
	case 8220, 8221:
		return lqPunctuation
	}
	return 0
}

func lqIsWord(c int) bool {
	if c >= 128 {
		return lqType(c) == 0
	}
	return lqType(c)&lqWord != 0
}

// Upstream's delimiters.
var (
	lqTagLeft     = lqU16("[[%")
	lqTagRight    = lqU16("%]]")
	lqOutputLeft  = lqU16("[[=")
	lqOutputRight = lqU16("]]")
)

// lqPos is a token's span in its input.
type lqPos struct {
	in         []uint16
	begin, end int
}

func (t lqPos) text() string { return lqSlice(t.in, t.begin, t.end) }

// position returns the line and column of the token's start, from 1.
func (t lqPos) position() (int, int) {
	line, col := 1, 1
	for i := 0; i < t.begin && i < len(t.in); i++ {
		if t.in[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func (t lqPos) pos() lqPos { return t }

// lqSlice is input.slice(b, e) as a Go string.
func lqSlice(in []uint16, b, e int) string {
	b = max(0, min(b, len(in)))
	e = max(0, min(e, len(in)))
	if b >= e {
		return ""
	}
	return lqFromU16(in[b:e])
}

// lqError builds a LiquidError of a class at a token.
func lqError(class, msg string, at lqPos) *LiquidError {
	line, col := at.position()
	return &LiquidError{Class: class, Message: msg, Line: line, Col: col}
}

// lqJSError is a plain JavaScript Error (or AssertionError, TypeError) of a
// message, which the parser and the renderer wrap with a token.
type lqJSError struct{ msg string }

func (e *lqJSError) Error() string { return e.msg }

func lqErrorf(msg string) error { return &lqJSError{msg: msg} }

// lqUndefinedVar is LiquidJS's InternalUndefinedVariableError.
type lqUndefinedVar struct{ path string }

func (e *lqUndefinedVar) Error() string { return "undefined variable: " + e.path }

// Token kinds.

type lqToken interface{ pos() lqPos }

// lqHTML is a text token with the blanks whitespace control trims.
type lqHTML struct {
	lqPos
	trimLeft, trimRight int
}

func (t *lqHTML) content() string { return lqSlice(t.in, t.begin+t.trimLeft, t.end-t.trimRight) }

// lqDelimited is a tag or an output: its content range and trim flags.
type lqDelimited struct {
	lqPos
	cb, ce              int
	trimLeft, trimRight bool
}

func newLqDelimited(in []uint16, begin, end, cb, ce int) lqDelimited {
	at := func(i int) int {
		if i < 0 || i >= len(in) {
			return -1
		}
		return int(in[i])
	}
	tl := at(cb) == '-'
	tr := at(ce-1) == '-'
	l, r := cb, ce
	if tl {
		l++
	}
	if tr {
		r--
	}
	for l < r && lqType(at(l))&lqBlank != 0 {
		l++
	}
	for r > l && lqType(at(r-1))&lqBlank != 0 {
		r--
	}
	return lqDelimited{lqPos: lqPos{in, begin, end}, cb: l, ce: r, trimLeft: tl, trimRight: tr}
}

// lqTag is a tag token, with the tokenizer of its arguments.
type lqTag struct {
	lqDelimited
	name     string
	tz       *lqTokenizer
	argsText string // the arguments after the name, as at construction
}

func newLqTag(d lqDelimited, liquidTag bool) (*lqTag, error) {
	t := &lqTag{lqDelimited: d, tz: newLqTokenizer(d.in, d.cb, d.ce)}
	t.name = t.tz.readTagName()
	if t.name == "" {
		msg := "illegal tag syntax, tag name expected"
		if liquidTag {
			msg = "illegal liquid tag syntax"
		}
		return nil, t.tz.error(msg, t.tz.p)
	}
	t.tz.skipBlank()
	t.argsText = lqSlice(t.in, t.tz.p, t.ce)
	return t, nil
}

// lqOutput is an output token.
type lqOutput struct{ lqDelimited }

// Value tokens of expressions.

type lqNumberTok struct {
	lqPos
	v float64
}

type lqIdentTok struct {
	lqPos
	v string
}

type lqLiteralTok struct {
	lqPos
	v any
}

type lqQuotedTok struct {
	lqPos
	v string
}

type lqRangeTok struct {
	lqPos
	lhs, rhs lqToken
}

type lqPropTok struct {
	lqPos
	variable lqToken
	props    []lqToken
}

type lqOpTok struct {
	lqPos
	op string
}

// lqFilterTok is a filter with its arguments: value tokens or key-value
// pairs.
type lqFilterTok struct {
	lqPos
	name string
	args []lqFilterArg
}

type lqFilterArg struct {
	key   string  // a key-value pair when isKV
	value lqToken // nil for a pair without a value
	isKV  bool
}

type lqHashTok struct {
	lqPos
	name  string
	value lqToken
}

var lqOperators = []string{"==", "!=", ">", "<", ">=", "<=", "contains", "not", "and", "or"}

var lqLiterals = []string{"true", "false", "nil", "null", "empty", "blank"}

func lqLiteralValue(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	case "nil", "null":
		return lqNil
	case "empty":
		return lqEmpty
	}
	return lqBlankDrop
}

// lqTokenizer is LiquidJS's Tokenizer over input[p:n].
type lqTokenizer struct {
	in         []uint16
	p, n       int
	rawBeginAt int
}

func newLqTokenizer(in []uint16, p, n int) *lqTokenizer {
	return &lqTokenizer{in: in, p: p, n: n, rawBeginAt: -1}
}

func newLqTokenizerString(s string) *lqTokenizer {
	in := lqU16(s)
	return newLqTokenizer(in, 0, len(in))
}

// at is input[i] (-1 outside the input).
func (t *lqTokenizer) at(i int) int {
	if i < 0 || i >= len(t.in) {
		return -1
	}
	return int(t.in[i])
}

func (t *lqTokenizer) end() bool { return t.p >= t.n }

func (t *lqTokenizer) peek(n int) int {
	if t.p+n >= t.n {
		return -1
	}
	return t.at(t.p + n)
}

func (t *lqTokenizer) peekType(n int) uint8 {
	if t.p+n >= t.n {
		return 0
	}
	return lqType(t.at(t.p + n))
}

func (t *lqTokenizer) read() int {
	c := t.at(t.p)
	t.p++
	return c
}

func (t *lqTokenizer) skipBlank() {
	for t.peekType(0)&lqBlank != 0 {
		t.p++
	}
}

func (t *lqTokenizer) match(word []uint16) bool {
	for i, c := range word {
		if t.at(t.p+i) != int(c) {
			return false
		}
	}
	return true
}

func (t *lqTokenizer) rmatch(pattern []uint16) bool {
	for i := range pattern {
		if int(pattern[len(pattern)-1-i]) != t.at(t.p-1-i) {
			return false
		}
	}
	return true
}

func (t *lqTokenizer) error(msg string, pos int) *LiquidError {
	return lqError("TokenizationError", msg, lqPos{t.in, pos, t.n})
}

// snapshot is JSON.stringify(ellipsis(input.slice(begin, N), 32)).
func (t *lqTokenizer) snapshot(begin int) string {
	s := t.in[max(0, min(begin, t.n)):t.n]
	if begin > t.n {
		s = nil
	}
	if len(s) > 32 {
		s = append(append([]uint16{}, s[:29]...), '.', '.', '.')
	}
	return lqQuoteJSON(s)
}

// matchTrie returns the end of the longest of words at p (with a word
// boundary after a word ending in a word character), or -1.
func (t *lqTokenizer) matchWords(words []string) int {
	best := -1
	needBoundary := false
	for _, w := range words {
		ok := true
		for i := 0; i < len(w); i++ {
			if t.p+i >= t.n || t.at(t.p+i) != int(w[i]) {
				ok = false
				break
			}
		}
		if ok && t.p+len(w) > best {
			best = t.p + len(w)
			needBoundary = lqIsWord(int(w[len(w)-1]))
		}
	}
	if best < 0 {
		return -1
	}
	if needBoundary {
		// isWord(this.peek(i - this.p)): peek is bounded by N.
		c := -1
		if best < t.n {
			c = t.at(best)
		}
		if lqIsWord(c) {
			return -1
		}
	}
	return best
}

func (t *lqTokenizer) readTopLevelTokens() ([]lqToken, error) {
	var toks []lqToken
	for t.p < t.n {
		tok, err := t.readTopLevelToken()
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
	}
	lqWhiteSpaceCtrl(toks)
	return toks, nil
}

func (t *lqTokenizer) readTopLevelToken() (lqToken, error) {
	if t.rawBeginAt > -1 {
		return t.readEndrawOrRawContent()
	}
	if t.match(lqTagLeft) {
		return t.readTagToken()
	}
	if t.match(lqOutputLeft) {
		return t.readOutputToken()
	}
	return t.readHTMLToken(lqTagLeft, lqOutputLeft), nil
}

func (t *lqTokenizer) readHTMLToken(stops ...[]uint16) *lqHTML {
	begin := t.p
	for t.p < t.n {
		stop := false
		for _, s := range stops {
			if t.match(s) {
				stop = true
				break
			}
		}
		if stop {
			break
		}
		t.p++
	}
	return &lqHTML{lqPos: lqPos{t.in, begin, t.p}}
}

func (t *lqTokenizer) readTagToken() (lqToken, error) {
	begin := t.p
	if t.readToDelimiter(lqTagRight, false) == -1 {
		return nil, t.error("tag "+t.snapshot(begin)+" not closed", begin)
	}
	d := newLqDelimited(t.in, begin, t.p, begin+len(lqTagLeft), t.p-len(lqTagRight))
	tag, err := newLqTag(d, false)
	if err != nil {
		return nil, err
	}
	if tag.name == "raw" {
		t.rawBeginAt = begin
	}
	return tag, nil
}

func (t *lqTokenizer) readToDelimiter(delim []uint16, respectQuoted bool) int {
	t.skipBlank()
	for t.p < t.n {
		if respectQuoted && t.peekType(0)&lqQuote != 0 {
			t.readQuoted()
			continue
		}
		t.p++
		if t.rmatch(delim) {
			return t.p
		}
	}
	return -1
}

func (t *lqTokenizer) readOutputToken() (lqToken, error) {
	begin := t.p
	if t.readToDelimiter(lqOutputRight, true) == -1 {
		return nil, t.error("output "+t.snapshot(begin)+" not closed", begin)
	}
	return &lqOutput{newLqDelimited(t.in, begin, t.p, begin+len(lqOutputLeft), t.p-len(lqOutputRight))}, nil
}

func (t *lqTokenizer) readTo(end []uint16) int {
	for t.p < t.n {
		t.p++
		if t.rmatch(end) {
			return t.p
		}
	}
	return -1
}

func (t *lqTokenizer) readEndrawOrRawContent() (lqToken, error) {
	begin := t.p
	leftPos := t.readTo(lqTagLeft) - len(lqTagLeft)
	for t.p < t.n {
		if t.readIdentifier().v != "endraw" {
			leftPos = t.readTo(lqTagLeft) - len(lqTagLeft)
			continue
		}
		for t.p <= t.n {
			if t.rmatch(lqTagRight) {
				end := t.p
				if begin == leftPos {
					t.rawBeginAt = -1
					d := newLqDelimited(t.in, begin, end, begin+len(lqTagLeft), end-len(lqTagRight))
					return newLqTag(d, false)
				}
				t.p = leftPos
				return &lqHTML{lqPos: lqPos{t.in, begin, leftPos}}, nil
			}
			if t.rmatch(lqTagLeft) {
				break
			}
			t.p++
		}
	}
	return nil, t.error("raw "+t.snapshot(t.rawBeginAt)+" not closed", begin)
}

func (t *lqTokenizer) readLiquidTagTokens() ([]lqToken, error) {
	var toks []lqToken
	for t.p < t.n {
		t.skipBlank()
		if t.end() {
			break
		}
		begin := t.p
		t.readToDelimiter([]uint16{'\n'}, false)
		tag, err := newLqTag(newLqDelimited(t.in, begin, t.p, begin, t.p), true)
		if err != nil {
			return nil, err
		}
		toks = append(toks, tag)
	}
	return toks, nil
}

func (t *lqTokenizer) readIdentifier() *lqIdentTok {
	t.skipBlank()
	begin := t.p
	for !t.end() && lqIsWord(t.peek(0)) {
		t.p++
	}
	return &lqIdentTok{lqPos{t.in, begin, t.p}, lqSlice(t.in, begin, t.p)}
}

func (t *lqTokenizer) readNonEmptyIdentifier() *lqIdentTok {
	id := t.readIdentifier()
	if id.end == id.begin {
		return nil
	}
	return id
}

func (t *lqTokenizer) readTagName() string {
	t.skipBlank()
	if t.at(t.p) == '#' {
		t.p++
		return "#"
	}
	return t.readIdentifier().v
}

func (t *lqTokenizer) readExpression() []lqToken {
	var toks []lqToken
	for t.p < t.n {
		if op := t.readOperator(); op != nil {
			toks = append(toks, op)
			continue
		}
		if v := t.readValue(); v != nil {
			toks = append(toks, v)
			continue
		}
		break
	}
	return lqPostfix(toks)
}

func (t *lqTokenizer) readOperator() lqToken {
	t.skipBlank()
	end := t.matchWords(lqOperators)
	if end == -1 {
		return nil
	}
	op := &lqOpTok{lqPos{t.in, t.p, end}, lqSlice(t.in, t.p, end)}
	t.p = end
	return op
}

func (t *lqTokenizer) readFilteredValue() (*lqFilteredValue, error) {
	begin := t.p
	initial := t.readExpression()
	if len(initial) == 0 {
		return nil, t.error("invalid value expression: "+t.snapshot(t.p), t.p)
	}
	filters, err := t.readFilters()
	if err != nil {
		return nil, err
	}
	return &lqFilteredValue{lqPos: lqPos{t.in, begin, t.p}, initial: initial, filters: filters}, nil
}

func (t *lqTokenizer) readFilters() ([]*lqFilterTok, error) {
	var filters []*lqFilterTok
	for {
		f, err := t.readFilter()
		if err != nil || f == nil {
			return filters, err
		}
		filters = append(filters, f)
	}
}

func (t *lqTokenizer) readFilter() (*lqFilterTok, error) {
	t.skipBlank()
	if t.end() {
		return nil, nil
	}
	if t.read() != '|' {
		return nil, t.error(`expected "|" before filter`, t.p)
	}
	name := t.readIdentifier()
	if name.end == name.begin {
		if !t.end() {
			return nil, t.error("expected filter name", t.p)
		}
		return nil, nil
	}
	var args []lqFilterArg
	t.skipBlank()
	if t.peek(0) == ':' {
		for {
			t.p++
			if arg, ok := t.readFilterArg(); ok {
				args = append(args, arg)
			}
			t.skipBlank()
			if !(t.end() || t.peek(0) == ',' || t.peek(0) == '|') {
				return nil, t.error("unexpected character "+t.snapshot(t.p), t.p)
			}
			if t.peek(0) != ',' {
				break
			}
		}
	} else if t.peek(0) == '|' || t.end() {
	} else {
		return nil, t.error(`expected ":" after filter name`, t.p)
	}
	return &lqFilterTok{lqPos: lqPos{t.in, name.begin, t.p}, name: name.v, args: args}, nil
}

func (t *lqTokenizer) readFilterArg() (lqFilterArg, bool) {
	key := t.readValue()
	if key == nil {
		return lqFilterArg{}, false
	}
	t.skipBlank()
	if t.peek(0) != ':' {
		return lqFilterArg{value: key}, true
	}
	t.p++
	v := t.readValue()
	return lqFilterArg{key: key.pos().text(), value: v, isKV: true}, true
}

func (t *lqTokenizer) readHashes() []*lqHashTok {
	var hashes []*lqHashTok
	for {
		h := t.readHash()
		if h == nil {
			return hashes
		}
		hashes = append(hashes, h)
	}
}

func (t *lqTokenizer) readHash() *lqHashTok {
	t.skipBlank()
	if t.peek(0) == ',' {
		t.p++
	}
	begin := t.p
	name := t.readNonEmptyIdentifier()
	if name == nil {
		return nil
	}
	var value lqToken
	t.skipBlank()
	if t.peek(0) == ':' {
		t.p++
		value = t.readValue()
	}
	return &lqHashTok{lqPos{t.in, begin, t.p}, name.v, value}
}

// readValue returns a value token or nil.
func (t *lqTokenizer) readValue() lqToken {
	t.skipBlank()
	begin := t.p
	var variable lqToken
	if v := t.readLiteral(); v != nil {
		variable = v
	} else if v := t.readQuoted(); v != nil {
		variable = v
	} else if v := t.readRange(); v != nil {
		variable = v
	} else if v := t.readNumber(); v != nil {
		variable = v
	}
	props := t.readProperties(variable == nil)
	if len(props) == 0 {
		return variable
	}
	return &lqPropTok{lqPos{t.in, begin, t.p}, variable, props}
}

func (t *lqTokenizer) readScopeValue() lqToken {
	t.skipBlank()
	begin := t.p
	props := t.readProperties(true)
	if len(props) == 0 {
		return nil
	}
	return &lqPropTok{lqPos{t.in, begin, t.p}, nil, props}
}

// errRange is the assertion a malformed range raises; readValue's callers
// cannot return it, so it is kept and raised by the tag or output.
type lqRangeError struct{ err *LiquidError }

func (t *lqTokenizer) readProperties(isBegin bool) []lqToken {
	var props []lqToken
	for {
		if t.peek(0) == '[' {
			t.p++
			prop := t.readValue()
			if prop == nil {
				prop = &lqIdentTok{lqPos{t.in, t.p, t.p}, ""}
			}
			if t.readTo([]uint16{']'}) == -1 {
				panic(lqRangeError{t.error("[ not closed", t.p)})
			}
			props = append(props, prop)
			continue
		}
		if isBegin && len(props) == 0 {
			if prop := t.readNonEmptyIdentifier(); prop != nil {
				props = append(props, prop)
				continue
			}
		}
		if t.peek(0) == '.' && t.peek(1) != '.' {
			t.p++
			prop := t.readNonEmptyIdentifier()
			if prop == nil {
				break
			}
			props = append(props, prop)
			continue
		}
		break
	}
	return props
}

func (t *lqTokenizer) readNumber() lqToken {
	t.skipBlank()
	decimalFound, digitFound := false, false
	n := 0
	if t.peekType(0)&lqSign != 0 {
		n++
	}
	for t.p+n <= t.n {
		if t.peekType(n)&lqNumber != 0 {
			digitFound = true
			n++
		} else if t.peek(n) == '.' && t.peek(n+1) != '.' {
			if decimalFound || !digitFound {
				return nil
			}
			decimalFound = true
			n++
		} else {
			break
		}
	}
	if digitFound && !lqIsWord(t.peek(n)) {
		tok := &lqNumberTok{lqPos{t.in, t.p, t.p + n}, 0}
		tok.v = lqStringToNumber(tok.text())
		t.p += n
		return tok
	}
	return nil
}

func (t *lqTokenizer) readLiteral() lqToken {
	t.skipBlank()
	end := t.matchWords(lqLiterals)
	if end == -1 {
		return nil
	}
	tok := &lqLiteralTok{lqPos{t.in, t.p, end}, lqLiteralValue(lqSlice(t.in, t.p, end))}
	t.p = end
	return tok
}

func (t *lqTokenizer) readRange() lqToken {
	t.skipBlank()
	begin := t.p
	if t.peek(0) != '(' {
		return nil
	}
	t.p++
	lhs := t.readValueOrThrow()
	t.skipBlank()
	if t.read() != '.' || t.read() != '.' {
		panic(lqRangeError{t.error("invalid range syntax", t.p)})
	}
	rhs := t.readValueOrThrow()
	t.skipBlank()
	if t.read() != ')' {
		panic(lqRangeError{t.error("invalid range syntax", t.p)})
	}
	return &lqRangeTok{lqPos{t.in, begin, t.p}, lhs, rhs}
}

func (t *lqTokenizer) readValueOrThrow() lqToken {
	v := t.readValue()
	if v == nil {
		panic(lqRangeError{t.error("unexpected token "+t.snapshot(t.p)+", value expected", t.p)})
	}
	return v
}

func (t *lqTokenizer) readQuoted() lqToken {
	t.skipBlank()
	begin := t.p
	if t.peekType(0)&lqQuote == 0 {
		return nil
	}
	t.p++
	escaped := false
	for t.p < t.n {
		t.p++
		if t.at(t.p-1) == t.at(begin) && !escaped {
			break
		}
		if escaped {
			escaped = false
		} else if t.at(t.p-1) == '\\' {
			escaped = true
		}
	}
	return &lqQuotedTok{lqPos{t.in, begin, t.p}, lqParseStringLiteral(t.in[begin:t.p])}
}

// readFileNameTemplate reads the file name of include, render and layout
// as LiquidJS does without dynamic partials.
func (t *lqTokenizer) readFileNameTemplate() ([]lqToken, error) {
	stops := [][]uint16{{','}, {' '}, {'\r'}, {'\n'}, {'\t'}, lqOutputLeft}
	var toks []lqToken
	for t.p < t.n {
		c := t.peek(0)
		if c == ',' || c == ' ' || c == '\r' || c == '\n' || c == '\t' {
			break
		}
		if t.match(lqOutputLeft) {
			tok, err := t.readOutputToken()
			if err != nil {
				return nil, err
			}
			toks = append(toks, tok)
		} else {
			toks = append(toks, t.readHTMLToken(stops...))
		}
	}
	return toks, nil
}

// lqParseStringLiteral is LiquidJS's parseStringLiteral.
func lqParseStringLiteral(s []uint16) string {
	var out []uint16
	at := func(i int) int {
		if i < 0 || i >= len(s) {
			return -1
		}
		return int(s[i])
	}
	isHex := func(c int) bool {
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	isOct := func(c int) bool { return c >= '0' && c <= '7' }
	hexVal := func(c int) int {
		switch {
		case c >= 97:
			return c - 87
		case c >= 65:
			return c - 55
		}
		return c - 48
	}
	for i := 1; i < len(s)-1; i++ {
		if s[i] != '\\' {
			out = append(out, s[i])
			continue
		}
		switch c := at(i + 1); c {
		case 'b', 'f', 'n', 'r', 't', 'v':
			out = append(out, map[int]uint16{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}[c])
			i++
		case 'u':
			val := 0
			j := i + 2
			for j <= i+5 && isHex(at(j)) {
				val = val*16 + hexVal(at(j))
				j++
			}
			i = j - 1
			out = append(out, uint16(val))
		default:
			if !isOct(c) {
				i++
				if c >= 0 {
					out = append(out, uint16(c))
				}
				continue
			}
			j := i + 1
			val := 0
			for j <= i+3 && isOct(at(j)) {
				val = val*8 + hexVal(at(j))
				j++
			}
			i = j - 1
			out = append(out, uint16(val))
		}
	}
	return lqFromU16(out)
}

// lqQuoteJSON is JSON.stringify of a string of UTF-16 code units.
func lqQuoteJSON(s []uint16) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		case utf16.IsSurrogate(rune(c)):
			if c < 0xdc00 && i+1 < len(s) && s[i+1] >= 0xdc00 && s[i+1] < 0xe000 {
				b.WriteRune(utf16.DecodeRune(rune(c), rune(s[i+1])))
				i++
				continue
			}
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte("0123456789abcdef"[(c>>shift)&15])
			}
		default:
			b.WriteRune(rune(c))
		}
	}
	b.WriteByte('"')
	return b.String()
}

// lqWhiteSpaceCtrl trims the text beside tags and outputs marked with "-",
// greedily, as LiquidJS's whiteSpaceCtrl does.
func lqWhiteSpaceCtrl(toks []lqToken) {
	inRaw := false
	for i, tok := range toks {
		var d *lqDelimited
		switch t := tok.(type) {
		case *lqTag:
			d = &t.lqDelimited
		case *lqOutput:
			d = &t.lqDelimited
		default:
			continue
		}
		if !inRaw && d.trimLeft && i > 0 {
			if h, ok := toks[i-1].(*lqHTML); ok {
				for {
					j := h.end - 1 - h.trimRight
					if j < 0 || j >= len(h.in) || lqType(int(h.in[j]))&lqBlank == 0 {
						break
					}
					h.trimRight++
				}
			}
		}
		if t, ok := tok.(*lqTag); ok {
			if t.name == "raw" {
				inRaw = true
			} else if t.name == "endraw" {
				inRaw = false
			}
		}
		if !inRaw && d.trimRight && i+1 < len(toks) {
			if h, ok := toks[i+1].(*lqHTML); ok {
				for {
					j := h.begin + h.trimLeft
					if j < 0 || j >= len(h.in) || lqType(int(h.in[j]))&lqBlank == 0 {
						break
					}
					h.trimLeft++
				}
				if j := h.begin + h.trimLeft; j < len(h.in) && h.in[j] == '\n' {
					h.trimLeft++
				}
			}
		}
	}
}

// lqPostfix orders an expression's tokens for evaluation.
func lqPostfix(toks []lqToken) []lqToken {
	prec := func(t *lqOpTok) int {
		switch t.op {
		case "and", "or":
			return 0
		case "not":
			return 1
		}
		return 2
	}
	var out []lqToken
	var ops []*lqOpTok
	for _, tok := range toks {
		if op, ok := tok.(*lqOpTok); ok {
			for len(ops) > 0 && prec(ops[len(ops)-1]) > prec(op) {
				out = append(out, ops[len(ops)-1])
				ops = ops[:len(ops)-1]
			}
			ops = append(ops, op)
			continue
		}
		out = append(out, tok)
	}
	for len(ops) > 0 {
		out = append(out, ops[len(ops)-1])
		ops = ops[:len(ops)-1]
	}
	return out
}
