package jsstack

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The yaml library (2.9.0, upstream's) reads YAML 1.2; go.yaml.in/yaml/v3
// reads most of it. Measured on the first 286 documents of
// testdata/node-yaml.json before this pre-pass: of the 220 the library
// accepts, yaml/v3 with the core-schema converter gave the same value for
// 182, another for 20 and refused 18 (%YAML 1.2, surrogate pairs, "\/",
// block scalars at the end of the text); it accepted 2 of the 66 the
// library refuses and located none of the others (its errors name a line
// at most). github.com/goccy/go-yaml v1.19.2, a YAML 1.2 library, decoded
// to ordered maps, gave the same value for 158, another for 42, refused 20,
// accepted 14 the library refuses, and put 33 of its 52 errors at the
// library's line and column. yaml/v3 stays, and ParseYAML closes the gap
// with the smallest rewrite of the text that keeps every line where it
// was:
//
//   - a %YAML directive of another version than 1.1 (1.2, the library's
//     own, or a later one the library reads with a warning) is read as
//     1.1, which yaml/v3 takes, with the core schema; a repeated %YAML
//     directive and an unknown directive, which the library ignores, become
//     comments;
//   - in double-quoted scalars, a UTF-16 surrogate pair escape
//     ("\ud83d\ude80", which YAML 1.2 and JavaScript read as one character)
//     becomes the one \U escape of its character, and the escaped slash
//     "\/" of YAML 1.2 a slash;
//   - a text whose last line has no line break gets one, so that a block
//     scalar on it keeps its final line break as the library's does.
//
// The escapes are rewritten only inside double-quoted scalars: the text
// is read once with every candidate rewritten (a rewrite changes no
// structure), the double-quoted scalars found are then the places where
// a rewrite belongs, and the text is read again if a candidate lay
// elsewhere (in a plain, single-quoted or block scalar, or a comment,
// where the backslash is literal).

// yamlEscape matches the escapes yaml/v3 refuses and YAML 1.2 reads: a
// surrogate pair and the escaped slash.
var yamlEscape = regexp.MustCompile(`\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|/)`)

// yamlEdit is a rewrite of the text: the old bytes at [at, at+old) of the
// original become with.
type yamlEdit struct {
	at, old int
	with    string
}

// yamlCandidates returns the rewrites of data: its directives and every
// escape that yaml/v3 refuses, wherever it stands.
func yamlCandidates(data []byte) (directives, escapes []yamlEdit) {
	directives = directiveEdits(data)
	for _, m := range yamlEscape.FindAllIndex(data, -1) {
		// A backslash after an odd run of backslashes is escaped itself.
		run := 0
		for i := m[0] - 1; i >= 0 && data[i] == '\\'; i-- {
			run++
		}
		if run%2 == 1 {
			continue
		}
		text := data[m[0]:m[1]]
		with := "/"
		if len(text) > 2 {
			hi := hexValue16(text[2:6])
			lo := hexValue16(text[8:12])
			with = fmt.Sprintf(`\U%08X`, 0x10000+(hi-0xD800)<<10+(lo-0xDC00))
		}
		escapes = append(escapes, yamlEdit{at: m[0], old: m[1] - m[0], with: with})
	}
	return directives, escapes
}

func hexValue16(b []byte) int {
	n := 0
	for _, c := range b {
		n = n<<4 | hexValue(int(c))
	}
	return n
}

// directiveEdits rewrites the directives of the prologue (the lines before
// the first that is not blank, a comment or a directive).
func directiveEdits(data []byte) []yamlEdit {
	var edits []yamlEdit
	sawYAML := false
	start := 0
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		start = 3
	}
	for start < len(data) {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		line := bytes.TrimRight(data[start:end], "\r")
		switch {
		case len(bytes.TrimLeft(line, " \t")) == 0 || line[0] == '#':
		case line[0] == '%':
			fields := bytes.Fields(line[1:])
			switch {
			case len(fields) > 0 && string(fields[0]) == "TAG":
			case len(fields) == 2 && string(fields[0]) == "YAML" && !sawYAML:
				sawYAML = true
				if v := fields[1]; string(v) != "1.1" && len(v) >= 3 {
					at := start + bytes.Index(line, v)
					edits = append(edits, yamlEdit{at: at, old: len(v), with: "1.1" + string(bytes.Repeat([]byte{' '}, len(v)-3))})
				}
			case len(fields) > 0 && string(fields[0]) == "YAML" && len(fields) != 2:
				// Malformed: the library refuses it too.
			default:
				edits = append(edits, yamlEdit{at: start, old: 1, with: "#"})
			}
		default:
			return edits
		}
		start = end + 1
	}
	return edits
}

// applyYAMLEdits returns data with the edits (in order of position) made,
// and a line break added at the end of a last line without one.
func applyYAMLEdits(data []byte, edits ...[]yamlEdit) []byte {
	var all []yamlEdit
	for _, e := range edits {
		all = append(all, e...)
	}
	if len(all) == 0 && (len(data) == 0 || data[len(data)-1] == '\n') {
		return data
	}
	// Both lists are in order, the directives before the first escape's
	// line or on it before the escape: merge them by position.
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j].at < all[j-1].at; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	out := make([]byte, 0, len(data)+1)
	last := 0
	for _, e := range all {
		out = append(out, data[last:e.at]...)
		out = append(out, e.with...)
		last = e.at + e.old
	}
	out = append(out, data[last:]...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// quotedSpans returns, in the text yaml/v3 read, the byte ranges (from
// the opening quote to the closing one) of the double-quoted scalars of
// the tree below n.
func quotedSpans(n *yaml.Node, text []byte, spans [][2]int) [][2]int {
	if n.Kind == yaml.ScalarNode && n.Style&yaml.DoubleQuotedStyle != 0 {
		if at := offsetOf(text, n.Line, n.Column); at >= 0 {
			if open := bytes.IndexByte(text[at:], '"'); open >= 0 {
				open += at
				i := open + 1
				for i < len(text) && text[i] != '"' {
					if text[i] == '\\' {
						i++
					}
					i++
				}
				spans = append(spans, [2]int{open, i})
			}
		}
	}
	for _, c := range n.Content {
		spans = quotedSpans(c, text, spans)
	}
	return spans
}

// offsetOf returns the byte offset of a line and column (from 1, the
// column in characters, as yaml/v3 counts them) in text, or -1.
func offsetOf(text []byte, line, col int) int {
	at := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(text[at:], '\n')
		if i < 0 {
			return -1
		}
		at += i + 1
	}
	for c := 1; c < col && at < len(text); c++ {
		_, size := utf8.DecodeRune(text[at:])
		at += size
	}
	return at
}

// escapesInSpans keeps the escapes that lie in a double-quoted scalar of
// doc, read from the text with every candidate rewritten.
func escapesInSpans(doc *yaml.Node, text []byte, directives, escapes []yamlEdit) []yamlEdit {
	spans := quotedSpans(doc, text, nil)
	// The position of each escape in the rewritten text.
	shift := 0
	var kept []yamlEdit
	d := 0
	for _, e := range escapes {
		for d < len(directives) && directives[d].at < e.at {
			shift += len(directives[d].with) - directives[d].old
			d++
		}
		at := e.at + shift
		for _, s := range spans {
			if s[0] < at && at < s[1] {
				kept = append(kept, e)
				break
			}
		}
		shift += len(e.with) - e.old
	}
	return kept
}

// V3Text returns data as go.yaml.in/yaml/v3 should read it to read what
// the yaml library reads (the rewrites above), for a caller that edits
// the text by the positions of yaml/v3's nodes: every line keeps its
// number, and a line keeps its columns unless it holds a rewritten escape.
func V3Text(data []byte) []byte {
	return readV3(data).text
}

// v3Read is what yaml/v3 read for a text: the text with the rewrites
// made (edits, in order), the document (nil for none) and yaml/v3's
// error.
type v3Read struct {
	text  []byte
	edits []yamlEdit
	doc   *yaml.Node
	err   error
}

// readV3 reads data with yaml/v3, the rewrites made.
func readV3(data []byte) v3Read {
	directives, escapes := yamlCandidates(data)
	text := applyYAMLEdits(data, directives, escapes)
	doc, err := decodeOne(text)
	if err == nil && doc != nil && len(escapes) > 0 {
		if kept := escapesInSpans(doc, text, directives, escapes); len(kept) < len(escapes) {
			escapes = kept
			text = applyYAMLEdits(data, directives, escapes)
			doc, err = decodeOne(text)
		}
	}
	return v3Read{text: text, edits: append(slices.Clone(directives), escapes...), doc: doc, err: err}
}
