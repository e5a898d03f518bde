package resolve

import (
	"path"
	"slices"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"
)

// TestPropCompareUTF16 checks compareUTF16 against the order of the
// strings' UTF-16 encodings (JavaScript's default sort), ASCII fast path
// included.
func TestPropCompareUTF16(t *testing.T) {
	t.Parallel()
	text := rapid.StringOf(rapid.SampledFrom([]rune{'a', 'b', 'Z', '-', '.', 'é', '\uFFFD', '\uE000', '\uD7FF', '😀', '𐀀'}))
	rapid.Check(t, func(t *rapid.T) {
		a, b := text.Draw(t, "a"), text.Draw(t, "b")
		if rapid.Bool().Draw(t, "invalid UTF-8") {
			a += "\xff"
		}
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := compareUTF16(a, b); sign(got) != want {
			t.Fatalf("compareUTF16(%q, %q) = %d, want sign %d", a, b, got, want)
		}
	})
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// TestPathShortcutsMatchJoin checks folderProfile and isJoined against
// vfs.Join (path.Join) for plain and unusual directories and names.
func TestPathShortcutsMatchJoin(t *testing.T) {
	t.Parallel()
	names := []string{"eng", "profiles", "", ".", "..", "a/b", "a/", "/x", "é"}
	for _, dir := range []string{"/", "/h/.outfitter/profiles", "/h/", "", "rel", "/a/../b", "//x", "/h/./p"} {
		for _, name := range names {
			entry, file := folderProfile(dir, name)
			if want := path.Join(dir, name); entry != want {
				t.Errorf("folderProfile(%q, %q) entry = %q, want %q", dir, name, entry, want)
			}
			if want := path.Join(dir, name, "profile.yml"); file != want {
				t.Errorf("folderProfile(%q, %q) file = %q, want %q", dir, name, file, want)
			}
			for _, p := range []string{path.Join(dir, name), dir + "/" + name, "/other", "", dir} {
				if got, want := isJoined(p, dir, name), p == path.Join(dir, name); got != want {
					t.Errorf("isJoined(%q, %q, %q) = %v, want %v", p, dir, name, got, want)
				}
			}
		}
	}
}
