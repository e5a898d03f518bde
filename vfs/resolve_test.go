package vfs_test

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
)

// mapTree is a toy backend for Resolve: canonical names to "dir", "file"
// or "link:<target>". Its entries are their canonical names.
type mapTree map[string]string

func (t mapTree) Child(dir string, _ string, _ int, name string) (string, vfs.Kind, error) {
	p := path.Join(dir, name)
	switch v := t[p]; {
	case v == "dir":
		return p, vfs.KindDir, nil
	case v == "file":
		return p, vfs.KindFile, nil
	case strings.HasPrefix(v, "link:"):
		return p, vfs.KindLink, nil
	}
	return p, vfs.KindNone, nil
}

func (t mapTree) ReadLink(p string) (string, error) { return strings.TrimPrefix(t[p], "link:"), nil }

// Resolve walks any backend that can look a child up and read a link:
// here /l leads to /a/b, ".." steps back to /a (not lexically to /), and
// /a/up leads to the root. The stack holds the directories reached, and
// passed what the walk went through.
func ExampleResolve() {
	tree := mapTree{"/a": "dir", "/a/b": "dir", "/a/b/f": "file", "/l": "link:a/b", "/a/up": "link:.."}
	stack, r, passed, err := vfs.Resolve[string](tree, "/", "/l/../up/a/b/f", vfs.ResolveFollow, nil, []string{})
	fmt.Println(stack, r.Final, r.Kind == vfs.KindFile, passed, err)
	// Output: [/ /a /a/b /a/b/f] /a/b/f true [/l /a /a/b /a/up /a /a/b] <nil>
}

func TestResolveModes(t *testing.T) {
	t.Parallel()
	tree := mapTree{"/d": "dir", "/f": "file", "/ld": "link:d", "/lf": "link:/f", "/dang": "link:nowhere", "/loop": "link:loop"}
	tests := []struct {
		name  string
		mode  vfs.ResolveMode
		final string
		kind  vfs.Kind
		err   error
		why   string
	}{
		{name: "/ld", final: "/ld", kind: vfs.KindLink, why: "a final link is the final entry without ResolveFollow"},
		{name: "/ld", mode: vfs.ResolveFollow, final: "/d", kind: vfs.KindDir},
		{name: "/ld/", final: "/d", kind: vfs.KindDir, why: "a trailing slash follows a final link"},
		{name: "/ld/", mode: vfs.ResolveParent, final: "/ld", kind: vfs.KindLink, why: "mkdir, unlink, rename never follow the final name"},
		{name: "/f/", err: syscall.ENOTDIR, why: "a trailing slash wants a directory"},
		{name: "/f/", mode: vfs.ResolveParent, final: "/f", kind: vfs.KindFile},
		{name: "/new/", mode: vfs.ResolveCreate, err: syscall.EISDIR, why: "O_CREAT under a slash fails before the lookup"},
		{name: "/dang", mode: vfs.ResolveFollow, final: "/nowhere", kind: vfs.KindNone, why: "a missing final entry is no error"},
		{name: "/nope/x", err: syscall.ENOENT},
		{name: "/f/x", err: syscall.ENOTDIR},
		{name: "/loop", mode: vfs.ResolveFollow, err: syscall.ELOOP},
		{name: "/" + strings.Repeat("n", vfs.NameMax+1), err: syscall.ENAMETOOLONG},
		{name: "/d/../..", final: "/", kind: vfs.KindDir, why: ".. never climbs above the root"},
	}
	for _, tt := range tests {
		_, r, _, err := vfs.Resolve[string](tree, "/", tt.name, tt.mode, nil, nil)
		if !errors.Is(err, tt.err) || err == nil && tt.err != nil {
			t.Errorf("Resolve(%q, %d) error = %v, want %v (%s)", tt.name, tt.mode, err, tt.err, tt.why)
			continue
		}
		if err != nil {
			continue
		}
		if d := cmp.Diff(fmt.Sprint(tt.final, tt.kind), fmt.Sprint(r.Final, r.Kind)); d != "" {
			t.Errorf("Resolve(%q, %d) final (-want +got): %s (%s)", tt.name, tt.mode, d, tt.why)
		}
	}
}

// atTree is mapTree that checks Lookup's contract at every call: the
// name is src[at:at+len(name)].
type atTree struct {
	mapTree
	t *testing.T
}

func (a atTree) Child(dir, src string, at int, name string) (string, vfs.Kind, error) {
	if at < 0 || at+len(name) > len(src) || src[at:at+len(name)] != name {
		a.t.Errorf("Child(%q, src %q, at %d, %q): the name is not src[at:at+len(name)]", dir, src, at, name)
	}
	return a.mapTree.Child(dir, src, at, name)
}

// TestResolveGivesChildItsPlaceInSrc: Resolve tells Lookup.Child where the
// name stands in the string it resolves, through "." and "..", repeated
// slashes and links, whose targets are resolved with the rest of the name.
func TestResolveGivesChildItsPlaceInSrc(t *testing.T) {
	t.Parallel()
	tree := atTree{mapTree{"/a": "dir", "/a/b": "dir", "/a/b/f": "file", "/l": "link:a/b", "/a/up": "link:..", "/abs": "link:/a//b/"}, t}
	for _, name := range []string{"/a/b/f", "//a/./b//f", "/l/../up/a/b/f", "/abs/f", "/a/b/../b/f/", "/a/missing"} {
		if _, _, _, err := vfs.Resolve[string](tree, "/", name, vfs.ResolveFollow, nil, nil); err != nil && !errors.Is(err, syscall.ENOTDIR) {
			t.Errorf("Resolve(%q): %v", name, err)
		}
	}
}
