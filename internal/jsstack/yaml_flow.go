package jsstack

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// openFlow is a flow collection the library does not see closed, found
// by findOpenFlow.
type openFlow struct {
	// start is the byte offset of the collection's opening bracket.
	start int
	// at is the byte offset the library names: the end of the
	// collection's last item (see scanFlow).
	at int
	// closer is the missing ']' or '}' of the innermost collection left
	// open, which the library refuses first.
	closer byte
	// root reports a collection that is the document's top node: the
	// library's message then leaves out "in block collection".
	root bool
	// quote is the quote character of a quoted scalar the lexer ends
	// before its closing quote, 0 for none: one that never closes, which
	// the library refuses at the end of the text, or one cut at the line
	// break before a line it cannot continue on (quoteCut), refused there
	// (at).
	quote byte
	// token is the offset of the node the problem belongs to: the
	// collection's bracket, the quote or block scalar indicator a comment
	// follows, the quote of a scalar cut short.
	token int
	// lexical reports a problem of a token (a quoted scalar cut short, a
	// comment without a space before it) rather than a collection left
	// open.
	lexical bool
	// comment is the byte range of a comment the library refuses first
	// (see scanFlow), both 0 for none.
	comment [2]int
	// diagnostic, when set, is the library's error, over [at, end).
	diagnostic string
	end        int
	// missed is the byte range of a plain scalar over lines the parser
	// keeps as stray content: the library's line counter misses the
	// starts of its lines (see newYAMLParseErrorMissing).
	missed [2]int
}

// error returns the library's error for the collection.
func (f *openFlow) error(data []byte) *YAMLParseError {
	if f.diagnostic != "" {
		return newYAMLParseErrorMissing(data, f.diagnostic, f.at, f.end, f.missed)
	}
	if f.comment[1] > 0 {
		return newYAMLParseError(data, "Comments must be separated from other tokens by white space characters", f.comment[0], f.comment[1])
	}
	if f.quote != 0 {
		return newYAMLParseError(data, "Missing closing "+string(f.quote)+"quote", f.at, f.at+1)
	}
	kind := "Flow sequence"
	if f.closer == '}' {
		kind = "Flow map"
	}
	msg := kind + " in block collection must be sufficiently indented and end with a " + string(f.closer)
	if f.root {
		msg = kind + " must end with a " + string(f.closer)
	}
	return newYAMLParseError(data, msg, f.at, f.at+1)
}

// yamlBlank reports whether the byte at i of data ends a token as the
// library's lexer sees it: a space, a tab, a line break or the end.
func yamlBlank(data []byte, i int) bool {
	return i >= len(data) || data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'
}

// flowIndicator reports whether c is one of YAML's flow indicators,
// ",[]{}".
func flowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// flowWordEnd returns where the anchor, tag or alias name at q ends: at a
// blank, a flow indicator or end, whichever comes first.
func flowWordEnd(data []byte, q, end int) int {
	for q < end && !yamlBlank(data, q) && !flowIndicator(data[q]) {
		q++
	}
	return q
}

// lineBreak returns the length of the line break at i: 1 for "\n", 2 for
// "\r\n", 0 for none.
func lineBreak(data []byte, i int) int {
	switch {
	case i < len(data) && data[i] == '\n':
		return 1
	case i+1 < len(data) && data[i] == '\r' && data[i+1] == '\n':
		return 2
	}
	return 0
}

// findOpenFlow returns the first flow collection of data that the
// library's lexer ends without its closing bracket, or nil. It follows
// the lexer (yaml 2.9.0, parse/lexer.ts) as far as flow collections
// need: block lines are read for the indentation a flow collection
// started on them must keep (the lexer's indentNext: one more than the
// indentation of the key or "- " it is the value of), quoted scalars,
// comments and block scalars are stepped over, and a flow collection ends
// at its closing bracket, at the end of the text, or at a line indented
// less than that (a comment line excepted, and the closing bracket one
// column less), or at a document marker.
func findOpenFlow(data []byte) *openFlow {
	return scanBlock(data, nil)
}

// blockLines returns lines with the lines that start inside a flow
// collection or a quoted scalar emptied, for the rules that read the
// indentation of block lines: such a line continues a token, wherever it
// is indented.
func blockLines(data []byte, lines []yamlLine) []yamlLine {
	var spans [][2]int
	scanBlock(data, &spans)
	if len(spans) == 0 {
		return lines
	}
	out := slices.Clone(lines)
	s := 0
	for i, ln := range out {
		for s < len(spans) && spans[s][1] <= ln.start {
			s++
		}
		if s < len(spans) && spans[s][0] < ln.start {
			out[i].text = nil
		}
	}
	return out
}

// scanBlock is findOpenFlow, recording in spans (when not nil) the byte
// ranges of the flow collections and quoted scalars it steps over, in
// order.
func scanBlock(data []byte, spans *[][2]int) *openFlow {
	p := 0
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		p = 3
	}
	indentNext := 0
	seen := false // a node before, in this document
	for p < len(data) {
		// The start of a line.
		n := 0
		for p+n < len(data) && data[p+n] == ' ' {
			n++
		}
		end := p + bytes.IndexByte(data[p:], '\n')
		if end < p {
			end = len(data)
		}
		next := end + 1
		lineEnd := end
		if lineEnd > p && data[lineEnd-1] == '\r' {
			lineEnd--
		}
		q := p + n
		indentValue := n
		if n == 0 && q < len(data) && data[q] == '%' && !seen {
			p = next
			continue
		}
		if n == 0 && (bytes.HasPrefix(data[q:], []byte("---")) || bytes.HasPrefix(data[q:], []byte("..."))) && yamlBlank(data, q+3) {
			indentNext, seen = 0, false
			q += 3
		} else if q < lineEnd {
			if indentNext > indentValue && !yamlBlank(data, q+1) {
				indentNext = indentValue
			}
			// Block indicators: "- ", "? ", ": ".
			for q < lineEnd && (data[q] == '-' || data[q] == '?' || data[q] == ':') && yamlBlank(data, q+1) {
				w := 1
				for q+w < lineEnd && (data[q+w] == ' ' || data[q+w] == '\t') {
					w++
				}
				indentNext = indentValue + 1
				indentValue += w
				q += w
				seen = true
			}
		}
		// The tokens of the line.
		for q < lineEnd {
			c := data[q]
			switch {
			case c == ' ' || c == '\t':
				q++
			case c == '#' && (q == 0 || yamlBlank(data, q-1)):
				q = lineEnd
			case c == '[' || c == '{':
				f, after := scanFlow(data, q, indentNext, !seen)
				if f != nil {
					return f
				}
				if spans != nil {
					*spans = append(*spans, [2]int{q, after})
				}
				if f := tightComment(data, after, q); f != nil {
					return f
				}
				seen = true
				q = after
				if q > lineEnd {
					// The collection ran over lines: go on from the line
					// it ends on.
					lineEnd, next = lineAt(data, q)
				}
			case c == '"' || c == '\'':
				close := closeQuote(data, q)
				if close < 0 {
					// The lexer reads it to the end of the text.
					return &openFlow{start: q, at: len(data), quote: c, token: q, lexical: true}
				}
				if cut := quoteCut(data, q, close, indentNext); cut >= 0 {
					return &openFlow{start: q, at: cut, quote: c, token: q, lexical: true}
				}
				if spans != nil {
					*spans = append(*spans, [2]int{q, close + 1})
				}
				if f := tightComment(data, close+1, q); f != nil {
					return f
				}
				if f := scalarAfter(data, close+1, q); f != nil {
					return f
				}
				seen = true
				q = close + 1
				if q > lineEnd {
					lineEnd, next = lineAt(data, q)
				}
			case c == '|' || c == '>':
				// A block scalar: its lines are those indented at least as
				// far as the lexer's indentNext, and blank lines. A comment
				// right after its header is refused.
				h := q + 1
				for h < lineEnd && !yamlBlank(data, h) && data[h] != '#' {
					h++
				}
				if f := blockScalarHeader(data, q, h); f != nil {
					return f
				}
				if f := tightComment(data, h, q); f != nil {
					return f
				}
				seen = true
				p = next
				content := false // a line of the scalar holds more than spaces
				for p < len(data) {
					k := 0
					for p+k < len(data) && data[p+k] == ' ' {
						k++
					}
					if p+k < len(data) && lineBreak(data, p+k) == 0 && k < max(indentNext, 1) {
						break
					}
					content = content || p+k < len(data) && lineBreak(data, p+k) == 0
					e := bytes.IndexByte(data[p:], '\n')
					if e < 0 {
						p = len(data)
						break
					}
					p += e + 1
				}
				// A line after it that a tab starts: the lexer takes the
				// tabs into the scalar, which the library refuses as a
				// line less indented than the scalar's.
				if p < len(data) && data[p] == '\t' {
					msg := "Block scalar lines must not be less indented than their first line"
					switch {
					case bytes.ContainsAny(data[q:h], "123456789"):
						msg = "Block scalar lines must not be less indented than their explicit indentation indicator"
					case !content && n > 0:
						// The scalar's lines are trimmed by the indentation
						// of its block context, more than the tab line's.
						msg = "Block scalars with more-indented leading empty lines must use an explicit indentation indicator"
					case !content:
						msg = "Block scalar values in collections must be indented"
					}
					return &openFlow{start: q, token: q, lexical: true, diagnostic: msg, at: p, end: p + 1}
				}
				next, q = p, lineEnd
			case (c == ':' || c == '-' || c == '?') && yamlBlank(data, q+1):
				// A mapping value (or a misplaced indicator): what
				// follows is a node, the value of a key at indentNext-1.
				if c == ':' {
					indentNext = indentValue + 1
				}
				q++
			case c == '!' || c == '&' || c == '*':
				// A tag or an anchor, which does not make a node of its
				// own, or an alias, which does.
				seen = seen || c == '*'
				token := q
				for q < lineEnd && !yamlBlank(data, q) {
					q++
				}
				if c == '*' {
					if f := scalarAfter(data, q, token); f != nil {
						return f
					}
				}
			default:
				// A plain scalar, to ": ", " #" or the end of the line.
				if f := badPlainStart(data, q, "@`%"); f != nil {
					return f
				}
				seen = true
				for q < lineEnd {
					if data[q] == ':' && yamlBlank(data, q+1) || (data[q] == ' ' || data[q] == '\t') && q+1 < lineEnd && data[q+1] == '#' {
						break
					}
					q++
				}
			}
		}
		p = next
	}
	return nil
}

// closeQuote returns the offset of the quote closing the quoted scalar
// that starts at q, or -1 when it never closes.
func closeQuote(data []byte, q int) int {
	quote := data[q]
	for j := q + 1; j < len(data); j++ {
		switch {
		case quote == '"' && data[j] == '\\':
			j++
		case data[j] == quote && quote == '\'' && j+1 < len(data) && data[j+1] == '\'':
			j++
		case data[j] == quote:
			return j
		}
	}
	return -1
}

// scanFlow reads the flow collection that starts at the bracket at start
// on a line whose block context requires the indentation indent (the
// lexer's indentNext). It returns the collection when the library does
// not see it closed, else nil and the offset after its closing bracket.
//
// The library's error stands at the end of the collection's last item
// (resolve-flow-collection.ts): the item's range runs over the spaces,
// line breaks and comments after it, to where the lexer ended the
// collection, but for an empty value after a ':' without a comment, which
// ends after the ':' and the spaces that follow it on its line
// (emptyScalarPosition). Before that error the library reports a comment
// that starts a line right after the line of a pair's value ("Comments
// must be separated from other tokens by white space characters", from
// resolve-props.ts, as the comment lands among the value's own tokens).
func scanFlow(data []byte, start, indent int, root bool) (*openFlow, int) {
	closers := []byte{closerOf(data[start])}
	// openers holds the offset of each open collection's bracket.
	openers := []int{start}
	// pairs[i] reports that level i of the collection is in a pair's
	// value: after its ':' and before the ',' that ends the item.
	pairs := []bool{false}
	// items[i] is the item of level i before its ':', as a key of a pair
	// in a flow sequence must be read (keyItem).
	items := []keyItem{{start: -1, brk: -1}}
	item := func() *keyItem { return &items[len(items)-1] }
	// token records a token of the item at the innermost level.
	token := func(at int, plain bool) {
		it := item()
		if it.start < 0 {
			it.start = at
		} else if plain && it.plain && it.brk >= 0 {
			// A plain scalar goes on over the line break.
			it.multi, it.brk = true, -1
		}
		it.plain = plain
	}
	// pair returns the library's refusal of the item's key when a ':'
	// makes it a pair of a flow sequence and it is not on one line.
	pair := func(colon int) *openFlow {
		it := item()
		if closers[len(closers)-1] != ']' || pairs[len(pairs)-1] {
			return nil
		}
		const msg = "Implicit keys of flow sequence pairs need to be on a single line"
		switch {
		case it.multi:
			return &openFlow{start: start, token: start, lexical: true, diagnostic: msg, at: it.start, end: colon}
		case it.brk >= 0 && !it.collection:
			return &openFlow{start: start, token: start, lexical: true, diagnostic: msg, at: it.brk, end: it.brk + 1}
		}
		return nil
	}
	// entryKey returns the start of the entry of the "- " at q when a
	// ':' makes it a key over lines (entryKeyOverLines), or -1.
	entryKey := func(q int) int {
		p, _ := entryKeyOverLines(data, q, len(data))
		return p
	}
	q := start + 1
	flowKey := false
	emptyValue := -1 // after a ':' and its spaces, while no value follows
	commented := false
	value := false // the last token is a pair's value, or ends one
	comment := [2]int{-1, -1}
	stop := func(at int) (*openFlow, int) {
		if emptyValue >= 0 && !commented {
			at = emptyValue
		}
		f := &openFlow{start: start, at: at, closer: closers[len(closers)-1], root: root && len(closers) == 1, token: start}
		if comment[0] >= 0 {
			f.comment = comment
		}
		return f, at
	}
	// tight returns the library's refusal of a comment at q, right after
	// the token at token, or one recorded before it.
	tight := func(token int) *openFlow {
		f := tightComment(data, q, token)
		if f != nil && comment[0] >= 0 {
			f.comment, f.token = comment, start
		}
		return f
	}
	skipSpaces := func() {
		for q < len(data) && (data[q] == ' ' || data[q] == '\t') {
			q++
		}
	}
	if f := tight(start); f != nil {
		return f, q
	}
	for {
		if q >= len(data) {
			return stop(len(data))
		}
		if nl := lineBreak(data, q); nl > 0 {
			if it := item(); it.start >= 0 && it.brk < 0 && !pairs[len(pairs)-1] {
				it.brk = q
			}
			// Line breaks, then the spaces that indent the next line and
			// any tabs after them.
			lineIndent, breaks, lineStart := 0, 0, q
			for nl > 0 {
				q += nl
				breaks++
				lineStart = q
				lineIndent = 0
				for q < len(data) && data[q] == ' ' {
					q++
					lineIndent++
				}
				skipSpaces()
				nl = lineBreak(data, q)
			}
			if q >= len(data) {
				return stop(len(data))
			}
			if value && breaks == 1 && q == lineStart && data[q] == '#' && comment[0] < 0 {
				end := q
				for end < len(data) && lineBreak(data, end) == 0 {
					end++
				}
				comment = [2]int{q, end}
			}
			marker := lineIndent == 0 && (bytes.HasPrefix(data[q:], []byte("---")) || bytes.HasPrefix(data[q:], []byte("..."))) && yamlBlank(data, q+3)
			if lineIndent < indent && data[q] != '#' || marker {
				atEndMarker := lineIndent == indent-1 && len(closers) == 1 && (data[q] == ']' || data[q] == '}')
				if !atEndMarker {
					return stop(q)
				}
			}
			continue
		}
		c := data[q]
		switch {
		case c == ' ' || c == '\t':
			q++
		case c == '#' && yamlBlank(data, q-1):
			if emptyValue >= 0 {
				commented = true
			}
			for q < len(data) && lineBreak(data, q) == 0 {
				q++
			}
		case c == ',':
			emptyValue, commented, flowKey, value = -1, false, false, false
			pairs[len(pairs)-1] = false
			*item() = keyItem{start: -1, brk: -1}
			q++
			if f := tight(openers[len(openers)-1]); f != nil {
				return f, q
			}
		case c == '[' || c == '{':
			token(q, false)
			if it := item(); it.start == q {
				// A collection as the key: the library lets a line break
				// follow it.
				it.collection = true
			}
			items = append(items, keyItem{start: -1, brk: -1})
			closers = append(closers, closerOf(c))
			openers = append(openers, q)
			pairs = append(pairs, false)
			emptyValue, commented, flowKey, value = -1, false, false, false
			q++
			if f := tight(openers[len(openers)-1]); f != nil {
				return f, q
			}
		case c == ']' || c == '}':
			if c != closers[len(closers)-1] {
				// The lexer closes a collection with either bracket; the
				// library refuses the wrong one at the end of the last item.
				return stop(q)
			}
			opener := openers[len(openers)-1]
			closers, pairs, openers = closers[:len(closers)-1], pairs[:len(pairs)-1], openers[:len(openers)-1]
			items = items[:len(items)-1]
			q++
			if len(closers) == 0 {
				return nil, q
			}
			if f := tight(opener); f != nil {
				return f, q
			}
			emptyValue, commented, flowKey, value = -1, false, true, pairs[len(pairs)-1]
		case c == '"' || c == '\'':
			close := closeQuote(data, q)
			if close < 0 {
				return &openFlow{start: start, at: len(data), quote: c, token: start}, len(data)
			}
			if cut := quoteCut(data, q, close, indent); cut >= 0 {
				return &openFlow{start: start, at: cut, quote: c, token: q, lexical: true}, cut
			}
			emptyValue, commented, flowKey, value = -1, false, true, pairs[len(pairs)-1]
			token(q, false)
			quote := q
			q = close + 1
			if f := tight(quote); f != nil {
				return f, q
			}
			if f := flowScalarAfter(data, q, quote, closers[len(closers)-1] == ']', pairs[len(pairs)-1]); f != nil {
				return f, q
			}
		case c == ':' && (flowKey || yamlBlank(data, q+1) || q+1 < len(data) && data[q+1] == ','):
			if f := pair(q); f != nil {
				return f, q
			}
			q++
			skipSpaces()
			emptyValue, commented, flowKey, value = q, false, false, false
			pairs[len(pairs)-1] = true
		case c == '!' || c == '&':
			// A tag or an anchor: an empty value after it ends after it.
			q = flowWordEnd(data, q, len(data))
			if emptyValue >= 0 {
				skipSpaces()
				emptyValue = q
			}
		case c == '-' && yamlBlank(data, q+1) && item().start < 0 && !pairs[len(pairs)-1] && atLineStart(data, q) && (blockSeqEnd(data, q, closers[len(closers)-1] == ']') > q || entryKey(q) >= 0):
			if p := entryKey(q); p >= 0 {
				return &openFlow{start: start, token: start, lexical: true, diagnostic: "Implicit keys need to be on a single line", at: p, end: p + 1}, q
			}
			return &openFlow{start: start, token: start, lexical: true, diagnostic: "Block collections are not allowed within flow collections", at: q, end: blockSeqEnd(data, q, closers[len(closers)-1] == ']')}, q
		case c == '*':
			token(q, false)
			q = flowWordEnd(data, q, len(data))
			emptyValue, commented, flowKey, value = -1, false, false, pairs[len(pairs)-1]
		default:
			// A plain scalar, to a flow indicator, a ':' before a blank or a
			// flow indicator, a comment or the end of the line.
			if f := badPlainStart(data, q, "@`|>%"); f != nil {
				return f, q
			}
			emptyValue, commented, flowKey, value = -1, false, false, pairs[len(pairs)-1]
			token(q, true)
			for q < len(data) && lineBreak(data, q) == 0 {
				d := data[q]
				if flowIndicator(d) ||
					d == ':' && (yamlBlank(data, q+1) || flowIndicator(data[q+1])) ||
					(d == ' ' || d == '\t') && q+1 < len(data) && data[q+1] == '#' {
					break
				}
				q++
			}
			if q < len(data) && data[q] == ':' {
				// The ':' of this plain key: read as the value indicator.
				if f := pair(q); f != nil {
					return f, q
				}
				q++
				skipSpaces()
				emptyValue, value = q, false
				pairs[len(pairs)-1] = true
			}
		}
	}
}

// keyItem is what scanFlow knows of an item of a flow collection before
// its ':': the offset of its first token (-1 before any), of the first
// line break after its last token (-1 for none), whether a plain scalar
// of it went on over a line break (multi), whether its last token is a
// plain scalar, and whether it starts with a collection.
type keyItem struct {
	start, brk               int
	multi, plain, collection bool
}

// closerOf returns the bracket that closes opener.
func closerOf(opener byte) byte {
	if opener == '{' {
		return '}'
	}
	return ']'
}

// tightComment returns the library's refusal of a comment that starts at
// q right after a token (a quoted scalar, a flow indicator, a block
// scalar header), without a space between: the lexer reads it as a
// comment, which resolve-props.ts refuses over its whole text. token is
// the offset of the node the comment follows. It returns nil when no
// comment starts at q.
func tightComment(data []byte, q, token int) *openFlow {
	if q >= len(data) || data[q] != '#' {
		return nil
	}
	end := q
	for end < len(data) && lineBreak(data, end) == 0 {
		end++
	}
	return &openFlow{start: token, comment: [2]int{q, end}, token: token, lexical: true}
}

// quoteCut returns where the library's lexer ends the quoted scalar that
// starts at q and whose closing quote is at close, when it ends it before
// that quote, else -1. The lexer continues a quoted scalar on the next
// line only if that line is blank or indented at least indent spaces (the
// lexer's indentNext; tabs do not count), or, at indent 0, if it is no
// document marker (continueScalar in parse/lexer.ts). It ends the scalar
// at the line break before the first line it cannot continue on, and the
// library refuses the scalar there, after its last character.
func quoteCut(data []byte, q, close, indent int) int {
	for nl := q; ; {
		i := bytes.IndexByte(data[nl+1:close], '\n')
		if i < 0 {
			return -1
		}
		nl += 1 + i
		next := nl + 1
		if indent > 0 {
			k := 0
			for next+k < len(data) && data[next+k] == ' ' {
				k++
			}
			if k < indent && lineBreak(data, next+k) == 0 {
				if data[nl-1] == '\r' {
					return nl - 1
				}
				return nl
			}
		} else if (bytes.HasPrefix(data[next:], []byte("---")) || bytes.HasPrefix(data[next:], []byte("..."))) && yamlBlank(data, next+3) {
			if data[nl-1] == '\r' {
				return nl - 1
			}
			return nl
		}
	}
}

// scalarAfter returns the library's refusal of a plain scalar on the line
// of a quoted scalar or an alias that ends at q, in a block context,
// after spaces ("Unexpected scalar at node end", over the scalar), or
// nil. A ':' after it (a key) is left to the other rules.
func scalarAfter(data []byte, q, token int) *openFlow {
	at := q
	for at < len(data) && (data[at] == ' ' || data[at] == '\t') {
		at++
	}
	if at >= len(data) || lineBreak(data, at) > 0 || bytes.IndexByte([]byte("#:'\"[]{},&*!|>%@`"), data[at]) >= 0 {
		return nil
	}
	end := at
	for end < len(data) && lineBreak(data, end) == 0 {
		if data[end] == ':' && yamlBlank(data, end+1) {
			return nil
		}
		if (data[end] == ' ' || data[end] == '\t') && end+1 < len(data) && data[end+1] == '#' {
			break
		}
		end++
	}
	for end > at && (data[end-1] == ' ' || data[end-1] == '\t') {
		end--
	}
	if end < len(data) && (data[end] == ' ' || data[end] == '\t') && end+1 < len(data) && data[end+1] == '#' {
		return &openFlow{start: token, token: token, lexical: true, diagnostic: "Unexpected scalar at node end", at: at, end: end}
	}
	// The lines after indented further go on with the scalar, and make
	// a key of it with a ':': left to the other rules.
	last, colon := plainLinesAfter(data, end, lineIndentAt(data, token))
	if colon >= 0 {
		return nil
	}
	f := &openFlow{start: token, token: token, lexical: true, diagnostic: "Unexpected scalar at node end", at: at, end: last}
	if last > end {
		f.missed = [2]int{at, last}
	}
	return f
}

// lineIndentAt returns the number of spaces that start the line of
// offset q.
func lineIndentAt(data []byte, q int) int {
	ls := bytes.LastIndexByte(data[:q], '\n') + 1
	indent := 0
	for ls+indent < len(data) && data[ls+indent] == ' ' {
		indent++
	}
	return indent
}

// plainLinesAfter follows a plain scalar in a block context whose first
// line ends at end (before any white space that ends its line) onto the
// next lines, as the library's lexer does: over blank lines, and lines
// indented further than indent (the indentation of the line its node
// starts on) that do not start with a comment, to a ':' before a blank
// (which ends it as a key), a comment after white space, or the end of
// its last such line. It returns the end of the scalar's text and the
// offset of the ':' that ends it, or -1.
func plainLinesAfter(data []byte, end, indent int) (last, colon int) {
	last = end
	p := end
	for p < len(data) && lineBreak(data, p) == 0 {
		if data[p] == ':' && yamlBlank(data, p+1) {
			return last, p
		}
		p++
	}
	for p < len(data) {
		p += lineBreak(data, p)
		k := 0
		for p+k < len(data) && data[p+k] == ' ' {
			k++
		}
		if p+k < len(data) && lineBreak(data, p+k) > 0 {
			p += k
			continue
		}
		if p+k >= len(data) || k <= indent || data[p+k] == '#' {
			return last, -1
		}
		e := p + k
		for e < len(data) && lineBreak(data, e) == 0 {
			if data[e] == ':' && yamlBlank(data, e+1) {
				return last, e
			}
			if (data[e] == ' ' || data[e] == '\t') && e+1 < len(data) && data[e+1] == '#' {
				return last, -1
			}
			if data[e] != ' ' && data[e] != '\t' && data[e] != '\r' {
				last = e + 1
			}
			e++
		}
		p = e
	}
	return last, -1
}

// flowScalarAfter returns the library's refusal of a plain scalar right
// after a quoted scalar that ends at q inside a flow collection, with no
// space between, or nil: as a pair's value (inPair), "Unexpected scalar at
// node end", over it to a flow indicator, a ':' before a blank, a comment
// or the end of the line; as an item of a flow sequence (inSeq),
// "Missing , or : between flow sequence items" at its start. A ':' after
// it is left to the other rules.
func flowScalarAfter(data []byte, q, token int, inSeq, inPair bool) *openFlow {
	if q >= len(data) || lineBreak(data, q) > 0 || bytes.IndexByte([]byte(" \t#:'\"[]{},&*!|>%@`"), data[q]) >= 0 {
		return nil
	}
	end := q
	for end < len(data) && lineBreak(data, end) == 0 && !flowIndicator(data[end]) {
		if data[end] == ':' && (yamlBlank(data, end+1) || flowIndicator(data[end+1])) {
			return nil
		}
		if (data[end] == ' ' || data[end] == '\t') && end+1 < len(data) && data[end+1] == '#' {
			break
		}
		end++
	}
	switch {
	case inPair:
	case inSeq && bytes.IndexByte(data[token:q], '\n') >= 0:
		// The quoted item is a key over lines, which the composer
		// refuses first.
		return &openFlow{start: token, token: token, lexical: true, diagnostic: "Implicit keys of flow sequence pairs need to be on a single line", at: token, end: q}
	case inSeq:
		return &openFlow{start: token, token: token, lexical: true, diagnostic: "Missing , or : between flow sequence items", at: q, end: q + 1}
	default:
		return nil
	}
	for end > q && (data[end-1] == ' ' || data[end-1] == '\t') {
		end--
	}
	return &openFlow{start: token, token: token, lexical: true, diagnostic: "Unexpected scalar at node end", at: q, end: end}
}

// badPlainStart returns the library's refusal of a plain scalar at q that
// starts with one of the characters of bad (resolve-flow-scalar.ts:
// "Plain value cannot start with …", at that character), or nil.
func badPlainStart(data []byte, q int, bad string) *openFlow {
	if q >= len(data) || strings.IndexByte(bad, data[q]) < 0 {
		return nil
	}
	what := "reserved character "
	switch data[q] {
	case '|', '>':
		what = "block scalar indicator "
	case '%':
		what = "directive indicator character "
	}
	return &openFlow{start: q, token: q, lexical: true, diagnostic: "Plain value cannot start with " + what + string(data[q]), at: q, end: q + 1}
}

// blockScalarHeader returns the library's refusal of the block scalar
// header data[q:end] (to a blank or a '#', as the lexer reads it) when it
// holds more than one chomping indicator and one indentation indicator
// from 1 to 9 ("Block scalar header includes extra characters: <header>",
// at the first extra one, resolve-block-scalar.ts), or nil.
func blockScalarHeader(data []byte, q, end int) *openFlow {
	chomp, indent := false, false
	for i := q + 1; i < end; i++ {
		c := data[i]
		switch {
		case !chomp && (c == '-' || c == '+'):
			chomp = true
		case !indent && c >= '1' && c <= '9':
			indent = true
		default:
			return &openFlow{start: q, token: q, lexical: true, diagnostic: "Block scalar header includes extra characters: " + string(data[q:end]), at: i, end: i + 1}
		}
	}
	return nil
}

// atLineStart reports whether only spaces and tabs stand before q on its
// line.
func atLineStart(data []byte, q int) bool {
	for i := q - 1; i >= 0 && data[i] != '\n'; i-- {
		if data[i] != ' ' && data[i] != '\t' {
			return false
		}
	}
	return true
}

// blockSeqEnd returns the end of the range over which the library refuses
// a block sequence that starts at q, at the start of its line, as an item
// of a flow collection: the flow indicator that ends it on its line
// (spaces before it left out), or past the line (one caret) in a flow
// sequence (inSeq). In a flow mapping a sequence that runs past its line
// makes a key over lines instead: it returns -1.
func blockSeqEnd(data []byte, q int, inSeq bool) int {
	end := q
	for end < len(data) && lineBreak(data, end) == 0 && !flowIndicator(data[end]) {
		end++
	}
	switch {
	case end < len(data) && lineBreak(data, end) == 0:
		for end > q && (data[end-1] == ' ' || data[end-1] == '\t') {
			end--
		}
		return end
	case inSeq:
		if p, _ := entryKeyOverLines(data, q, len(data)); p >= 0 {
			return -1
		}
		return q + 1
	}
	return -1
}

// entryKeyOverLines returns the start and end of the entry of the "- "
// at q in a flow collection that ends before end, where the entry is a
// scalar over lines that a ':' follows: the parser makes it the key of a
// mapping in the entry, which the composer refuses as a key over lines.
// It returns -1, -1 elsewhere.
func entryKeyOverLines(data []byte, q, end int) (int, int) {
	p := q + 1
	for p < end && (data[p] == ' ' || data[p] == '\t') {
		p++
	}
	if p >= end || bytes.IndexByte([]byte("#[]{},&*!|>%@`-?:"), data[p]) >= 0 || lineBreak(data, p) > 0 {
		return -1, -1
	}
	e := flowTokenEnd(data, p, end)
	colon := e
	for colon < end && (data[colon] == ' ' || data[colon] == '\t') {
		colon++
	}
	if colon < end && data[colon] == ':' && bytes.IndexByte(data[p:e], '\n') >= 0 {
		return p, e
	}
	return -1, -1
}

// lineAt returns the end of the line of data that holds offset q (before
// its line break and any carriage return) and the offset of the next
// line.
func lineAt(data []byte, q int) (end, next int) {
	end = q + bytes.IndexByte(data[q:], '\n')
	if end < q {
		end = len(data)
	}
	next = end + 1
	if end > q && data[end-1] == '\r' {
		end--
	}
	return end, next
}

// flowItemRefusal returns the library's refusal of an item of a flow
// collection of data that the parser joins with the node after it:
//
//   - a pair's value that is a scalar or an alias followed by a ':'
//     indicator on the line where it ends ("{a: b: c}"; after a ',' or a
//     '{' a ':' makes a pair with an empty key, "{a,: b: c}"): the parser
//     makes a block mapping of the value and the ':', which the composer
//     refuses ("Block collections are not allowed within flow
//     collections") over the mapping, from the scalar to the end of the
//     value after the ':'; a scalar over lines it refuses first as a key
//     over lines;
//   - a key (an item not yet a pair) followed by another node without a
//     ',' or a ':' between ("{a [b]}", '["x"\n "y"]'): the parser makes
//     the node the key's value, which the composer refuses ("Missing , or
//     : between flow map items", or sequence items) at the node; an item
//     of a flow sequence over lines it refuses first as a key of a pair
//     over lines;
//   - a "- " line whose entry is a scalar over lines that a ':'
//     follows: the parser makes a block sequence of it with a mapping
//     whose key is the scalar, refused as a key over lines ("Implicit
//     keys need to be on a single line") before the sequence; or whose
//     entry runs past its line (the sequence refused at its '-': "Block
//     collections are not allowed within flow collections"; other "- "
//     lines are findOpenFlow's).
//
// It reads the flow collections scanBlock steps over, and returns nil
// when none holds such an item.
func flowItemRefusal(data []byte) *YAMLParseError {
	var spans [][2]int
	scanBlock(data, &spans)
	for _, s := range spans {
		if c := data[s[0]]; c != '[' && c != '{' {
			continue
		}
		if r := flowItems(data, s[0], min(s[1], len(data))); r.diagnostic != "" {
			return newYAMLParseError(data, r.diagnostic, r.at, r.end)
		}
	}
	return nil
}

// The states of an item of a flow collection, for flowItems.
const (
	flowItemStart  = iota // nothing read yet
	flowItemKey           // a key (or an item) read
	flowItemColon         // after the ':' of a pair
	flowItemScalar        // a scalar or an alias read as a pair's value
	flowItemValue         // a pair's value read and ended
)

// flowRefusal is a refusal found by flowItems: diagnostic over [at, end),
// diagnostic empty for none.
type flowRefusal struct {
	diagnostic string
	at, end    int
}

// flowItems returns the first refusal of flowItemRefusal in the flow
// collection data[start:end].
func flowItems(data []byte, start, end int) flowRefusal {
	var states []int
	seqs := []bool{data[start] == '['} // the collections open are sequences
	state, valueAt, valueEnd := flowItemStart, -1, -1
	keyAt, keyEnd := -1, -1
	adjacent := false // a ':' right after the last token is an indicator
	closed := false   // a collection that is a key closed on this line
	for q := start + 1; q < end; {
		c := data[q]
		indicator := c == ':' && (adjacent || yamlBlank(data, q+1) || q+1 < end && flowIndicator(data[q+1]))
		adjacent = false
		node := !indicator && !yamlBlank(data, q) && bytes.IndexByte([]byte(",]}#"), c) < 0
		if node && state == flowItemKey && closed {
			// A collection stays open to the parser to the end of its
			// line: what follows it there is its own stray content.
			return flowRefusal{}
		}
		if node && state == flowItemKey {
			kind := "flow map"
			if seqs[len(seqs)-1] {
				kind = "flow sequence"
				if keyAt >= 0 && bytes.IndexByte(data[keyAt:keyEnd], '\n') >= 0 {
					return flowRefusal{"Implicit keys of flow sequence pairs need to be on a single line", keyAt, keyEnd}
				}
			}
			return flowRefusal{"Missing , or : between " + kind + " items", q, q + 1}
		}
		if c == '-' && yamlBlank(data, q+1) && state == flowItemStart && atLineStart(data, q) {
			// A "- " line: a block sequence to the parser. An entry
			// that a ':' after it on a later line makes a key over lines
			// is refused first; else the sequence, at its '-' (with one
			// caret when the entry runs past its line; one that ends on
			// its line is findOpenFlow's).
			if p, e := entryKeyOverLines(data, q, end); p >= 0 {
				return flowRefusal{"Implicit keys need to be on a single line", p, e}
			}
			if blockSeqEnd(data, q, true) == q+1 {
				return flowRefusal{"Block collections are not allowed within flow collections", q, q + 1}
			}
			return flowRefusal{}
		}
		switch {
		case yamlBlank(data, q):
			// A line break ends the value: the parser pops a scalar
			// at the end of its line.
			if c == '\n' && state == flowItemScalar {
				state = flowItemValue
			}
			closed = closed && c != '\n'
			q++
		case c == '#' && yamlBlank(data, q-1):
			for q < end && lineBreak(data, q) == 0 {
				q++
			}
		case c == ',':
			state = flowItemStart
			q++
		case c == '[' || c == '{':
			states = append(states, state)
			seqs = append(seqs, c == '[')
			state = flowItemStart
			q++
		case c == ']' || c == '}':
			if len(states) == 0 {
				return flowRefusal{}
			}
			state = states[len(states)-1]
			states, seqs = states[:len(states)-1], seqs[:len(seqs)-1]
			if state == flowItemColon {
				state = flowItemValue
			} else {
				state, keyAt, closed = flowItemKey, -1, true
			}
			adjacent = true
			q++
		case indicator:
			if state == flowItemScalar {
				if bytes.IndexByte(data[valueAt:valueEnd], '\n') >= 0 {
					return flowRefusal{"Implicit keys need to be on a single line", valueAt, valueEnd}
				}
				return flowRefusal{"Block collections are not allowed within flow collections", valueAt, flowValueEnd(data, q+1, end)}
			}
			state = flowItemColon
			q++
		case c == '&' || c == '!':
			q = flowWordEnd(data, q, end)
		default:
			at := q
			q = flowTokenEnd(data, q, end)
			adjacent = c == '"' || c == '\''
			if state == flowItemColon {
				state, valueAt, valueEnd = flowItemScalar, at, q
			} else {
				state, keyAt, keyEnd = flowItemKey, at, q
			}
		}
	}
	return flowRefusal{}
}

// flowTokenEnd returns the end of the quoted scalar, alias or plain
// scalar that starts at q in a flow collection that ends before end.
func flowTokenEnd(data []byte, q, end int) int {
	switch data[q] {
	case '"', '\'':
		if c := closeQuote(data, q); c >= 0 && c < end {
			return c + 1
		}
		return end
	case '*':
		q = flowWordEnd(data, q, end)
		return q
	}
	last := q + 1
	for p := q + 1; p < end; p++ {
		c := data[p]
		switch {
		case c == ':' && (yamlBlank(data, p+1) || p+1 < end && flowIndicator(data[p+1])):
			return last
		case flowIndicator(c):
			return last
		case c == '#' && yamlBlank(data, p-1):
			return last
		case !yamlBlank(data, p):
			last = p + 1
		}
	}
	return last
}

// flowValueEnd returns the end of the node after the ':' at q-1 in a flow
// collection that ends before end: a scalar, an alias or a collection,
// the end of the white space after the ':' when there is none.
func flowValueEnd(data []byte, q, end int) int {
	p := q
	for p < end && yamlBlank(data, p) {
		p++
	}
	if p >= end || bytes.IndexByte([]byte(",]}#"), data[p]) >= 0 {
		// An empty value, at the end of the white space.
		return p
	}
	if data[p] == '[' || data[p] == '{' {
		return min(p+tokenEnd(data[p:end]), end)
	}
	return flowTokenEnd(data, p, end)
}

// invalidEscape returns the library's refusal of the first escape of a
// double-quoted scalar of data it does not know ("Invalid escape sequence
// \q", at the backslash; for \x, \u and \U, over the digits it wants,
// when they are no hexadecimal number of a character), or nil. It reads
// the double-quoted scalars scanBlock steps over, in a block context or
// inside a flow collection.
func invalidEscape(data []byte) *YAMLParseError {
	var spans [][2]int
	scanBlock(data, &spans)
	for _, s := range spans {
		end := min(s[1], len(data))
		switch data[s[0]] {
		case '"':
			if e := quotedEscape(data, s[0], end); e != nil {
				return e
			}
		case '[', '{':
			for q := s[0] + 1; q < end; {
				c := data[q]
				switch {
				case yamlBlank(data, q) || flowIndicator(c):
					q++
				case c == '#' && yamlBlank(data, q-1):
					for q < end && lineBreak(data, q) == 0 {
						q++
					}
				case c == ':' && (yamlBlank(data, q+1) || q+1 < end && flowIndicator(data[q+1])):
					q++
				case c == '&' || c == '!':
					q = flowWordEnd(data, q, end)
				default:
					at := q
					q = flowTokenEnd(data, q, end)
					if c == '"' {
						if e := quotedEscape(data, at, q); e != nil {
							return e
						}
					}
				}
			}
		}
	}
	return nil
}

// yamlEscapes are the characters after a backslash the library reads as
// an escape of one character (escapeCodes in compose/resolve-flow-scalar.ts).
const yamlEscapes = "0abefnrtvN_LP \"/\\\t"

// quotedEscape returns the library's refusal of the first unknown escape
// of the double-quoted scalar data[start:end] (its quotes included), or
// nil.
func quotedEscape(data []byte, start, end int) *YAMLParseError {
	for i := start + 1; i < end-1; i++ {
		if data[i] != '\\' {
			continue
		}
		next := data[i+1]
		switch {
		case bytes.IndexByte([]byte(yamlEscapes), next) >= 0 || lineBreak(data, i+1) > 0:
			i++
		case next == 'x' || next == 'u' || next == 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[next]
			digits := data[i+2 : min(i+2+n, end)]
			code, err := strconv.ParseUint(string(digits), 16, 32)
			if len(digits) < n || err != nil || code > utf8.MaxRune || bytes.ContainsAny(digits, "+-") {
				return newYAMLParseError(data, "Invalid escape sequence "+string(data[i:i+2+len(digits)]), i, i+1)
			}
			i += 1 + n
		default:
			_, size := utf8.DecodeRune(data[i+1:])
			return newYAMLParseError(data, "Invalid escape sequence "+string(data[i:i+1+size]), i, i+1)
		}
	}
	return nil
}
