package writeback

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/vfs"
	"go.yaml.in/yaml/v3"
)

// stateKey is the profile key that holds strategy overrides.
const stateKey = "state_persistence"

// Record sets state_persistence.<key>: symlink in the profile YAML file,
// creating the mapping if it is absent, and changes nothing else in the
// file: the value of an existing entry is replaced where it stands, a new
// entry is a line added after the mapping's last entry at its indentation,
// and a missing mapping is appended at the end of the file, so comments,
// blank lines, indentation, quoting and flow collections stay byte for
// byte. The edit is checked: the edited text must parse to the document
// with the entry set; when it does not (a flow-style state_persistence
// mapping, a value with a tag or an anchor, a multi-line scalar), the
// document is re-encoded with two-space indentation instead, keeping keys,
// their order, styles and comments as far as the YAML library keeps them.
// Upstream re-serializes the whole document with its YAML library
// (re-spacing flow collections, folding long strings at 80 columns); the
// minimal edit is a deliberate deviation: the profile is the user's file.
// Its permission bits are kept. A file whose top level, or whose
// state_persistence value, is not a mapping is left alone and reported.
//
// The edit is atomic: the new document is written to a temporary file
// beside the profile file and renamed over it ([vfs.ReplaceFile]), so a
// full disk or an interruption at any point leaves the old document or
// the new one, whole, never a part or an empty file (upstream rewrites the
// file in place). A profile file that is a symbolic link stays a link: the
// file it leads to is replaced, as upstream's write through the link
// edits it.
//
// Concurrent sessions lose no answer: Record holds the lock of the file
// it edits ([vfs.LockFile] of the file the name leads to, whose lock file
// ".<name>.lock" exists beside it only while held) from before its read
// to after its rename, so two sessions that record at once, in one
// process or in two, edit one after the other and the profile ends with
// both entries (upstream reads and rewrites without a lock: the second
// write drops the first answer). A file system without [vfs.LockFS] is
// edited unlocked.
func Record(fsys PersistFS, file, key string) (err error) {
	// A profile file that is a link (a dotfiles checkout) stays a link:
	// the file it leads to is the one locked and replaced.
	real, rerr := vfs.EvalSymlinks(fsys, file)
	if rerr == nil {
		unlock, lerr := lockDurable(fsys, real)
		if lerr != nil {
			return lerr
		}
		defer func() { err = errors.Join(err, unlock()) }()
	}
	data, err := vfs.ReadFile(fsys, file)
	if err != nil {
		return err
	}
	if rerr != nil {
		return rerr
	}
	// yaml/v3 reads what upstream's yaml library reads (a %YAML 1.2
	// directive, surrogate-pair escapes) through the twin's rewrite, which
	// keeps the lines where they are for the edit below.
	var doc yaml.Node
	if err := yaml.Unmarshal(jsstack.V3Text(data), &doc); err != nil {
		return fmt.Errorf("parse profile file %s: %w", file, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return fmt.Errorf("profile file %s: top level is not a mapping", file)
	}
	sp := mapValue(top, stateKey)
	want := string(composite.StrategySymlink)
	edited, editable := editText(data, top, sp, key, want)
	switch {
	case sp == nil:
		sp = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		top.Content = append(top.Content, scalar(stateKey), sp)
	case sp.Kind == yaml.ScalarNode && sp.Tag == "!!null":
		*sp = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: sp.HeadComment, LineComment: sp.LineComment, FootComment: sp.FootComment}
	case sp.Kind != yaml.MappingNode:
		return fmt.Errorf("profile file %s: %s is not a mapping", file, stateKey)
	}
	if v := mapValue(sp, key); v != nil {
		v.Kind, v.Tag, v.Value, v.Style, v.Content, v.Alias, v.Anchor = yaml.ScalarNode, "!!str", want, 0, nil, nil, ""
	} else {
		sp.Content = append(sp.Content, scalar(key), scalar(want))
	}
	out, err := encode(&doc)
	if err != nil {
		return fmt.Errorf("encode profile file %s: %w", file, err)
	}
	if editable && sameDocument(edited, out) {
		out = edited
	}
	fi, err := vfs.Stat(fsys, real)
	if err != nil {
		return err
	}
	return vfs.ReplaceFile(fsys, real, out, fi.Mode().Perm())
}

// lockDurable takes the lock of the durable file real ([vfs.LockFile]) for
// a read-modify-write, and returns its release. A file system without
// locks ([vfs.LockFS]) is used unlocked: the release does nothing.
func lockDurable(fsys vfs.FS, real string) (func() error, error) {
	u, err := vfs.LockFile(fsys, real)
	if errors.Is(err, errors.ErrUnsupported) {
		return func() error { return nil }, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", real, err)
	}
	return u.Unlock, nil
}

// mapValue returns the value of the string key in a mapping node, or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	_, v := mapEntry(m, key)
	return v
}

// mapEntry returns the key and value nodes of the string key in a mapping
// node, or nils.
func mapEntry(m *yaml.Node, key string) (k, v *yaml.Node) {
	// A mapping node holds key and value pairs, so len(m.Content) is even
	// and i+1, odd, never equals it: "i+1 <= len" is the same bound.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return k, m.Content[i+1]
		}
	}
	return nil, nil
}

func scalar(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

// encode encodes a document with two-space indentation.
func encode(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sameDocument reports whether two YAML texts hold the same data.
func sameDocument(a, b []byte) bool {
	var x, y any
	if yaml.Unmarshal(jsstack.V3Text(a), &x) != nil || yaml.Unmarshal(jsstack.V3Text(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// editText returns the profile text with state_persistence.<key> set to
// value by the smallest edit of the text, and whether it found one (see
// [Record]); the caller checks the result. top is the document's top
// mapping and sp the state_persistence value (nil when absent), both as
// parsed from data, before any change.
func editText(data []byte, top, sp *yaml.Node, key, value string) ([]byte, bool) {
	lines := splitLines(data)
	nl := newline(data)
	switch {
	case sp == nil:
		// A new mapping at the end of the file.
		if top.Style&yaml.FlowStyle != 0 || top.Column != 1 {
			return nil, false
		}
		text := withNewline(data, nl)
		text = append(text, stateKey+":"+nl...)
		text = append(text, strings.Repeat(" ", indentOf(data))...)
		return append(text, entry(key, value, nl)...), true
	case sp.Kind == yaml.ScalarNode:
		// An empty value (state_persistence:) followed by its entries.
		k, _ := mapEntry(top, stateKey)
		if k == nil || k.Line < 1 || k.Line > len(lines) {
			return nil, false
		}
		line := lines[k.Line-1]
		rest, ok := afterKey(line, k)
		if !ok || strings.TrimSpace(stripComment(rest)) != "" {
			return nil, false
		}
		indent := strings.Repeat(" ", k.Column-1+indentOf(data))
		return insertLine(data, lines, k.Line, indent+entry(key, value, nl), nl), true
	case sp.Style&yaml.FlowStyle != 0 || len(sp.Content) == 0:
		return nil, false
	}
	if v := mapValue(sp, key); v != nil {
		// Replace the scalar value where it stands.
		// The parser numbers lines from 1, and an entry's value stands
		// below state_persistence, never on line 1: v.Line <= 1 (a mutant)
		// is equivalent.
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" && v.Value == "" || v.Anchor != "" ||
			v.Style&(yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) != 0 ||
			//mutants:equivalent CONDITIONALS_BOUNDARY@11
			v.Line < 1 || v.Line > len(lines) {
			return nil, false
		}
		line := lines[v.Line-1]
		start, ok := byteColumn(line, v.Column)
		if !ok {
			return nil, false
		}
		end := scalarEnd(line, start, v.Style)
		// A scalar ends after it starts, and it starts after its key:
		// end <= 0 (a mutant) is equivalent.
		//mutants:equivalent CONDITIONALS_BOUNDARY
		if end < 0 {
			return nil, false
		}
		off := lineOffset(lines, v.Line)
		out := append([]byte(nil), data[:off+start]...)
		out = append(out, value...)
		return append(out, data[off+end:]...), true
	}
	// A new entry after the mapping's last one, at its indentation.
	first, last := sp.Content[0], sp.Content[len(sp.Content)-2]
	// As above, the entries stand below line 1: <= 1 for either (a
	// mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY@16 CONDITIONALS_BOUNDARY@33
	if first.Line < 1 || last.Line < 1 || last.Line > len(lines) {
		return nil, false
	}
	indent := first.Column - 1
	end := last.Line
	for i := last.Line + 1; i <= len(lines); i++ {
		l := strings.TrimRight(lines[i-1], "\r\n")
		t := strings.TrimLeft(l, " ")
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case len(l)-len(t) >= indent:
			// Deeper lines continue the last entry's value, and so do
			// lines at its indentation: a block sequence may stand
			// there ("key:" then "- item"); a key at that indentation
			// would be an entry after the last one.
			end = i
			continue
		}
		break
	}
	return insertLine(data, lines, end, strings.Repeat(" ", indent)+entry(key, value, nl), nl), true
}

// newline returns the line ending of a text: CRLF when it has one, else
// LF.
func newline(data []byte) string {
	if bytes.Contains(data, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// entry is the line of a mapping entry key: value, ending in nl.
func entry(key, value, nl string) string {
	k, err := yaml.Marshal(key)
	if err != nil {
		k = []byte(strconv.Quote(key))
	}
	return strings.TrimSuffix(string(k), "\n") + ": " + value + nl
}

// splitLines splits text into lines that keep their line feeds.
func splitLines(data []byte) []string {
	return strings.SplitAfter(string(data), "\n")
}

// lineOffset returns the byte offset of the 1-based line n.
func lineOffset(lines []string, n int) int {
	off := 0
	for _, l := range lines[:n-1] {
		off += len(l)
	}
	return off
}

// insertLine inserts a line (ending in nl) after the 1-based line n.
func insertLine(data []byte, lines []string, n int, line, nl string) []byte {
	if n >= len(lines) {
		return append(withNewline(data, nl), line...)
	}
	off := lineOffset(lines, n+1)
	out := append([]byte(nil), data[:off]...)
	out = append(out, line...)
	return append(out, data[off:]...)
}

// withNewline returns data ending in a line ending (a copy), nl when it
// has none.
func withNewline(data []byte, nl string) []byte {
	out := append([]byte(nil), data...)
	// No caller has empty data here (an empty file has no top mapping to
	// add to): >= 0 (a mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, nl...)
	}
	return out
}

// indentOf returns the indentation of the file's first indented line that
// holds a key, 2 when none does.
func indentOf(data []byte) int {
	for _, l := range splitLines(data) {
		t := strings.TrimLeft(l, " ")
		if n := len(l) - len(t); n > 0 && t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "- ") && strings.Contains(t, ":") {
			return n
		}
	}
	return 2
}

// afterKey returns what follows a plain key and its colon on its line.
func afterKey(line string, k *yaml.Node) (string, bool) {
	start, ok := byteColumn(line, k.Column)
	if !ok || !strings.HasPrefix(line[start:], k.Value+":") {
		return "", false
	}
	return strings.TrimRight(line[start+len(k.Value)+1:], "\r\n"), true
}

// stripComment removes a trailing comment from the rest of a line: a #
// at its start or after a space or a tab, as YAML has it.
func stripComment(s string) string {
	if s == "" || s[0] == '#' {
		return ""
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return s[:i-1]
		}
	}
	return s
}

// byteColumn returns the byte offset in line of the 1-based character
// column col.
func byteColumn(line string, col int) (int, bool) {
	n := 1
	for i := range line {
		if n == col {
			return i, true
		}
		n++
	}
	return 0, false
}

// scalarEnd returns the byte offset in line just after the scalar that
// starts at start in the given style, or -1 when it does not end on the
// line.
func scalarEnd(line string, start int, style yaml.Style) int {
	body := strings.TrimRight(line, "\r\n")
	switch {
	case style&yaml.DoubleQuotedStyle != 0:
		for i := start + 1; i < len(body); i++ {
			switch body[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		// No end on the line: an end before the start (+1, a mutant)
		// splices an edit whose text is not the document, which Record's
		// check turns down as it does this one.
		//mutants:equivalent INVERT_NEGATIVES
		return -1
	case style&yaml.SingleQuotedStyle != 0:
		for i := start + 1; i < len(body); i++ {
			if body[i] == '\'' {
				if i+1 < len(body) && body[i+1] == '\'' {
					i++
					continue
				}
				return i + 1
			}
		}
		// As above: +1 (a mutant) is turned down by Record's check.
		//mutants:equivalent INVERT_NEGATIVES
		return -1
	}
	end := len(stripComment(body[start:])) + start
	// A plain value is not empty here (an empty one is a null, which
	// editText leaves to the re-encoding), so end never comes down to
	// start: end >= start (a mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	for end > start && (body[end-1] == ' ' || body[end-1] == '\t') {
		end--
	}
	return end
}
