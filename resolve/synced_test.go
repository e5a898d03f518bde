package resolve_test

import (
	"errors"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// TestSyncedCheckout: a path is synced content when it lies in a
// checkout of the cache, whoever named it.
func TestSyncedCheckout(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"/h/.outfitter/cache/repos/k/profiles/eng/profile.yml": "/h/.outfitter/cache/repos/k",
		"/h/.outfitter/cache/profiles/k":                       "/h/.outfitter/cache/profiles/k",
		"/h/.outfitter/cache/repos/k/../j/x":                   "/h/.outfitter/cache/repos/j",
		"/h/.outfitter/cache/repos":                            "",
		"/h/.outfitter/cache/pi/extensions/x":                  "",
		"/h/.outfitter/profiles/eng/profile.yml":               "",
		"relative/.outfitter/cache/repos/k":                    "",
	}
	for name, want := range tests {
		if got := resolve.SyncedCheckout("/h", name); got != want {
			t.Errorf("SyncedCheckout(%q) = %q, want %q", name, got, want)
		}
	}
	if got := resolve.SyncedCheckout("", "/.outfitter/cache/repos/k"); got != "" {
		t.Errorf("without a home: %q", got)
	}
	for name, want := range map[string]string{
		"/h/.outfitter/cache/repos/k/p/eng/cli_specific/pi/auth.json": "/h/.outfitter/state/repos/k/p/eng/cli_specific/pi/auth.json",
		"/h/.outfitter/cache/profiles/k":                              "/h/.outfitter/state/profiles/k",
		"/h/.outfitter/profiles/eng/cli_specific/pi/auth.json":        "",
	} {
		if got := resolve.SyncedState("/h", name); got != want {
			t.Errorf("SyncedState(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestConfine: links inside the checkout are followed, a link out (or a
// dangling one pointing out) is named, and a path outside is refused
// lexically.
func TestConfine(t *testing.T) {
	t.Parallel()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	const c = "/h/.outfitter/cache/repos/k"
	for _, d := range []string{c + "/a", "/h/.ssh"} {
		if err := vfs.MkdirAll(fsys, d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{c + "/in": "a", c + "/out": "/h/.ssh", c + "/dangling": "/h/.ssh/none"} {
		if err := vfs.Symlink(fsys, target, name); err != nil {
			t.Fatal(err)
		}
	}
	if err := resolve.Confine(fsys, c+"/in/x", c); err != nil {
		t.Errorf("a link inside: %v", err)
	}
	for _, name := range []string{c + "/out/id_rsa", c + "/dangling", "/h/.ssh/id_rsa", c + "/../j"} {
		err := resolve.Confine(fsys, name, c)
		e, ok := errors.AsType[*resolve.EscapeError](err)
		if !ok {
			t.Errorf("Confine(%q) = %v, want an *EscapeError", name, err)
			continue
		}
		if e.Link != "" && e.Link != c+"/out" && e.Link != c+"/dangling" {
			t.Errorf("Confine(%q) names link %q", name, e.Link)
		}
	}
}

// TestQuote: control characters and invalid bytes are escaped, anything
// else is kept.
func TestQuote(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"plain/naïve.md":     "plain/naïve.md",
		"a\x1b[2Jb":          `a\x1b[2Jb`,
		"bell\a\rcr\n":       `bell\a\rcr\n`,
		"bad\xffbyte":        `bad\xffbyte`,
		"c1\u009bx":          `c1\u009bx`,
		"del\x7f":            `del\x7f`,
		"replacement\uFFFD!": `replacement\ufffd!`,
	}
	for in, want := range tests {
		if got := resolve.Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := resolve.QuoteText("fatal: x\n\ty\x1b[2J\r\nz"), "fatal: x\n\ty\\x1b[2J\\r\nz"; got != want {
		t.Errorf("QuoteText = %q, want %q", got, want)
	}
	if got := resolve.QuoteText("two\nlines\t"); got != "two\nlines\t" {
		t.Errorf("QuoteText of plain text = %q", got)
	}
}
