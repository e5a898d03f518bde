package jsstack

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONSyntaxError is the failure of [ParseJSON] on text that is not JSON.
// Its message is the one Node 22's JSON.parse gives for the same text
// (V8's JsonParser: "Unexpected end of JSON input", "Expected property
// name or '}' in JSON at position 2 (line 2 column 1)", "Unexpected token
// 'x', "[x]" is not valid JSON", …), because upstream passes it on in its
// own messages (agents/pi/PiAdapter.ts:301, readPiKeybindingsDocument).
type JSONSyntaxError struct {
	// Msg is V8's message.
	Msg string
	// Offset is the position of the error in UTF-16 code units of the text
	// as Node decodes it, as V8 counts it.
	Offset int
}

// Error returns V8's message.
func (e *JSONSyntaxError) Error() string { return e.Msg }

// ParseJSON decodes one JSON document into the value shapes of
// [Object] (nil, bool, float64, string, []any and *Object,
// with JavaScript's key order and the last of duplicate keys winning), as
// upstream's JSON.parse(readFileSync(path, 'utf8')) does: the bytes are
// decoded as UTF-8 with each ill-formed sequence replaced by U+FFFD, and
// anything JSON.parse refuses is a *[JSONSyntaxError] with its message.
func ParseJSON(data []byte) (any, error) {
	p := &jsonParser{src: NodeUTF16(data)}
	p.skipSpace()
	v := p.value()
	if p.err == nil {
		p.skipSpace()
		if p.pos < len(p.src) {
			p.fail("Unexpected non-whitespace character after JSON", true)
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return v, nil
}

// NodeUTF16 decodes data as Node's UTF-8 decoder does (a byte order mark
// is kept, every maximal ill-formed subsequence becomes one U+FFFD) into
// UTF-16 code units, the units V8 counts positions in.
func NodeUTF16(data []byte) []uint16 {
	out := make([]uint16, 0, len(data))
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			n = illFormedLength(data[i:])
		}
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			out = append(out, uint16(a), uint16(b))
		} else {
			out = append(out, uint16(r))
		}
		i += n
	}
	return out
}

// illFormedLength returns the length of the maximal subpart of an
// ill-formed UTF-8 sequence at the start of b (at least 1): a lead byte
// and the continuation bytes that could still have completed it.
func illFormedLength(b []byte) int {
	lo, hi := byte(0x80), byte(0xBF)
	var need int
	// A two-byte lead (C2-DF) is the default's: its one continuation
	// byte, when there, fails, or the sequence would have decoded.
	switch c := b[0]; {
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	// A complete sequence decodes and never comes here, so b[need], when
	// there, never continues it: stopping at n == need (a mutant's
	// n < need) returns the same length, an equivalent mutant.
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

// jsonParser is a recursive-descent JSON parser that fails where V8's
// JsonParser fails, with its message.
type jsonParser struct {
	src []uint16
	pos int
	err *JSONSyntaxError
}

// eos stands for the end of the text where a character is read.
const eos = -1

func (p *jsonParser) peek() int {
	if p.pos >= len(p.src) {
		return eos
	}
	return int(p.src[p.pos])
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// fail records V8's message for an error at the current position; with
// where, the message names the position, line and column.
func (p *jsonParser) fail(msg string, where bool) {
	if p.err != nil {
		return
	}
	if where {
		line, col := p.location()
		msg = fmt.Sprintf("%s at position %d (line %d column %d)", msg, p.pos, line, col)
	}
	p.err = &JSONSyntaxError{Msg: msg, Offset: p.pos}
}

// location returns the line and column of the current position, V8's
// CalculateFileLocation: \r\n, \r and \n each end a line.
func (p *jsonParser) location() (line, col int) {
	line, last := 1, 0
	for i := 0; i < p.pos; i++ {
		c := p.src[i]
		// No error stands on the \n of a \r\n (white space outside a
		// string; inside one the \r fails first), so letting i reach
		// p.pos-1 here (mutants of i < p.pos-1) changes no location.
		if c == '\r' && i < p.pos-1 && p.src[i+1] == '\n' {
			i++
			c = '\n'
		}
		if c == '\r' || c == '\n' {
			line++
			last = i + 1
		}
	}
	return line, 1 + p.pos - last
}

// unexpected reports the character at the current position as V8's
// ReportUnexpectedCharacter does: the end of the text, a number or a
// string by kind, anything else by itself in its context.
func (p *jsonParser) unexpected() {
	c := p.peek()
	switch {
	case c == eos:
		p.fail("Unexpected end of JSON input", false)
	case c == '"':
		p.fail("Unexpected string in JSON", true)
	case c == '-' || c >= '0' && c <= '9':
		p.fail("Unexpected number in JSON", true)
	default:
		p.unexpectedToken()
	}
}

// specialSources are the texts V8 names whole (IsSpecialString).
var specialSources = []string{"[object Object]", "undefined", "Infinity", "NaN"}

// unexpectedToken is V8's message for an unexpected character that is
// neither a number nor a string: the whole text when it is short, else
// ten code units on either side of the position, with ellipses.
func (p *jsonParser) unexpectedToken() {
	src := string(utf16.Decode(p.src))
	for _, s := range specialSources {
		if src == s {
			p.fail(`"`+s+`" is not valid JSON`, false)
			return
		}
	}
	const context = 10
	tok := string(utf16.Decode(p.src[p.pos : p.pos+1]))
	n := len(p.src)
	var msg string
	switch {
	case n < 2*context+1:
		msg = fmt.Sprintf(`Unexpected token '%s', "%s" is not valid JSON`, tok, src)
	case p.pos < context:
		msg = fmt.Sprintf(`Unexpected token '%s', "%s"... is not valid JSON`, tok, decode16(p.src[:p.pos+context]))
	case p.pos < n-context:
		msg = fmt.Sprintf(`Unexpected token '%s', ..."%s"... is not valid JSON`, tok, decode16(p.src[p.pos-context:p.pos+context]))
	default:
		msg = fmt.Sprintf(`Unexpected token '%s', ..."%s" is not valid JSON`, tok, decode16(p.src[p.pos-context:]))
	}
	p.fail(msg, false)
}

func decode16(u []uint16) string { return string(utf16.Decode(u)) }

// expect consumes c after white space, or fails with msg.
func (p *jsonParser) expect(c int, msg string) bool {
	p.skipSpace()
	if p.peek() != c {
		p.fail(msg, true)
		return false
	}
	p.pos++
	return true
}

// check consumes c after white space and reports whether it was there.
func (p *jsonParser) check(c int) bool {
	p.skipSpace()
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

// value parses the value at the current position (white space skipped).
func (p *jsonParser) value() any {
	switch c := p.peek(); {
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == 't':
		p.literal("true")
		return true
	case c == 'f':
		p.literal("false")
		return false
	case c == 'n':
		p.literal("null")
		return nil
	}
	p.unexpected()
	return nil
}

// literal consumes word, whose first letter was seen (V8's ScanLiteral).
func (p *jsonParser) literal(word string) {
	p.pos++
	for i := 1; i < len(word); i++ {
		if p.peek() != int(word[i]) {
			p.unexpected()
			return
		}
		p.pos++
	}
}

func (p *jsonParser) object() any {
	p.pos++ // {
	o := NewObject()
	if p.check('}') {
		return o
	}
	msg := "Expected property name or '}' in JSON"
	for {
		p.skipSpace()
		if p.peek() != '"' {
			p.fail(msg, true)
			return nil
		}
		key := p.str()
		if p.err != nil || !p.expect(':', "Expected ':' after property name in JSON") {
			return nil
		}
		p.skipSpace()
		v := p.value()
		if p.err != nil {
			return nil
		}
		o.Set(key, v)
		if !p.check(',') {
			break
		}
		msg = "Expected double-quoted property name in JSON"
	}
	if !p.expect('}', "Expected ',' or '}' after property value in JSON") {
		return nil
	}
	return o
}

func (p *jsonParser) array() any {
	p.pos++ // [
	list := []any{}
	if p.check(']') {
		return list
	}
	for {
		p.skipSpace()
		v := p.value()
		if p.err != nil {
			return nil
		}
		list = append(list, v)
		if !p.check(',') {
			break
		}
	}
	if !p.expect(']', "Expected ',' or ']' after array element in JSON") {
		return nil
	}
	return list
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

// number parses a number as V8's ParseJsonNumber does.
func (p *jsonParser) number() any {
	start := p.pos
	if p.peek() == '-' {
		p.pos++
	}
	switch c := p.peek(); {
	case c == '0':
		p.pos++
		if isDigit(p.peek()) {
			p.fail("Unexpected number in JSON", true)
			return nil
		}
	case isDigit(c):
		for isDigit(p.peek()) {
			p.pos++
		}
	default:
		p.fail("No number after minus sign in JSON", true)
		return nil
	}
	if p.peek() == '.' {
		p.pos++
		if !isDigit(p.peek()) {
			p.fail("Unterminated fractional number in JSON", true)
			return nil
		}
		for isDigit(p.peek()) {
			p.pos++
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if !isDigit(p.peek()) {
			p.fail("Exponent part is missing a number in JSON", true)
			return nil
		}
		for isDigit(p.peek()) {
			p.pos++
		}
	}
	// The text is a well-formed number: ParseFloat's only error is a
	// magnitude out of range, which is ±Infinity as in JavaScript.
	f, _ := strconv.ParseFloat(decode16(p.src[start:p.pos]), 64)
	return f
}

// str parses a string (at its opening quote) as V8's ScanJsonString does.
func (p *jsonParser) str() string {
	p.pos++ // "
	var b []uint16
	for {
		c := p.peek()
		switch {
		case c == eos:
			p.fail("Unterminated string in JSON", true)
			return ""
		case c == '"':
			p.pos++
			return decode16(b)
		case c < 0x20:
			p.fail("Bad control character in string literal in JSON", true)
			return ""
		case c != '\\':
			b = append(b, uint16(c))
			p.pos++
			continue
		}
		p.pos++ // \
		c = p.peek()
		switch c {
		case '"', '\\', '/':
			b = append(b, uint16(c))
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			var v uint16
			for range 4 {
				p.pos++
				d := hexValue(p.peek())
				if d < 0 {
					p.fail("Bad Unicode escape in JSON", true)
					return ""
				}
				v = v<<4 | uint16(d)
			}
			b = append(b, v)
		default:
			if c == eos || c > 0xFF {
				p.unexpected()
			} else {
				p.fail("Bad escaped character in JSON", true)
			}
			return ""
		}
		p.pos++
	}
}

func hexValue(c int) int {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return -1
}
