package main

import "testing"

// TestPrefixNamerLongestRootFirst: a path below nested roots is named by
// the deepest of them, whatever order the roots come in (a map's, which
// changes from one call to the next: the namer is made many times).
func TestPrefixNamerLongestRootFirst(t *testing.T) {
	t.Parallel()
	roots := map[string]string{"/w": "<w>", "/w/h": "<home>", "/w/h/p": "<project>", "/w/h/p/c": "<composite>"}
	tests := map[string]string{
		"/w/x":         "<w>/x",
		"/w/h":         "<home>",
		"/w/h/x":       "<home>/x",
		"/w/h/p/x":     "<project>/x",
		"/w/h/p/c/x/y": "<composite>/x/y",
		"/w/h/pc":      "<home>/pc",
		"/elsewhere":   "/elsewhere",
	}
	for range 20 {
		name := prefixNamer(roots)
		for p, want := range tests {
			if got := name(p); got != want {
				t.Fatalf("prefixNamer(%v)(%q) = %q, want %q", roots, p, got, want)
			}
		}
	}
}
