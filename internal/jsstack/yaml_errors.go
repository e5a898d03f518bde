package jsstack

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// YAMLParseError is the yaml library's YAMLParseError as upstream passes
// it on (String(error)): "YAMLParseError: <diagnostic> at line <L>, column
// <C>:", a blank line, the line of the error (with the line before when
// the error is at the start of its line, either cut to 80 characters) and
// a line of carets under the error. Line and column count from 1, the
// column in UTF-16 units of the text as Node decodes it (a byte order mark
// counts). The diagnostic is the library's for the errors ParseYAML
// locates as the library does; an error it does not locate (Line 0) is
// "YAMLParseError: " and yaml/v3's own diagnostic.
type YAMLParseError struct {
	// Diagnostic is the message before " at line".
	Diagnostic string
	// Line and Col locate the error, from 1; 0 when not located.
	Line, Col int
	// Text is the whole of String(error).
	Text string
}

// Error returns the error as upstream prints it.
func (e *YAMLParseError) Error() string { return e.Text }

// yamlLines counts lines and columns as the library's LineCounter does:
// in UTF-16 units, a line starting after each line feed.
type yamlLines struct {
	units  []uint16
	starts []int
	// byteAt maps a byte offset of the text to its UTF-16 offset.
	byteAt []int
}

func newYAMLLines(data []byte) *yamlLines {
	l := &yamlLines{starts: []int{0}, byteAt: make([]int, len(data)+1)}
	// The units of NodeUTF16, with the unit each byte starts in.
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			n = illFormedLength(data[i:])
		}
		for k := range n {
			l.byteAt[i+k] = len(l.units)
		}
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			l.units = append(l.units, uint16(a), uint16(b))
		} else {
			l.units = append(l.units, uint16(r))
		}
		if r == '\n' {
			l.starts = append(l.starts, len(l.units))
		}
		i += n
	}
	l.byteAt[len(data)] = len(l.units)
	return l
}

// pos returns the line and column of a UTF-16 offset, as
// LineCounter.linePos does.
func (l *yamlLines) pos(off int) (line, col int) {
	lo, hi := 0, len(l.starts)
	for lo < hi {
		mid := (lo + hi) >> 1
		if l.starts[mid] < off {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(l.starts) && l.starts[lo] == off {
		return lo + 1, 1
	}
	if lo == 0 {
		return 0, off
	}
	return lo, off - l.starts[lo-1] + 1
}

// lineText returns line (from 1) without its line break characters.
func (l *yamlLines) lineText(line int) []uint16 {
	start := l.starts[line-1]
	end := len(l.units)
	if line < len(l.starts) {
		end = l.starts[line]
	}
	s := l.units[start:end]
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// newYAMLParseError builds the library's error for diagnostic over the
// byte range [start, end) of data, as its prettifyError words it.
func newYAMLParseError(data []byte, diagnostic string, start, end int) *YAMLParseError {
	return newYAMLParseErrorMissing(data, diagnostic, start, end, [2]int{})
}

// newYAMLParseErrorMissing is newYAMLParseError where the library's line
// counter misses the starts of the lines inside the byte range missed of
// data (both 0 for none): those of a plain scalar its parser keeps as
// stray content after a node (Parser.lineEnd keeps the token without
// reporting its line breaks, which only the scalars it builds nodes of
// report). The line before such a start then runs on over it, in the
// location of a later offset and in the text quoted.
func newYAMLParseErrorMissing(data []byte, diagnostic string, start, end int, missed [2]int) *YAMLParseError {
	l := newYAMLLines(data)
	if missed[1] > missed[0] {
		lo, hi := l.byteAt[min(missed[0], len(data))], l.byteAt[min(missed[1], len(data))]
		l.starts = slices.DeleteFunc(l.starts, func(s int) bool { return s > lo && s < hi })
	}
	start, end = max(start, 0), max(end, 0)
	from, to := l.byteAt[min(start, len(data))], l.byteAt[min(end, len(data))]
	line, col := l.pos(from)
	endLine, endCol := l.pos(to)
	msg := "YAMLParseError: " + diagnostic + " at line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col)
	ci := col - 1
	lineStr := l.lineText(line)
	var out []uint16
	if ci >= 60 && len(lineStr) > 80 {
		trimStart := min(ci-39, len(lineStr)-79)
		out = append([]uint16{'…'}, lineStr[trimStart:]...)
		ci -= trimStart - 1
	} else {
		out = append(out, lineStr...)
	}
	if len(out) > 80 {
		out = append(out[:79:79], '…')
	}
	if line > 1 && allSpaces(out[:min(ci, len(out))]) {
		prev := l.units[l.starts[line-2]:l.starts[line-1]]
		if len(prev) > 80 {
			prev = append(append([]uint16(nil), prev[:79]...), '…', '\n')
		}
		out = append(append([]uint16(nil), prev...), out...)
	}
	text := decode16(out)
	if strings.ContainsFunc(text, func(r rune) bool { return r != ' ' }) {
		count := 1
		if endLine == line && endCol > col {
			count = max(1, min(endCol-col, 80-ci))
		}
		msg += ":\n\n" + text + "\n" + strings.Repeat(" ", ci) + strings.Repeat("^", count) + "\n"
	}
	return &YAMLParseError{Diagnostic: diagnostic, Line: line, Col: col, Text: msg}
}

func allSpaces(u []uint16) bool {
	for _, c := range u {
		if c != ' ' {
			return false
		}
	}
	return true
}

// yamlV3Line is the line yaml/v3 names in an error, 0 when it names none
// (an error on its first line).
var yamlV3Line = regexp.MustCompile(`^yaml: line (\d+): `)

// locateYAMLError returns the library's error for a document yaml/v3
// refused with msg, where ParseYAML knows how the library words and
// locates it, and nil elsewhere.
//
// A quoted scalar the library's lexer cuts short or never sees closed,
// or a comment right after a token (findOpenFlow), is refused when the
// library composes that token: before any error yaml/v3 finds on a later
// line, and before one ParseYAML would locate after it.
func locateYAMLError(data []byte, msg string) *YAMLParseError {
	line := 1
	if m := yamlV3Line.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	e := locateV3Error(data, msg)
	f := findOpenFlow(data)
	// A flow collection the lexer ends at a line indented less than it
	// must be, where yaml/v3 goes on reading it and then misses a key of
	// the block mapping around it: the library refuses the collection
	// when it composes it, before what comes after.
	if f != nil && !f.lexical && strings.Contains(msg, "did not find expected key") {
		if fe := f.error(data); e == nil || fe.Line < e.Line || fe.Line == e.Line && fe.Col < e.Col {
			return fe
		}
	}
	if f != nil && f.lexical {
		fe := f.error(data)
		if fe.Line <= line || e == nil || fe.Line < e.Line || fe.Line == e.Line && fe.Col < e.Col {
			return fe
		}
		// yaml/v3 names the line where the block mapping it was reading
		// starts: a key misindented before the token is refused first,
		// else the token.
		if strings.Contains(msg, "did not find expected key") {
			block := blockLines(data, textLines(data))
			i := misindented(block)
			// A key indented under a value that cannot go on, in the
			// mapping named: the composer refuses the key before it
			// composes the key's value.
			if j := keyUnderValue(block, line); j >= 0 && (i < 0 || j < i) {
				i = j
			}
			if i < 0 || i+1 > fe.Line {
				return fe
			}
		}
	}
	return e
}

// locateV3Error is locateYAMLError but for the tokens the library's
// lexer ends where yaml/v3 does not.
func locateV3Error(data []byte, msg string) *YAMLParseError {
	line := 1
	// context is the index of the line where the collection yaml/v3 was
	// reading starts, for an error that names it: yaml/v3 counts that
	// line from 0, and names the line of the problem (from 0 too) when
	// it is 0, or no line.
	context := 0
	if m := yamlV3Line.FindStringSubmatch(msg); m != nil {
		context, _ = strconv.Atoi(m[1])
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	// A flow collection left open, which yaml/v3 reports as a missing ','
	// or bracket on some line after it, as a missing node after a comma
	// or a colon, or as the end of the text or a document marker reached
	// in a quote of it: the library ends the collection where its lexer
	// does and refuses it at the end of its last item (findOpenFlow).
	for _, m := range []string{"did not find expected ',' or ']'", "did not find expected ',' or '}'", "did not find expected node content", "found unexpected end of stream", "found unexpected document indicator"} {
		if strings.Contains(msg, m) {
			if f := findOpenFlow(data); f != nil {
				return f.error(data)
			}
			if e := flowItemRefusal(data); e != nil {
				return e
			}
		}
	}
	lines := textLines(data)
	// block is lines without the lines that continue a flow collection or
	// a quoted scalar.
	block := blockLines(data, lines)
	if line < 1 || line > len(lines) {
		if strings.Contains(msg, "found unexpected end of stream") {
			line = len(lines)
		} else {
			return nil
		}
	}
	// A tab in the indentation of a line, from the line named on: the
	// library refuses it where it stands.
	if strings.Contains(msg, "tab character") || strings.Contains(msg, "cannot start any token") || strings.Contains(msg, "did not find expected key") {
		for i := max(line-1, 0); i < len(lines); i++ {
			ln := lines[i]
			indent := ln.text[:len(ln.text)-len(bytes.TrimLeft(ln.text, " \t"))]
			if t := bytes.IndexByte(indent, '\t'); t >= 0 && len(bytes.TrimSpace(ln.text)) > 0 {
				at := ln.start + t
				// Inside a flow collection a tab is a space to the
				// library; one left open before the tab is refused.
				if f := findOpenFlow(data); f != nil && f.start < at {
					return f.error(data)
				}
				// Over the rest of the line's indentation, the lexer's
				// token of white space.
				end := at
				for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
					end++
				}
				return newYAMLParseError(data, "Tabs are not allowed as indentation", at, end)
			}
			if i > line {
				break
			}
		}
		// A line of tabs only, inside a flow collection left open; a
		// character yaml/v3 reads inside a flow collection the library's
		// lexer ended before it (a block scalar indicator, say, on a
		// line indented less than the collection must be).
		if f := findOpenFlow(data); f != nil && (strings.Contains(msg, "tab character") || strings.Contains(msg, "cannot start any token") && f.start < lines[line-1].start+len(lines[line-1].text)) {
			return f.error(data)
		}
	}
	switch {
	case strings.Contains(msg, "found unknown escape character") || strings.Contains(msg, "did not find expected hexdecimal number") || strings.Contains(msg, "found invalid Unicode character escape code"):
		return invalidEscape(data)
	case strings.Contains(msg, "did not find expected <document start>") || strings.Contains(msg, "did not find expected '-' indicator"):
		// Content after the document's top node, where yaml/v3 names the
		// node's first line.
		// yaml/v3 names the line of a missing document start from 1, the
		// sequence missing an entry from 0.
		r := line - 1
		if strings.Contains(msg, "'-' indicator") {
			r = context
		}
		if e := afterRoot(data, block, r); e != nil {
			return e
		}
		// yaml/v3 names the line of the problem when the sequence
		// starts on the first line.
		if e := afterRoot(data, block, -1); e != nil && e.Line-1 == context {
			return e
		}
		if strings.Contains(msg, "'-' indicator") {
			// A closing bracket that starts a line.
			if j := strayCloser(block); j >= 0 {
				return strayCloserError(data, block[j])
			}
			// A key after a block sequence indented under its own key.
			if j := keyAfterSequence(block, context); j >= 0 {
				return newYAMLParseError(data, "All mapping items must start at the same column", lines[j].start, lines[j].start+1)
			}
			// An entry at another column than the sequence's.
			if at := entryMisaligned(block, context); at >= 0 {
				return newYAMLParseError(data, "All sequence items must start at the same column", at, at+1)
			}
			// A line between the column of the entries and that of
			// the mapping of the entry before.
			// yaml/v3 names the line of the problem when the sequence
			// starts on the first line.
			j, at := entryWithoutIndicator(block, context)
			if f := firstContent(block); j < 0 && f >= 0 {
				if j, at = entryWithoutIndicator(block, f); j != context {
					at = -1
				}
			}
			if at >= 0 {
				return newYAMLParseError(data, "Sequence item without - indicator", at, at+1)
			}
		}
	case strings.Contains(msg, "could not find expected ':'"):
		// Content after the document's top node, on the line named.
		if e := afterRoot(data, block, -1); e != nil && e.Line == line {
			return e
		}
		// A plain scalar on the line named that runs on to a key on a
		// later line: the library refuses the key it makes.
		// A plain scalar at the column of the block sequence before it,
		// whose key is less indented: the sequence ends there and the
		// mapping takes the scalar as a key at another column.
		if at := keyAtSequenceColumn(block, line-1); at >= 0 {
			return newYAMLParseError(data, "All mapping items must start at the same column", at, at+1)
		}
		if !continued(lines, line-1) {
			return keyWithoutValue(data, lines[line-1])
		}
		return multilineKey(data, lines[line-1])
	case strings.Contains(msg, "mapping values are not allowed in this context"):
		return locateNestedMapping(data, lines, line)
	case strings.Contains(msg, "found unexpected end of stream"):
		return locateOpenQuote(data)
	case strings.Contains(msg, "did not find expected key"):
		// A key less indented than the keys before it and more than
		// those of the mapping above, at the start of its line.
		i := misindented(block)
		// A "- " line among the keys of the mapping named, before.
		if j := seqAmongKeys(block, context); j >= 0 && (i < 0 || j < i) {
			return newYAMLParseError(data, seqAsKey(block, j), lines[j].start, lines[j].start+1)
		}
		// A key indented under a value that cannot go on (a quoted
		// scalar, a flow collection or an alias), in the mapping named.
		if j := keyUnderValue(block, context); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		// A value followed on its line by a plain scalar that a ':'
		// makes a key of (a key without its ':' before a flow
		// collection, "key {a: 1}", reads so).
		for j := max(context, 0); j < len(block) && (i < 0 || j < i); j++ {
			if e, _ := nestedAfterValue(data, block[j]); e != nil {
				return e
			}
		}
		// A line indented further than the keys after a block scalar
		// ended by a line indented less than its own: refused at the
		// start of the line that ended it.
		if at := afterBlockScalar(lines, context); i < 0 && at >= 0 {
			return newYAMLParseError(data, "All mapping items must start at the same column", at, at+1)
		}
		// A closing bracket that starts a line in a block context,
		// which ends the document for the library's parser.
		if j := strayCloser(block); j >= 0 && (i < 0 || j <= i) {
			return strayCloserError(data, block[j])
		}
		// Else a key indented under a scalar value: the next line of
		// content after the line yaml/v3 names.
		for j := line; i < 0 && j < len(lines); j++ {
			if t := bytes.TrimSpace(lines[j].text); len(t) > 0 && t[0] != '#' {
				i = j
			}
		}
		if i >= 0 {
			// A block sequence there is refused as a key first.
			msg := "All mapping items must start at the same column"
			if isSeqEntry(bytes.TrimLeft(lines[i].text, " ")) {
				msg = seqAsKey(block, i)
			}
			return newYAMLParseError(data, msg, lines[i].start, lines[i].start+1)
		}
	}
	return nil
}

// misindented returns the index of the first line of block content whose
// indentation is none of the open levels (less than the line before and
// more than the next level out), or -1.
func misindented(lines []yamlLine) int {
	var levels []int
	for i, ln := range lines {
		t := bytes.TrimLeft(ln.text, " ")
		if s := bytes.TrimSpace(t); len(s) == 0 || s[0] == '#' || i == 0 && bytes.HasPrefix(s, []byte("\ufeff")) && len(bytes.TrimSpace(s[3:])) == 0 {
			continue
		}
		if bytes.HasPrefix(t, []byte("---")) || bytes.HasPrefix(t, []byte("\ufeff")) || t[0] == '%' {
			continue
		}
		n := len(ln.text) - len(t)
		for len(levels) > 0 && levels[len(levels)-1] > n {
			levels = levels[:len(levels)-1]
		}
		if len(levels) > 0 && levels[len(levels)-1] < n && i > 0 && wasDeeper(lines[:i], n) {
			return i
		}
		if len(levels) == 0 || levels[len(levels)-1] < n {
			levels = append(levels, n)
		}
	}
	return -1
}

// wasDeeper reports whether the last content line before holds an
// indentation above n: the line at n went back out, but not to a level
// that was open.
func wasDeeper(before []yamlLine, n int) bool {
	for i := len(before) - 1; i >= 0; i-- {
		t := bytes.TrimLeft(before[i].text, " ")
		if s := bytes.TrimSpace(t); len(s) == 0 || s[0] == '#' {
			continue
		}
		return len(before[i].text)-len(t) > n
	}
	return false
}

// yamlLine is a line of the text without its line break.
type yamlLine struct {
	start int
	text  []byte
}

// indented returns the text of ln after its indentation, and the number
// of spaces of the indentation.
func (ln yamlLine) indented() (t []byte, n int) {
	t = bytes.TrimLeft(ln.text, " ")
	return t, len(ln.text) - len(t)
}

// textLines is splitLines without a byte order mark that starts the
// text: the first line starts after it (the library counts it as a
// column).
func textLines(data []byte) []yamlLine {
	lines := splitLines(data)
	if len(lines) > 0 && bytes.HasPrefix(lines[0].text, []byte("\ufeff")) {
		lines[0].start += 3
		lines[0].text = lines[0].text[3:]
	}
	return lines
}

func splitLines(data []byte) []yamlLine {
	var out []yamlLine
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		out = append(out, yamlLine{start, bytes.TrimRight(data[start:end], "\r")})
		start = end + 1
	}
	return out
}

// valueStart returns the offset in ln of the value of the first mapping
// pair on the line (after any "- " indicators, the key and ": "), or -1.
func valueStart(ln []byte) int {
	i := keyIndent(ln)
	if i < len(ln) && (ln[i] == '"' || ln[i] == '\'') {
		q := ln[i]
		j := i + 1
		for j < len(ln) && ln[j] != q {
			if q == '"' && ln[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(ln) {
			return -1 // the key's quote does not close on its line
		}
		i = j + 1
	}
	k := bytes.Index(ln[i:], []byte(": "))
	if k < 0 {
		return -1
	}
	i += k + 2
	for i < len(ln) && ln[i] == ' ' {
		i++
	}
	if i >= len(ln) {
		return -1
	}
	return i
}

// locateNestedMapping locates "key: value: more", which the library
// refuses at the value that would be an implicit key: on the line named,
// when it holds a second ": ", else on the line above that the named
// line continues.
func locateNestedMapping(data []byte, lines []yamlLine, line int) *YAMLParseError {
	ln := lines[line-1]
	// The value with the stray scalar that the ':' on the line named
	// ends: on a line before when the scalar goes on over lines, the
	// last with a ':' before.
	for i := line - 1; i >= 0; i-- {
		if i < line-1 && !bytes.Contains(lines[i].text, []byte(":")) {
			continue
		}
		if e, colon := nestedAfterValue(data, lines[i]); e != nil && colon >= ln.start && colon <= ln.start+len(ln.text) {
			return e
		}
		if i < line-1 {
			break
		}
	}
	if v := valueStart(ln.text); v >= 0 {
		// The ": " of a flow collection or quoted scalar that the value
		// starts with is its own.
		rest := ln.text[v:]
		if rest[0] == '[' || rest[0] == '{' || rest[0] == '"' || rest[0] == '\'' {
			rest = rest[min(tokenEnd(rest), len(rest)):]
		}
		if bytes.Contains(rest, []byte(": ")) || bytes.HasSuffix(bytes.TrimRight(rest, " \t"), []byte(":")) {
			return newYAMLParseError(data, "Nested mappings are not allowed in compact mappings", ln.start+v, ln.start+v+1)
		}
	}
	for i := line - 2; i >= 0; i-- {
		t := bytes.TrimSpace(lines[i].text)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if v := valueStart(lines[i].text); v >= 0 {
			return newYAMLParseError(data, "Nested mappings are not allowed in compact mappings", lines[i].start+v, lines[i].start+v+1)
		}
		if e := multilineKey(data, lines[i]); e != nil {
			return e
		}
		break
	}
	return nil
}

// nestedAfterValue returns the library's refusal of a value on ln that
// is a quoted scalar closed on ln or an alias, followed
// on its line by a plain scalar that a ':' ends as a key, on ln or on the
// lines after that go on with it ("key: 'v' more: x"): the parser makes
// the value the key of a mapping after the stray scalar, which the
// composer refuses at the value as a mapping in a compact one. The
// stray scalar's line breaks are not counted. (After a flow collection
// the parser keeps the stray scalar with the collection's end, which the
// composer refuses first.) It returns nil elsewhere, and the offset of
// the ':'.
func nestedAfterValue(data []byte, ln yamlLine) (*YAMLParseError, int) {
	v := valueStart(ln.text)
	if v < 0 || bytes.IndexByte([]byte("\"'*"), ln.text[v]) < 0 {
		return nil, -1
	}
	rest := ln.text[v:]
	n := 0
	if rest[0] == '*' {
		for n < len(rest) && rest[n] != ' ' && rest[n] != '\t' {
			n++
		}
	} else if n = tokenEnd(rest); n > len(rest) {
		return nil, -1
	}
	at := n
	for at < len(rest) && (rest[at] == ' ' || rest[at] == '\t') {
		at++
	}
	if at >= len(rest) || rest[at] == '#' || rest[at] == ':' {
		return nil, -1
	}
	at += ln.start + v
	end := at
	for end < ln.start+len(ln.text) && !(data[end] == ':' && yamlBlank(data, end+1)) && !((data[end] == ' ' || data[end] == '\t') && end+1 < len(data) && data[end+1] == '#') {
		end++
	}
	last, colon := plainLinesAfter(data, end, indentOf(ln.text))
	if colon < 0 {
		return nil, -1
	}
	var missed [2]int
	if last > end {
		missed = [2]int{at, colon}
	}
	return newYAMLParseErrorMissing(data, "Nested mappings are not allowed in compact mappings", ln.start+v, ln.start+v+1, missed), colon
}

// locateOpenQuote locates a quoted scalar that never closes: the library
// reads to the end of the text and refuses it there, naming the quote.
func locateOpenQuote(data []byte) *YAMLParseError {
	for _, ln := range splitLines(data) {
		v := valueStart(ln.text)
		if v < 0 {
			continue
		}
		q := ln.text[v]
		if q != '"' && q != '\'' {
			continue
		}
		// Does it close, on this line or a later one?
		rest := data[ln.start+v+1:]
		closed := false
		for j := 0; j < len(rest); j++ {
			if q == '"' && rest[j] == '\\' {
				j++
				continue
			}
			if rest[j] == q {
				if q == '\'' && j+1 < len(rest) && rest[j+1] == '\'' {
					j++
					continue
				}
				closed = true
				break
			}
		}
		if !closed {
			return newYAMLParseError(data, "Missing closing "+string(q)+"quote", len(data), len(data)+1)
		}
	}
	return nil
}

// locateSecondDocument locates the start of a second document: the first
// "---" line after content or after another such line. The library's
// error covers the document: its carets run to the end of the marker's
// line when nothing follows it.
func locateSecondDocument(data []byte) *YAMLParseError {
	lines := splitLines(data)
	seen := false
	for i, ln := range lines {
		t := ln.text
		marker := bytes.HasPrefix(t, []byte("---")) && (len(t) == 3 || t[3] == ' ' || t[3] == '\t')
		if marker && seen {
			end := ln.start + 1
			rest := bytes.TrimSpace(t[3:])
			empty := len(rest) == 0
			for _, later := range lines[i+1:] {
				if s := bytes.TrimSpace(later.text); len(s) > 0 && s[0] != '#' {
					empty = false
				}
			}
			if empty {
				end = ln.start + len(t)
			}
			return newYAMLParseError(data, "Source contains multiple documents; please use YAML.parseAllDocuments()", ln.start, end)
		}
		s := bytes.TrimSpace(t)
		if marker || len(s) > 0 && s[0] != '#' && s[0] != '%' && !bytes.Equal(s, []byte("...")) {
			seen = true
		}
	}
	return nil
}

// multilineKey returns the library's refusal of an implicit key over
// several lines that starts with the plain scalar on ln ("Implicit keys
// need to be on a single line", at the scalar), or nil when ln does not
// start with a plain scalar, or holds a mapping value itself.
func multilineKey(data []byte, ln yamlLine) *YAMLParseError {
	t := bytes.TrimLeft(ln.text, " ")
	for len(t) > 1 && t[0] == '-' && t[1] == ' ' {
		t = bytes.TrimLeft(t[1:], " ")
	}
	if len(t) == 0 || bytes.IndexByte([]byte("#'\"[]{}&*!|>%@`-?:,"), t[0]) >= 0 || valueStart(ln.text) >= 0 || bytes.HasSuffix(bytes.TrimRight(t, " "), []byte(":")) {
		return nil
	}
	at := ln.start + len(ln.text) - len(t)
	if valueStart(t) >= 0 {
		return nil
	}
	return newYAMLParseError(data, "Implicit keys need to be on a single line", at, at+1)
}

// duplicateKeyAt returns the offset at which the library refuses a
// duplicate key at offset at: the key, or, when the line before holds a
// key of the same indentation with an empty value ("a:"), the line break
// that ends that line, where the library starts the duplicate's item.
func duplicateKeyAt(data []byte, at int) int {
	lines := splitLines(data)
	for i, ln := range lines {
		if i == 0 || at < ln.start || at > ln.start+len(ln.text) {
			continue
		}
		prev := lines[i-1]
		indent := len(ln.text) - len(bytes.TrimLeft(ln.text, " "))
		pt := bytes.TrimLeft(prev.text, " ")
		if at == ln.start+indent && len(prev.text)-len(pt) == indent && bytes.HasSuffix(pt, []byte(":")) && valueStart(prev.text) < 0 && pt[0] != '#' && pt[0] != '-' {
			return prev.start + len(prev.text)
		}
		break
	}
	return at
}

// continued reports whether a plain scalar on lines[i] runs on to the
// next line of content: one indented at least as far as it.
func continued(lines []yamlLine, i int) bool {
	indent := len(lines[i].text) - len(bytes.TrimLeft(lines[i].text, " "))
	for _, ln := range lines[i+1:] {
		t := bytes.TrimLeft(ln.text, " ")
		if len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		return t[0] != '#' && len(ln.text)-len(t) >= indent
	}
	return false
}

// keyWithoutValue returns the library's refusal of a plain scalar on ln
// that stands where a key must ("Implicit map keys need to be followed
// by map values", over the scalar), or nil when ln does not start with
// one.
func keyWithoutValue(data []byte, ln yamlLine) *YAMLParseError {
	e := multilineKey(data, ln)
	if e == nil {
		return nil
	}
	t := bytes.TrimLeft(ln.text, " ")
	for len(t) > 1 && t[0] == '-' && t[1] == ' ' {
		t = bytes.TrimLeft(t[1:], " ")
	}
	at := ln.start + len(ln.text) - len(t)
	if c := bytes.Index(t, []byte(" #")); c >= 0 {
		t = t[:c]
	}
	t = bytes.TrimRight(t, " \t")
	return newYAMLParseError(data, "Implicit map keys need to be followed by map values", at, at+len(t))
}

// contentLine reports whether ln holds block content: not blank, a
// comment, a directive or a document marker alone.
func contentLine(ln yamlLine) bool {
	t := bytes.TrimSpace(ln.text)
	return len(t) > 0 && t[0] != '#' && t[0] != '%' && !bytes.Equal(t, []byte("---")) && !bytes.Equal(t, []byte("..."))
}

// keyIndent returns the column (from 0) of the first key of a block
// mapping on ln: after its indentation and any "- " indicators.
func keyIndent(ln []byte) int {
	i := 0
	for {
		for i < len(ln) && ln[i] == ' ' {
			i++
		}
		if i+1 < len(ln) && ln[i] == '-' && ln[i+1] == ' ' {
			i += 2
			continue
		}
		return i
	}
}

// isSeqEntry reports whether t, a line without its indentation, starts
// a block sequence entry.
func isSeqEntry(t []byte) bool {
	return len(t) > 0 && t[0] == '-' && (len(t) == 1 || t[1] == ' ' || t[1] == '\t')
}

// mappingNamed returns the index of the first line of the block mapping
// yaml/v3 names by lines[m] (a line before it when that line holds no
// content: the mapping starts at the next line of content) and the
// column of its keys, or -1, -1.
func mappingNamed(lines []yamlLine, m int) (int, int) {
	for m >= 0 && m < len(lines) && !contentLine(lines[m]) {
		m++
	}
	if m < 0 || m >= len(lines) {
		return -1, -1
	}
	return m, keyIndent(lines[m].text)
}

// seqAmongKeys returns the index of the first line after lines[m], the
// first line of a block mapping, that starts a block sequence at the
// column of the mapping's keys where a key belongs (not after a key
// without a value, whose value it is), or -1.
func seqAmongKeys(lines []yamlLine, m int) int {
	m, n := mappingNamed(lines, m)
	if m < 0 {
		return -1
	}
	open := false // after a key without a value, or in its sequence
	for j := m + 1; j < len(lines); j++ {
		if !contentLine(lines[j]) {
			continue
		}
		t, ind := lines[j].indented()
		switch {
		case ind < n:
			return -1
		case ind > n:
			// The key's value is this more indented block.
			open = false
			continue
		case isSeqEntry(t):
			if !open {
				return j
			}
		default:
			open = bytes.HasSuffix(bytes.TrimRight(t, " \t"), []byte(":")) && valueStart(lines[j].text) < 0
		}
	}
	return -1
}

// afterRoot returns the library's refusal of content after the
// document's top node that starts on lines[r], any line for r < 0
// ("Unexpected scalar at node end", over the plain scalar that starts the
// first line less indented than the node, or as indented as a sequence
// and no entry), or nil.
func afterRoot(data []byte, lines []yamlLine, r int) *YAMLParseError {
	first := -1
	for i, ln := range lines {
		if contentLine(ln) {
			first = i
			break
		}
	}
	if first < 0 || r >= 0 && first != r {
		return nil
	}
	t0, n := lines[first].indented()
	seq := isSeqEntry(t0)
	for _, ln := range lines[first+1:] {
		if !contentLine(ln) {
			continue
		}
		t, ind := ln.indented()
		if ind > n || ind == n && (!seq || isSeqEntry(t)) {
			continue
		}
		if bytes.IndexByte([]byte("#'\"[]{}&*!|>%@`-?:,"), t[0]) >= 0 {
			return nil
		}
		at := ln.start + ind
		end := 0
		for end < len(t) && !(t[end] == ':' && (end+1 == len(t) || t[end+1] == ' ' || t[end+1] == '\t')) && !(end > 0 && t[end] == '#' && (t[end-1] == ' ' || t[end-1] == '\t')) {
			end++
		}
		end = len(bytes.TrimRight(t[:end], " \t"))
		return newYAMLParseError(data, "Unexpected scalar at node end", at, at+end)
	}
	return nil
}

// keyUnderValue returns the index of the first line of the block mapping
// that starts on lines[m] (of blockLines) indented further than its keys
// right after a key whose value cannot go on to that line (a quoted
// scalar, a flow collection, an alias), or -1.
func keyUnderValue(lines []yamlLine, m int) int {
	m, n := mappingNamed(lines, m)
	if m < 0 {
		return -1
	}
	closed := false // the last line at n ends its value
	for j := m; j < len(lines); j++ {
		if !contentLine(lines[j]) {
			continue
		}
		_, ind := lines[j].indented()
		if j == m {
			ind = n
		}
		switch {
		case ind < n:
			return -1
		case ind > n:
			if closed {
				return j
			}
			continue
		}
		closed = false
		if v := valueStart(lines[j].text); v >= 0 {
			val := bytes.TrimRight(lines[j].text[v:], " \t")
			if c := bytes.Index(val, []byte(" #")); c >= 0 {
				val = bytes.TrimRight(val[:c], " \t")
			}
			// On the lines of blockLines, a flow collection or quoted
			// scalar that goes on over lines has its next lines emptied:
			// it ends before the next line of content.
			closed = bytes.IndexByte([]byte("*\"'[{"), val[0]) >= 0
		}
	}
	return -1
}

// keyAfterSequence returns the index of the first line after the block
// sequence that starts on lines[m] at its column that is no entry, where
// the sequence is indented under the key it is the value of: the library
// reads that line as a key of the key's mapping at another column. It
// returns -1 elsewhere.
func keyAfterSequence(lines []yamlLine, m int) int {
	if m <= 0 || m >= len(lines) || !contentLine(lines[m]) {
		return -1
	}
	t, n := lines[m].indented()
	if !isSeqEntry(t) {
		return -1
	}
	parent := indentBefore(lines, m)
	if parent < 0 || parent >= n {
		return -1
	}
	for j := m + 1; j < len(lines); j++ {
		if !contentLine(lines[j]) {
			continue
		}
		t, ind := lines[j].indented()
		switch {
		case ind < n:
			return -1
		case ind == n && !isSeqEntry(t):
			return j
		}
	}
	return -1
}

// keyAtSequenceColumn returns the offset at which the library refuses the
// line lines[l] as a key at another column (the end of the node before
// it: the start of the line after the last line of content before it),
// where that line stands at the column of the entries of the block
// sequence just before it but is no entry, and the sequence is the value
// of a key less indented: the sequence ends at the line, which goes to
// the key's mapping. It returns -1 elsewhere, and where a comment line at
// another column comes between.
func keyAtSequenceColumn(lines []yamlLine, l int) int {
	if l <= 0 || l >= len(lines) || !contentLine(lines[l]) {
		return -1
	}
	t, n := lines[l].indented()
	if isSeqEntry(t) {
		return -1
	}
	// A comment line at the sequence's column stays in the sequence as
	// an entry without content, which ends the sequence's range after it
	// (the range of its comment): the offset is the key's.
	at := -1
	p := l - 1
	for ; p >= 0 && !contentLine(lines[p]); p-- {
		if c := bytes.TrimSpace(lines[p].text); len(c) > 0 {
			if c[0] != '#' || indentOf(lines[p].text) != n {
				return -1
			}
			at = lines[l].start + n
		}
	}
	if p < 0 {
		return -1
	}
	if at < 0 {
		at = lines[p+1].start
	}
	entry := false
	for j := p; j >= 0; j-- {
		if !contentLine(lines[j]) {
			continue
		}
		jt, ind := lines[j].indented()
		switch {
		case ind > n:
		case ind == n && isSeqEntry(jt):
			entry = true
		case ind == n:
			return -1
		default:
			key := bytes.TrimRight(jt, " \t")
			if !entry || keyIndent(lines[j].text) >= n || !bytes.HasSuffix(key, []byte(":")) || valueStart(lines[j].text) >= 0 {
				return -1
			}
			return at
		}
	}
	return -1
}

// entryMisaligned returns the offset of the '-' of the first entry of the
// block sequence that starts on lines[m] that stands at another column:
// more indented than the entries but less than the content of the entry
// before, or less indented but more than the line above the sequence. It
// returns -1 for none.
func entryMisaligned(lines []yamlLine, m int) int {
	if m < 0 || m >= len(lines) || !contentLine(lines[m]) {
		return -1
	}
	t, n := lines[m].indented()
	if !isSeqEntry(t) {
		return -1
	}
	parent := indentBefore(lines, m)
	content := keyIndent(lines[m].text)
	for j := m + 1; j < len(lines); j++ {
		if !contentLine(lines[j]) {
			continue
		}
		t, ind := lines[j].indented()
		switch {
		case ind == n && isSeqEntry(t):
			content = keyIndent(lines[j].text)
		case ind <= parent:
			return -1
		case isSeqEntry(t) && (ind > n && ind < content || ind < n):
			return lines[j].start + ind
		case ind < n:
			return -1
		}
	}
	return -1
}

// entryWithoutIndicator returns the index of the line and the offset at
// which the library refuses an entry without its '-' in the block
// sequence whose entry is lines[m]: the first line of content after it
// indented further than the entries and less than the keys of the
// mapping an entry before holds (the mapping ends there, and the sequence
// takes the line as its next entry). The offset is the end of the entry
// before: the start of the line after its last line of content. It
// returns -1, -1 elsewhere, and after an entry that is no mapping (a
// plain scalar goes on over the line).
func entryWithoutIndicator(lines []yamlLine, m int) (int, int) {
	if m < 0 || m >= len(lines) || !contentLine(lines[m]) {
		return -1, -1
	}
	t, n := lines[m].indented()
	if !isSeqEntry(t) {
		return -1, -1
	}
	content := -1 // the column of the keys of the entry's mapping
	for j := m; j < len(lines); j++ {
		if !contentLine(lines[j]) {
			continue
		}
		t, ind := lines[j].indented()
		switch {
		case ind < n:
			return -1, -1
		case ind == n && isSeqEntry(t):
			content = -1
			if k := bytes.TrimRight(lines[j].text, " \t"); valueStart(lines[j].text) >= 0 || bytes.HasSuffix(k, []byte(":")) && !bytes.HasSuffix(k, []byte(" :")) {
				content = keyIndent(lines[j].text)
			}
		case ind == n:
			return -1, -1
		case content >= 0 && ind < content && !isSeqEntry(t):
			return j, lines[prevContent(lines, j)+1].start
		}
	}
	return -1, -1
}

// afterBlockScalar returns the offset of the start of the line that ends
// a block scalar value of the block mapping that starts on lines[m], where
// the next line of content after it is indented further than the
// mapping's keys: the library starts the next item there, at another
// column. It returns -1 for none.
func afterBlockScalar(lines []yamlLine, m int) int {
	m, n := mappingNamed(lines, m)
	if m < 0 {
		return -1
	}
	for j := m; j < len(lines); j++ {
		if !contentLine(lines[j]) {
			continue
		}
		_, ind := lines[j].indented()
		if j == m {
			ind = n
		}
		if ind < n {
			return -1
		}
		v := valueStart(lines[j].text)
		if ind != n || v < 0 {
			continue
		}
		h := bytes.TrimRight(lines[j].text[v:], " \t")
		if len(h) == 0 || h[0] != '|' && h[0] != '>' || len(bytes.Trim(h[1:], "+-")) > 0 {
			continue
		}
		// The block scalar's lines: blank ones, and those indented as
		// far as its first line that is not blank.
		b := -1
		k := j + 1
		for ; k < len(lines); k++ {
			lt, li := lines[k].indented()
			if len(bytes.TrimSpace(lt)) == 0 {
				continue
			}
			if b < 0 && li > n {
				b = li
			}
			if b < 0 || li < b {
				break
			}
		}
		if k >= len(lines) {
			return -1
		}
		// The next line of content after it.
		for c := k; c < len(lines); c++ {
			if !contentLine(lines[c]) {
				continue
			}
			ct := bytes.TrimLeft(lines[c].text, " ")
			if len(lines[c].text)-len(ct) > n {
				return lines[k].start
			}
			break
		}
		j = k - 1
	}
	return -1
}

// strayCloser returns the index of the first line of block (blockLines)
// that starts with a ']' or a '}' the library's lexer reads as a token
// of its own: after a line whose value ends before it (a flow
// collection, a quoted scalar, a comment) or a plain scalar value that
// cannot go on to it (the line is indented no further than the key's).
// The parser ends the document there and refuses the bracket in the
// stream ("Unexpected flow-seq-end token in YAML stream"), after what the
// document before it holds. It returns -1 for none, and where the line
// before leaves it unclear (a sequence entry, a key without a value,
// properties).
func strayCloser(block []yamlLine) int {
	for i, ln := range block {
		if !contentLine(ln) {
			continue
		}
		t, n := ln.indented()
		if t[0] != ']' && t[0] != '}' {
			continue
		}
		p := prevContent(block, i)
		if p < 0 {
			return -1
		}
		// The value the line before ends with, and the column a plain
		// scalar there goes on from: a key's, or a bare entry's (last) '-'.
		prev := block[p].text
		var val []byte
		node := keyIndent(prev)
		if v := valueStart(prev); v >= 0 {
			val = prev[v:]
		} else if pt, _ := block[p].indented(); isSeqEntry(pt) && !bytes.HasSuffix(bytes.TrimRight(prev, " \t"), []byte(":")) {
			val, node = prev[node:], bytes.LastIndexByte(prev[:node], '-')
		}
		switch {
		case len(val) == 0 || bytes.IndexByte([]byte("&!|>"), val[0]) >= 0:
			return -1
		case bytes.IndexByte([]byte("\"'[{*"), val[0]) >= 0 || bytes.Contains(val, []byte(" #")) || n <= node:
			return i
		}
		return -1
	}
	return -1
}

// strayCloserError returns the library's refusal of the bracket that
// starts ln (strayCloser).
func strayCloserError(data []byte, ln yamlLine) *YAMLParseError {
	_, n := ln.indented()
	at := ln.start + n
	kind := map[byte]string{']': "flow-seq-end", '}': "flow-map-end"}[data[at]]
	return newYAMLParseError(data, "Unexpected "+kind+" token in YAML stream: \""+string(data[at])+"\"", at, at+1)
}

// firstContent returns the index of the first line of content of
// lines, or -1.
func firstContent(lines []yamlLine) int {
	for i, ln := range lines {
		if contentLine(ln) {
			return i
		}
	}
	return -1
}

// prevContent returns the index of the last line of content before
// lines[j], or -1.
func prevContent(lines []yamlLine, j int) int {
	for p := j - 1; p >= 0; p-- {
		if contentLine(lines[p]) {
			return p
		}
	}
	return -1
}

// indentBefore returns the indentation of the last content line before
// lines[m], or -1 when there is none.
func indentBefore(lines []yamlLine, m int) int {
	for j := m - 1; j >= 0; j-- {
		if contentLine(lines[j]) {
			return indentOf(lines[j].text)
		}
	}
	return -1
}

// indentOf returns the number of spaces that start ln.
func indentOf(ln []byte) int {
	return len(ln) - len(bytes.TrimLeft(ln, " "))
}

// tokenEnd returns the length of the flow collection or quoted scalar
// that starts t, a line, or len(t)+1 when it does not end on the line.
func tokenEnd(t []byte) int {
	if t[0] == '"' || t[0] == '\'' {
		if c := closeQuote(t, 0); c >= 0 {
			return c + 1
		}
		return len(t) + 1
	}
	depth := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '"', '\'':
			c := closeQuote(t, i)
			if c < 0 {
				return len(t) + 1
			}
			i = c
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(t) + 1
}

// seqAsKey returns the library's refusal of the block sequence that
// starts lines[j] where a key belongs: at the top level after a key whose
// value is a scalar or a flow collection (on its line, or a block scalar
// below it), the library reads it as the start of a key over lines;
// elsewhere it refuses a block sequence as a key.
func seqAsKey(lines []yamlLine, j int) string {
	if indentOf(lines[j].text) == 0 {
		for p := j - 1; p >= 0; p-- {
			if !contentLine(lines[p]) || indentOf(lines[p].text) > 0 {
				continue
			}
			if valueStart(lines[p].text) >= 0 {
				return "Implicit keys need to be on a single line"
			}
			break
		}
	}
	return "A block sequence may not be used as an implicit map key"
}
