package composite

import (
	"path"
	"testing"
)

// TestPathShortcutsMatchPath checks resolveAgainst and parentOf against
// the path package on every path of up to four elements drawn from names,
// dots, empty elements and slashes.
func TestPathShortcutsMatchPath(t *testing.T) {
	t.Parallel()
	elems := []string{"a", "bc", ".", "..", "", ".x", "..y"}
	var paths []string
	var build func(prefix string, depth int)
	build = func(prefix string, depth int) {
		paths = append(paths, prefix, "/"+prefix, prefix+"/")
		if depth == 0 {
			return
		}
		for _, e := range elems {
			next := e
			if prefix != "" {
				next = prefix + "/" + e
			}
			build(next, depth-1)
		}
	}
	build("", 4)
	if len(paths) < 1000 {
		t.Fatalf("only %d paths generated", len(paths))
	}
	dirs := []string{"/", "/r", "/r/s", "r", "", "/r/../s", "/r/"}
	checked := 0
	for _, p := range paths {
		for _, dir := range dirs {
			want := path.Join(dir, p)
			if path.IsAbs(p) {
				want = path.Clean(p)
			}
			if got := resolveAgainst(dir, p); got != want {
				t.Fatalf("resolveAgainst(%q, %q) = %q, want %q", dir, p, got, want)
			}
			checked++
		}
		if c := path.Clean("/" + p); parentOf(c) != path.Dir(c) {
			t.Fatalf("parentOf(%q) = %q, want %q", c, parentOf(c), path.Dir(c))
		}
	}
	t.Logf("%d joins checked", checked)
}
