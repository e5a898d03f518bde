package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/outfitter-go/vfsim/vfs"
)

// SyncedCheckout returns the repository checkout that name lies in when
// it arrived by sync: home/.outfitter/cache/repos/<key> or
// home/.outfitter/cache/profiles/<key> when name is that directory or
// below it (lexically), else "". home must be absolute; with "" nothing
// is synced.
func SyncedCheckout(home, name string) string {
	if home == "" || !path.IsAbs(name) {
		return ""
	}
	// The checkout's name is the start of the clean name: nothing is
	// built, and a clean name costs no allocation.
	name = path.Clean(name)
	home = path.Clean(home)
	if home == "/" {
		home = ""
	}
	rel, ok := strings.CutPrefix(name, home)
	if !ok {
		return ""
	}
	if rel, ok = strings.CutPrefix(rel, "/.outfitter/cache/"); !ok {
		return ""
	}
	kind, rest, _ := strings.Cut(rel, "/")
	if kind != "repos" && kind != "profiles" {
		return ""
	}
	key, _, _ := strings.Cut(rest, "/")
	if key == "" || key == "." || key == ".." {
		return ""
	}
	return name[:len(name)-len(rest)+len(key)]
}

// SyncedState returns where the agent's writes to name, a path in a
// checkout ([SyncedCheckout]), are kept instead: the same path below
// home/.outfitter/state as below home/.outfitter/cache
// (home/.outfitter/state/repos/<key>/<path in the checkout>); "" when
// name is not synced content. The agent never writes into a checkout, so
// that the next sync can always bring it to its repository's tip.
func SyncedState(home, name string) string {
	if SyncedCheckout(home, name) == "" {
		return ""
	}
	cache := vfs.Join(home, ".outfitter", "cache")
	return vfs.Join(home, ".outfitter", "state", strings.TrimPrefix(path.Clean(name), cache+"/"))
}

// Checkout returns the repository checkout the layer was loaded from when
// it arrived by sync (a remote source's cache directory, or any source
// lying in one, see [SyncedCheckout]), else "".
func (l Layer) Checkout(home string) string {
	if l.Source.Remote() {
		sub := path.Clean(l.Source.Path)
		if l.Source.Path == "" || sub == "." {
			return l.SourceRoot
		}
		return strings.TrimSuffix(l.SourceRoot, "/"+sub)
	}
	return SyncedCheckout(home, l.SourceRoot)
}

// Synced reports whether the layer arrived by sync: it was loaded from a
// remote source, or from a directory in a checkout ([SyncedCheckout]).
func (l Layer) Synced(home string) bool {
	return l.Source.Remote() || SyncedCheckout(home, l.SourceRoot) != ""
}

// EscapeError reports a path of synced content that leads out of its
// repository checkout: lexically (an absolute path, a climb with ..) or
// through a symbolic link. Nothing was read or written through it.
type EscapeError struct {
	// Path is the path as it was reached (absolute).
	Path string
	// Checkout is the checkout it had to stay in.
	Checkout string
	// Link is the first link on the way that leads out, and Target its
	// target verbatim; both "" when Path itself lies outside.
	Link, Target string
	// Resolved is where Path really leads ("" when it does not resolve).
	Resolved string
}

// Error names the path, the checkout and the link that leads out.
func (e *EscapeError) Error() string {
	if e.Link == "" {
		return fmt.Sprintf("%s lies outside the synced repository %s; synced content is never read or written outside its checkout",
			Quote(e.Path), Quote(e.Checkout))
	}
	return fmt.Sprintf("%s leaves the synced repository %s: the symbolic link %s points to %s (%s); links in a synced repository are never followed out of it",
		Quote(e.Path), Quote(e.Checkout), Quote(e.Link), Quote(e.Target), Quote(e.Resolved))
}

// Confine checks that name, an absolute path of synced content, stays in
// checkout, links resolved: nil when its real path lies in the checkout's
// real path, else an [*EscapeError] naming the first link under the
// checkout that leads out. A name that does not exist is checked by the
// real path of its longest existing ancestor, so a dangling link out is
// an escape too. On a file system that cannot hold links the names are
// compared as they are.
func Confine(fsys vfs.FS, name, checkout string) error {
	name, checkout = path.Clean(name), path.Clean(checkout)
	if !vfs.Within(name, checkout) {
		return &EscapeError{Path: name, Checkout: checkout}
	}
	realCheckout, err := realPrefix(fsys, checkout)
	if err != nil {
		return err
	}
	real, err := realPrefix(fsys, name)
	if err != nil {
		return err
	}
	if vfs.Within(real, realCheckout) {
		return nil
	}
	e := &EscapeError{Path: name, Checkout: checkout, Link: name, Resolved: real}
	p := checkout
	for c := range strings.SplitSeq(strings.TrimPrefix(strings.TrimPrefix(name, checkout), "/"), "/") {
		p = vfs.Join(p, c)
		fi, err := vfs.Lstat(fsys, p)
		if err != nil {
			break
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if r, err := realPrefix(fsys, p); err != nil || !vfs.Within(r, realCheckout) {
			e.Link = p
			break
		}
	}
	e.Target, _ = vfs.ReadLink(fsys, e.Link)
	return e
}

// realPrefix is the real path of name, or, when name does not resolve
// (it or a link on the way is missing), the real path of its longest
// existing ancestor joined with the rest; a link that cannot be read
// resolves to itself.
func realPrefix(fsys vfs.FS, name string) (string, error) {
	rest := ""
	for p := name; ; p = path.Dir(p) {
		real, err := realPath(fsys, p)
		if err == nil {
			return vfs.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, vfs.ErrNotDir) {
			return "", err
		}
		if p == "/" {
			return name, nil
		}
		if fi, lerr := vfs.Lstat(fsys, p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// A dangling link: where it points counts.
			if target, rerr := vfs.ReadLink(fsys, p); rerr == nil {
				if !path.IsAbs(target) {
					target = vfs.Join(path.Dir(p), target)
				}
				return vfs.Join(target, rest), nil
			}
		}
		rest = vfs.Join(path.Base(p), rest)
	}
}

// realPath is [vfs.EvalSymlinks]; on a file system that cannot hold
// links, the name itself.
func realPath(fsys vfs.FS, name string) (string, error) {
	real, err := vfs.EvalSymlinks(fsys, name)
	if errors.Is(err, errors.ErrUnsupported) {
		if _, ok := fsys.(vfs.SymlinkFS); !ok {
			return path.Clean(name), nil
		}
	}
	return real, err
}

// Quote returns s as it may be shown in a message: as it is when it holds
// no control character, else with each control character (C0, DEL, C1)
// and each invalid byte escaped the way Go quotes strings, so that a
// name from a synced repository cannot move a terminal's cursor, ring its
// bell or rewrite the line it appears on.
func Quote(s string) string {
	if !hasControl(s, false) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == 0xFFFD && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r):
			q := fmt.Sprintf("%+q", string(r))
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// QuoteText is [Quote] for a message of several lines (a tool's output,
// say): each line is quoted, the newlines and tabs between them kept.
func QuoteText(s string) string {
	if !hasControl(s, true) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for j, p := range parts {
			parts[j] = Quote(p)
		}
		lines[i] = strings.Join(parts, "\t")
	}
	return strings.Join(lines, "\n")
}

// hasControl reports whether s holds a control character or an invalid
// byte (isControl), newlines and tabs left out when text is set. Printable
// ASCII, most of a message, is told byte by byte without decoding.
func hasControl(s string, text bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7F {
			i++
			continue
		}
		if c < 0x80 {
			if text && (c == '\n' || c == '\t') {
				i++
				continue
			}
			return true
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isControl(r) {
			return true
		}
		i += size
	}
	return false
}

// isControl reports whether r is a control character or an invalid byte.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0) || r == 0xFFFD
}
