package jsstack

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
)

// [GlobSync] is Node's fs.globSync (Node 22, the
// version upstream runs on): its pattern rules (minimatch with
// windowsPathsNoEscape, its optimization level 2 rewrites of ".", ".." and
// "**", the dot-file rule) and its walk (lstat types: "**" never descends
// through a link, a wildcard matches a link but a later part descends into
// it only where Node's walk does), so that the same tree gives the same
// matches. Brace patterns never get here (they are refused before), and
// extglob groups such as "+(a|b)" are taken literally.

// globPart is one part of a compiled pattern: the globstar, a literal
// name, or a matcher.
type globPart struct {
	globstar bool
	literal  string
	match    func(string) bool
}

func (p globPart) isLiteral() bool { return !p.globstar && p.match == nil }

// globPattern is one compiled pattern with the set of part indexes a walk
// position still has to match, and the indexes reached through a link.
type globPattern struct {
	parts    []globPart
	strs     []string // the parts as written, for the seen keys
	indexes  []int    // in insertion order, each once
	symlinks []int
}

func (p *globPattern) last() int { return len(p.parts) - 1 }

func (p *globPattern) has(i int) bool { return slices.Contains(p.indexes, i) }

func (p *globPattern) at(i int) (globPart, bool) {
	if i < 0 {
		i += len(p.parts)
	}
	if i < 0 || i >= len(p.parts) {
		return globPart{}, false
	}
	return p.parts[i], true
}

func (p *globPattern) child(indexes, symlinks []int) *globPattern {
	return &globPattern{parts: p.parts, strs: p.strs, indexes: indexes, symlinks: symlinks}
}

// hasSeenSymlinks reports whether some index was not reached through a
// link.
func (p *globPattern) hasSeenSymlinks() bool {
	for _, i := range p.indexes {
		if !slices.Contains(p.symlinks, i) {
			return true
		}
	}
	return false
}

// isLast reports whether the walk position completes the pattern.
func (p *globPattern) isLast(isDir bool) bool {
	if p.has(p.last()) {
		return true
	}
	end, _ := p.at(-1)
	before, ok := p.at(-2)
	return end.isLiteral() && end.literal == "" && isDir && p.has(p.last()-1) && ok && before.globstar
}

func (p *globPattern) test(i int, name string) bool {
	part, ok := p.at(i)
	if !ok || i < 0 {
		return false
	}
	switch {
	case part.globstar:
		return true
	case part.match != nil:
		return part.match(name)
	}
	return part.literal == name
}

// cacheKey is the pattern from part i on, "" past its end (joining no
// parts gives "" too: i > len(p.strs), a mutant, is equivalent).
func (p *globPattern) cacheKey(i int) string {
	if i >= len(p.strs) {
		return ""
	}
	return strings.Join(p.strs[i:], "/")
}

// globWalk is one globSync call in progress.
type globWalk struct {
	fsys    GlobFS
	root    string
	results []string
	inRes   map[string]bool
	seen    map[string]map[string]bool
	stats   map[string]fs.FileInfo // lstat results, nil for missing
	dirs    map[string][]fs.DirEntry
	// subpatterns holds the positions queued by one step, in order.
	subPaths []string
	subPats  map[string][]*globPattern
}

// GlobFS is the file system a glob walks: Lstat does not follow a final
// symbolic link, ReadDir does (as Node's lstat and readdir). Names are
// slash-separated and absolute.
type GlobFS interface {
	Lstat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// GlobSync returns the matches of pattern below root, as Node's
// fs.globSync(pattern, {cwd: root}) returns them (unsorted): paths
// relative to root, absolute for an absolute pattern.
func GlobSync(fsys GlobFS, pattern, root string) []string {
	w := &globWalk{
		fsys: fsys, root: root, inRes: map[string]bool{}, seen: map[string]map[string]bool{},
		stats: map[string]fs.FileInfo{}, dirs: map[string][]fs.DirEntry{}, subPats: map[string][]*globPattern{},
	}
	type item struct {
		path     string
		patterns []*globPattern
	}
	queue := []item{{".", compileGlob(pattern)}}
	for len(queue) > 0 {
		it := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, p := range it.patterns {
			w.addSubpatterns(it.path, p)
		}
		for _, p := range w.subPaths {
			queue = append(queue, item{p, w.subPats[p]})
		}
		w.subPaths = w.subPaths[:0]
		clear(w.subPats)
	}
	return w.results
}

func (w *globWalk) result(p string) {
	if !w.inRes[p] {
		w.inRes[p] = true
		w.results = append(w.results, p)
	}
}

// lstat is Node's cached lstat; nil for a name that cannot be lstat-ed.
func (w *globWalk) lstat(name string) fs.FileInfo {
	if fi, ok := w.stats[name]; ok {
		return fi
	}
	fi, err := w.fsys.Lstat(name)
	if err != nil {
		fi = nil
	}
	w.stats[name] = fi
	return fi
}

func (w *globWalk) readDir(name string) []fs.DirEntry {
	if list, ok := w.dirs[name]; ok {
		return list
	}
	list, err := w.fsys.ReadDir(name)
	if err != nil {
		list = nil
	}
	w.dirs[name] = list
	return list
}

// add records the position's keys; it reports whether one of them was
// there already.
func (w *globWalk) add(p string, pat *globPattern) bool {
	keys := w.seen[p]
	if keys == nil {
		keys = map[string]bool{}
		w.seen[p] = keys
	}
	before := len(keys)
	for _, i := range pat.indexes {
		keys[pat.cacheKey(i)] = true
	}
	return len(keys) != before+len(pat.indexes)
}

func (w *globWalk) isSeen(p string, pat *globPattern, i int) bool {
	return w.seen[p][pat.cacheKey(i)]
}

func (w *globWalk) addSubpattern(p string, pat *globPattern) {
	if _, ok := w.subPats[p]; !ok {
		w.subPaths = append(w.subPaths, p)
	}
	w.subPats[p] = append(w.subPats[p], pat)
}

func isDirInfo(fi fs.FileInfo) bool  { return fi != nil && fi.IsDir() }
func isLinkInfo(fi fs.FileInfo) bool { return fi != nil && fi.Mode()&fs.ModeSymlink != 0 }

// resolvePath is Node's path.resolve(root, p).
func (w *globWalk) resolvePath(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(w.root, p)
}

// joinPath is Node's path.join for the walk's relative paths.
func joinPath(a, b string) string {
	j := path.Join(a, b)
	if j == "" {
		return "."
	}
	// Node's path.join keeps a trailing slash: join("../", "") is "../".
	if b == "" && len(j) > 1 && strings.HasSuffix(a, "/") {
		j += "/"
	}
	return j
}

func (w *globWalk) addSubpatterns(p string, pat *globPattern) {
	if w.add(p, pat) {
		return
	}
	full := w.resolvePath(p)
	stat := w.lstat(full)
	last := pat.last()
	isDir := isDirInfo(stat) || (isLinkInfo(stat) && pat.hasSeenSymlinks())
	isLast := pat.isLast(isDir)
	isFirst := pat.has(0)
	first, _ := pat.at(0)
	if isFirst && first.isLiteral() {
		switch first.literal {
		case "":
			w.addSubpattern("/", pat.child([]int{1}, nil))
			return
		case "..":
			w.addSubpattern("../", pat.child([]int{1}, nil))
			return
		case ".":
			w.addSubpattern(".", pat.child([]int{1}, nil))
			return
		}
	}
	end, _ := pat.at(-1)
	switch {
	case isLast && end.isLiteral():
		if fi := w.lstat(path.Join(full, end.literal)); fi != nil && (end.literal != "" || isDir) {
			w.result(joinPath(p, end.literal))
		}
		if len(pat.indexes) == 1 && pat.has(last) {
			return
		}
	case isLast && end.globstar && (p != "." || (first.isLiteral() && first.literal == ".") || (last == 0 && stat != nil)):
		w.result(p)
	}
	if !isDir {
		return
	}
	var children []fs.DirEntry
	if len(pat.indexes) == 1 {
		if only, _ := pat.at(pat.indexes[0]); only.isLiteral() {
			fi := w.lstat(path.Join(full, only.literal))
			if fi == nil {
				return
			}
			children = []fs.DirEntry{namedEntry{fs.FileInfoToDirEntry(fi), only.literal}}
		}
	}
	if children == nil {
		children = w.readDir(full)
	}
	for _, entry := range children {
		entryPath := joinPath(p, entry.Name())
		var sub, symlinks []int
		addSub := func(i int) {
			if !slices.Contains(sub, i) {
				sub = append(sub, i)
			}
		}
		isEntryDir := entry.IsDir()
		isEntryLink := entry.Type()&fs.ModeSymlink != 0
		for _, index := range pat.indexes {
			if w.isSeen(entryPath, pat, index) || w.isSeen(entryPath, pat, index+1) {
				return
			}
			current, _ := pat.at(index)
			next := index + 1
			nextPart, hasNext := pat.at(next)
			fromSymlink := slices.Contains(pat.symlinks, index)
			if current.globstar {
				// A dot name goes on only where the next part names it
				// (the preprocessing leaves no globstar after a globstar,
				// which Node's walk would skip here).
				nextMatches := pat.test(next, entry.Name())
				if strings.HasPrefix(entry.Name(), ".") && !nextMatches {
					continue
				}
				if !fromSymlink && isEntryDir {
					addSub(index)
				} else if !fromSymlink && index == last {
					w.result(entryPath)
				}
				if nextMatches && next == last && !isLast {
					w.result(entryPath)
				} else if nextMatches && isEntryDir {
					addSub(index + 2)
				}
				if (nextMatches || (first.isLiteral() && first.literal == ".")) && (isEntryDir || isEntryLink) && !fromSymlink {
					addSub(next)
				}
				if isEntryLink && !slices.Contains(symlinks, index) {
					symlinks = append(symlinks, index)
				}
				if hasNext && nextPart.isLiteral() && nextPart.literal == ".." && isEntryDir {
					parent := joinPath(p, "..")
					if next < last {
						if _, ok := w.subPats[p]; !ok && !w.isSeen(p, pat, next+1) {
							w.subPaths = append(w.subPaths, p)
							w.subPats[p] = []*globPattern{pat.child([]int{next + 1}, nil)}
						}
						if _, ok := w.subPats[parent]; !ok && !w.isSeen(parent, pat, next+1) {
							w.subPaths = append(w.subPaths, parent)
							w.subPats[parent] = []*globPattern{pat.child([]int{next + 1}, nil)}
						}
					} else {
						if !w.isSeen(p, pat, next) {
							w.add(p, pat.child([]int{next}, nil))
							w.result(p)
						}
						if !w.isSeen(p, pat, next) || !w.isSeen(parent, pat, next) {
							w.add(parent, pat.child([]int{next}, nil))
							w.result(parent)
						}
					}
				}
			}
			// Node's walk also steps over a "." part here; the
			// preprocessing leaves none but a first one, taken above,
			// and a last one, which nothing follows.
			if current.isLiteral() && pat.test(index, entry.Name()) && index != last {
				addSub(next)
			}
			if current.match != nil && current.match(entry.Name()) {
				if index == last {
					w.result(entryPath)
				} else if isEntryDir {
					addSub(next)
				}
			}
		}
		// A child without indexes would find nothing: len(sub) >= 0 (a
		// mutant) is equivalent.
		if len(sub) > 0 {
			w.addSubpattern(entryPath, pat.child(sub, symlinks))
		}
	}
}

// namedEntry is a DirEntry under the name the pattern gave it.
type namedEntry struct {
	fs.DirEntry
	name string
}

func (e namedEntry) Name() string { return e.name }

// compileGlob compiles a pattern as Node's glob does through minimatch:
// backslashes are separators, runs of slashes are one, and the parts are
// rewritten as minimatch's optimization level 2 rewrites them.
func compileGlob(pattern string) []*globPattern {
	pattern = strings.ReplaceAll(pattern, `\`, "/")
	sets := [][]string{splitSlashes(pattern)}
	// minimatch's second phase, which merges sets into one matching
	// their union, is left out: the walk collects each set's paths into
	// one result set, so it changes no result (testdata/node-globsync.json
	// holds patterns that make several sets).
	sets = globFirstPhase(sets)
	out := make([]*globPattern, 0, len(sets))
	for _, strs := range sets {
		parts := make([]globPart, len(strs))
		for i, s := range strs {
			parts[i] = compileGlobPart(s)
		}
		out = append(out, &globPattern{parts: parts, strs: strs, indexes: []int{0}})
	}
	return out
}

// splitSlashes is JavaScript's p.split(/\/+/).
func splitSlashes(p string) []string {
	var out []string
	for {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return append(out, p)
		}
		out = append(out, p[:i])
		p = strings.TrimLeft(p[i:], "/")
	}
}

// globFirstPhase is minimatch's firstPhasePreProcess.
func globFirstPhase(sets [][]string) [][]string {
	for did := true; did; {
		did = false
		for si := 0; si < len(sets); si++ {
			parts := sets[si]
			for gs := indexFrom(parts, "**", 0); gs != -1; gs = indexFrom(parts, "**", gs+1) {
				gss := gs
				for gss+1 < len(parts) && parts[gss+1] == "**" {
					gss++
				}
				parts = slices.Delete(parts, gs+1, gss+1) // none when gss == gs
				next, p, p2 := at(parts, gs+1), at(parts, gs+2), at(parts, gs+3)
				if next != ".." || p == "" || p == "." || p == ".." || p2 == "" || p2 == "." || p2 == ".." {
					continue
				}
				did = true
				parts = slices.Delete(parts, gs, gs+1)
				other := slices.Clone(parts)
				other[gs] = "**"
				sets = append(sets, other)
				// Looking on from here; did makes another pass over the
				// whole set anyway, so gs++ (a mutant) is equivalent.
				gs--
			}
			// The "." parts inside go (minimatch drops "" ones too,
			// which splitting on runs of slashes never leaves inside).
			if n := len(parts); n > 2 {
				last := parts[n-1]
				kept := parts[:1]
				for _, p := range parts[1 : n-1] {
					if p == "." {
						did = true
					} else {
						kept = append(kept, p)
					}
				}
				parts = append(kept, last)
			}
			if parts[0] == "." && len(parts) == 2 && (parts[1] == "." || parts[1] == "") {
				did = true
				parts = parts[:1]
			}
			for dd := indexFrom(parts, "..", 1); dd != -1; dd = indexFrom(parts, "..", dd+1) {
				p := parts[dd-1]
				if p != "" && p != "." && p != ".." && p != "**" {
					did = true
					needDot := dd == 1 && at(parts, dd+1) == "**"
					rest := slices.Clone(parts[dd+1:])
					parts = parts[:dd-1]
					if needDot {
						parts = append(parts, ".")
					}
					parts = append(parts, rest...)
					if len(parts) == 0 {
						parts = append(parts, "")
					}
					// Scan again from the start (minimatch steps back
					// two; did brings another pass anyway).
					dd = 0
				}
			}
			sets[si] = parts
		}
	}
	return sets
}

// at returns parts[i], or "" past either end. Its callers ask for an
// index above 0: i <= 0 (a mutant) is equivalent.
func at(parts []string, i int) string {
	if i < 0 || i >= len(parts) {
		return ""
	}
	return parts[i]
}

func indexFrom(parts []string, s string, from int) int {
	for i := from; i < len(parts); i++ {
		if parts[i] == s {
			return i
		}
	}
	return -1
}

// compileGlobPart compiles one part: "**" is the globstar, a part without
// magic (no "*" or "?", no bracket expression that closes) is a literal,
// any other a matcher that never matches a leading dot unless the part
// starts with one, nor "." or "..".
func compileGlobPart(s string) globPart {
	if s == "**" {
		return globPart{globstar: true}
	}
	toks, magic, codePoints := globTokens(s)
	if !magic {
		return globPart{literal: s}
	}
	// minimatch writes a bracket expression with "graph" and other members
	// as a group, and a part that starts with one has no dot guard.
	dotOK := strings.HasPrefix(s, ".") || toks[0].kind == '[' && toks[0].mixed()
	return globPart{match: func(name string) bool {
		if name == "." || name == ".." {
			return false
		}
		if !dotOK && strings.HasPrefix(name, ".") {
			return false
		}
		return matchTokens(toks, jsChars(name, codePoints))
	}}
}

// globToken is a piece of a part: a literal character, "?" (any one), "*"
// (any run) or a bracket expression.
type globToken struct {
	kind    byte // 'c', '?', '*', '['
	char    rune
	negate  bool
	ranges  [][2]rune
	classes []func(rune) bool
	graph   bool // "[:graph:]" is a member
}

// mixed reports a bracket expression with "graph" and other members.
func (t globToken) mixed() bool { return t.graph && (len(t.ranges) > 0 || len(t.classes) > 0) }

// jsChars returns the characters of s as a JavaScript regular expression
// sees them: UTF-16 code units, or code points under the u flag.
func jsChars(s string, codePoints bool) []rune {
	if codePoints {
		return []rune(s)
	}
	units := utf16.Encode([]rune(s))
	out := make([]rune, len(units))
	for i, u := range units {
		out[i] = rune(u)
	}
	return out
}

// globTokens tokenizes a part; magic reports a wildcard or a closed
// bracket expression. Characters are UTF-16 code units, as JavaScript's
// regular expressions see them, or code points (codePoints) where a
// Unicode property class gives minimatch's expression the u flag.
func globTokens(s string) (toks []globToken, magic, codePoints bool) {
	toks, magic, codePoints = tokenizeGlob(jsChars(s, false))
	if codePoints {
		toks, magic, _ = tokenizeGlob(jsChars(s, true))
	}
	return toks, magic, codePoints
}

func tokenizeGlob(units []rune) (toks []globToken, magic, codePoints bool) {
	for i := 0; i < len(units); i++ {
		switch c := units[i]; c {
		case '*':
			magic = true
			if n := len(toks); n == 0 || toks[n-1].kind != '*' {
				toks = append(toks, globToken{kind: '*'})
			}
		case '?':
			magic = true
			toks = append(toks, globToken{kind: '?'})
		case '[':
			if tok, end, u, ok := bracket(units, i); ok {
				magic = true
				codePoints = codePoints || u
				toks = append(toks, tok)
				i = end
				continue
			}
			toks = append(toks, globToken{kind: 'c', char: c})
		default:
			toks = append(toks, globToken{kind: 'c', char: c})
		}
	}
	return toks, magic, codePoints
}

// posixClasses are the bracket expression classes minimatch knows, as the
// Unicode property classes it writes for them ("print" is \p{C}); all but
// "ascii" and "xdigit" give the part's expression the u flag, which reads
// code points. "graph", all but \p{Z} and \p{C}, is not here: minimatch
// writes it as a negated class, which the bracket's token keeps apart.
var posixClasses = map[string]func(rune) bool{
	"alnum":  func(c rune) bool { return unicode.In(c, unicode.L, unicode.Nl, unicode.Nd) },
	"alpha":  func(c rune) bool { return unicode.In(c, unicode.L, unicode.Nl) },
	"ascii":  func(c rune) bool { return c < 0x80 },
	"blank":  func(c rune) bool { return c == '\t' || unicode.Is(unicode.Zs, c) },
	"cntrl":  func(c rune) bool { return unicode.Is(unicode.Cc, c) },
	"digit":  func(c rune) bool { return unicode.Is(unicode.Nd, c) },
	"lower":  func(c rune) bool { return unicode.Is(unicode.Ll, c) },
	"print":  func(c rune) bool { return unicode.In(c, unicode.C) },
	"punct":  func(c rune) bool { return unicode.Is(unicode.P, c) },
	"space":  func(c rune) bool { return c >= '\t' && c <= '\r' || unicode.Is(unicode.Z, c) },
	"upper":  func(c rune) bool { return unicode.Is(unicode.Lu, c) },
	"word":   func(c rune) bool { return unicode.In(c, unicode.L, unicode.Nl, unicode.Nd, unicode.Pc) },
	"xdigit": func(c rune) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' },
}

// bracket parses the bracket expression starting at units[start] ('[');
// ok is false when it does not close, and the '[' is then literal; u
// reports a class that minimatch writes as a Unicode property class.
func bracket(units []rune, start int) (tok globToken, end int, u, ok bool) {
	tok = globToken{kind: '['}
	i := start + 1
	if i < len(units) && (units[i] == '!' || units[i] == '^') {
		tok.negate = true
		i++
	}
	first := true
	for i < len(units) {
		c := units[i]
		if c == ']' && !first {
			return tok, i, u, true
		}
		first = false
		if c == '[' && i+1 < len(units) && units[i+1] == ':' {
			if end := indexUnits(units, i+2, ":]"); end != -1 {
				name := string(units[i+2 : end])
				if name == "graph" {
					tok.graph, u = true, true
					i = end + 2
					continue
				}
				if class, ok := posixClasses[name]; ok {
					tok.classes = append(tok.classes, class)
					u = u || name != "ascii" && name != "xdigit"
					i = end + 2
					continue
				}
			}
		}
		if i+2 < len(units) && units[i+1] == '-' && units[i+2] != ']' {
			if units[i+2] >= c {
				tok.ranges = append(tok.ranges, [2]rune{c, units[i+2]})
			}
			i += 3
			continue
		}
		tok.ranges = append(tok.ranges, [2]rune{c, c})
		i++
	}
	return globToken{}, 0, false, false
}

func indexUnits(units []rune, from int, s string) int {
	// Its one caller looks for ":]", whose bracket cannot close when it
	// ends the text: i+len(s) < len(units) (a mutant) is equivalent.
	for i := from; i+len(s) <= len(units); i++ {
		ok := true
		for j := 0; j < len(s); j++ {
			if units[i+j] != rune(s[j]) {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

func (t globToken) matches(c rune) bool {
	switch t.kind {
	case '?':
		return true
	case 'c':
		return t.char == c
	}
	in := false
	for _, r := range t.ranges {
		if c >= r[0] && c <= r[1] {
			in = true
			break
		}
	}
	for _, class := range t.classes {
		in = in || class(c)
	}
	if !t.graph {
		return in != t.negate
	}
	// minimatch's forms: [^\p{Z}\p{C}] alone, ([members]|[^\p{Z}\p{C}])
	// with other members, and with "!" [\p{Z}\p{C}] and ([^members]|[\p{Z}\p{C}]).
	graph := !unicode.In(c, unicode.Z, unicode.C)
	switch {
	case !t.mixed():
		return graph != t.negate
	case t.negate:
		return !in || !graph
	}
	return in || graph
}

// matchTokens matches a whole name.
func matchTokens(toks []globToken, name []rune) bool {
	if len(toks) == 0 {
		return len(name) == 0
	}
	if toks[0].kind == '*' {
		for k := 0; k <= len(name); k++ {
			if matchTokens(toks[1:], name[k:]) {
				return true
			}
		}
		return false
	}
	return len(name) > 0 && toks[0].matches(name[0]) && matchTokens(toks[1:], name[1:])
}
