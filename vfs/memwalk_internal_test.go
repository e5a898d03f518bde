package vfs

import (
	"slices"
	"strings"
	"testing"
)

// TestWalkPlainAsResolve: the one-pass walk of plain names gives what
// Resolve gives (the parent, the final name and entry, the chain of
// names, the error) for every name it takes, with every flag the calls
// use, over a tree with directories, files and links of every kind, deep
// paths, and names that are not plain; and it takes the plain names
// without a link to follow.
func TestWalkPlainAsResolve(t *testing.T) {
	t.Parallel()
	m := NewMemFS(MemOptions{})
	deep := "/deep" + strings.Repeat("/d", 14)
	for _, err := range []error{
		m.MkdirAll("/a/b/c", 0o755),
		m.MkdirAll(deep, 0o755),
		m.WriteFile("/a/f", []byte("f"), 0o644),
		m.WriteFile("/a/b/g", []byte("g"), 0o644),
		m.WriteFile(deep+"/f", nil, 0o644),
		m.Symlink("b", "/a/lb"),
		m.Symlink("/a/f", "/a/lf"),
		m.Symlink("missing", "/a/dangling"),
		m.Symlink("/a/loop2", "/a/loop1"),
		m.Symlink("/a/loop1", "/a/loop2"),
		m.Symlink("/a", "/la"),
		m.Symlink("..", "/a/b/up"),
		// Absolute final links, which the plain walk follows.
		m.Symlink("/a/missing", "/a/adangling"),
		m.Symlink("/a/lf", "/a/llf"),
		m.Symlink("/a/b/", "/a/lbslash"),
		m.Symlink("/a/b/../f", "/a/ldots"),
		m.Symlink("/a/b/up/f", "/a/lup"),
		m.Symlink("/la/b/g", "/a/lthrough"),
		m.Symlink("/a/loop1", "/a/lloop"),
		m.Symlink(deep+"/f", "/a/ldeep"),
		m.Symlink("/", "/a/lroot"),
		m.Symlink("/a/missing/x", "/a/lmissingdir"),
		m.Symlink("/a/f/x", "/a/lnotdir"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, dir := range []string{"", "/a", "/a/b", "/a/b/c", "/la", "/a/lb", "/a/f", "/a/lf", "/a/dangling", "/a/loop1", "/missing", "/a/b/up", deep[:len(deep)-2], deep} {
		for _, base := range []string{"", "a", "b", "c", "f", "g", "lb", "lf", "dangling", "loop1", "missing", "up", "d", ".", "..", strings.Repeat("n", NameMax+1),
			"la", "adangling", "llf", "lbslash", "ldots", "lup", "lthrough", "lloop", "ldeep", "lroot", "lmissingdir", "lnotdir"} {
			names = append(names, dir+"/"+base, dir+"/"+base+"/", dir+"//"+base, dir+"/"+base+"/x")
		}
	}
	names = append(names, "", "/", "//", "a/b", "relative")
	flagSets := []int{0, walkFollow, walkChain, walkFollow | walkChain, walkParent | walkChain, walkCreate | walkChain, walkCreate | walkFollow | walkChain}
	taken := 0
	for _, name := range names {
		for _, flags := range flagSets {
			got, gerr, ok := m.walkPlain(name, flags)
			if !ok {
				continue
			}
			taken++
			want, werr := m.walkResolve(name, flags)
			if gerr != werr || got.parent != want.parent || got.base != want.base || got.n != want.n || !slices.Equal(got.chain(), want.chain()) {
				t.Errorf("%q flags %#x: plain walk = %p %q %p %q %v, Resolve = %p %q %p %q %v", name, flags,
					got.parent, got.base, got.n, got.chain(), gerr, want.parent, want.base, want.n, want.chain(), werr)
			}
		}
	}
	if taken < len(names)*len(flagSets)/10 {
		t.Errorf("the plain walk took %d of %d names and flags, fewer than a tenth", taken, len(names)*len(flagSets))
	}
	for _, name := range []string{"/a/b/g", "/a/lb", "/a/missing", "/a/f/x", "/a/missing/x"} {
		if _, _, ok := m.walkPlain(name, walkChain); !ok {
			t.Errorf("the plain walk did not take %q", name)
		}
	}
	for _, name := range []string{"/a/lf", "/a/llf", "/a/adangling", "/a/lmissingdir", "/a/lnotdir"} {
		if _, _, ok := m.walkPlain(name, walkChain|walkFollow); !ok {
			t.Errorf("the plain walk did not follow %q", name)
		}
	}
	for _, name := range []string{"/a/lb/g", "/la/f", "/a/./f", "/a/../a", "/a/", deep + "/f", "/a/dangling", "/a/lbslash", "/a/ldots", "/a/lthrough", "/a/loop1", "/a/lloop", "/a/lroot"} {
		if _, _, ok := m.walkPlain(name, walkChain|walkFollow); ok {
			t.Errorf("the plain walk took %q", name)
		}
	}
}
