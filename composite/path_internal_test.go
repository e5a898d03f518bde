package composite

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
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

// TestNativeSourcesMatchPathJoin checks nativeSources against path.Join
// for declared and undeclared keys, plain and unusual homes and keys.
func TestNativeSourcesMatchPathJoin(t *testing.T) {
	t.Parallel()
	decls := []Declaration{
		decl("auth.json", StrategySymlink), decl("plugins/", StrategySymlink), decl("a/../b", StrategySymlink),
		decl("", StrategySymlink), decl("x//y/", StrategySymlink), unknownDeclaration(), decl("bin/", StrategySymlink),
	}
	keys := []string{"auth.json", "plugins/", "a/../b", "", "x//y/", UnknownPath, "bin/", "undeclared", "plugins", "../up"}
	for _, home := range []string{"/h", "/home/u", "", "/", "rel", "/h/", "/h/../g", "//h"} {
		for _, rel := range []string{".pi/agent", ".claude", "", "a/./b"} {
			native := nativeSources(home, rel, decls)
			for _, key := range keys {
				if got, want := native(key), path.Join(home, rel, strings.TrimSuffix(key, "/")); got != want {
					t.Errorf("nativeSources(%q, %q)(%q) = %q, want %q", home, rel, key, got, want)
				}
			}
		}
	}
	many := make([]Declaration, maxNativeSources+1)
	for i := range many {
		many[i] = decl(fmt.Sprintf("k%d", i), StrategySymlink)
	}
	if got := nativeSources("/h", "r", many)("k32"); got != "/h/r/k32" {
		t.Errorf("past maxNativeSources: %q, want /h/r/k32", got)
	}
}

// TestResolveAllAgainstMatchesResolveAgainst checks resolveAllAgainst
// against resolveAgainst, name by name, for plain and unusual directories
// and names, some of them not asked for.
func TestResolveAllAgainstMatchesResolveAgainst(t *testing.T) {
	t.Parallel()
	names := []string{"a", "outfitter/profile.json", "", ".", "..", "../x", "/abs", "/abs/../y", "a//b", "a/", "settings.json", "x/./y"}
	for _, dir := range []string{"/", "/tmp/outfitter-r", "/tmp/r/", "", "rel", "/a/../b", "//x"} {
		for skip := range 3 {
			asked := func(i int) bool { return skip == 0 || i%(skip+1) != 0 }
			got := resolveAllAgainst(dir, len(names), func(i int) (string, bool) { return names[i], asked(i) })
			for i, p := range names {
				want := ""
				if asked(i) {
					want = resolveAgainst(dir, p)
				}
				if got[i] != want {
					t.Errorf("resolveAllAgainst(%q)[%d] (%q) = %q, want %q", dir, i, p, got[i], want)
				}
			}
		}
	}
}

// TestUnderMatchesHasPrefix checks under against strings.HasPrefix(p,
// dir+"/").
func TestUnderMatchesHasPrefix(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"", "/", "/a", "/a/b", "a"} {
		for _, p := range []string{"", "/", "//", "/a", "/a/", "/a/b", "/ab", "/a/b/c", "a/b", "a"} {
			if got, want := under(p, dir), strings.HasPrefix(p, dir+"/"); got != want {
				t.Errorf("under(%q, %q) = %v, want %v", p, dir, got, want)
			}
		}
	}
}

// TestSkillIDAndExtensionIdentityEdges checks two bounds of the catalog's
// names: a skill id may be 64 characters long, not 65; and an npm
// source's fragment is dropped wherever it starts, also right after the
// prefix.
func TestSkillIDAndExtensionIdentityEdges(t *testing.T) {
	for n, want := range map[int]bool{resolve.MaxSkillIDLength: true, resolve.MaxSkillIDLength + 1: false} {
		if got := validSkillID(strings.Repeat("a", n)); got != want {
			t.Errorf("validSkillID of %d letters = %v, want %v", n, got, want)
		}
	}
	if got, want := extensionIdentity("npm:#next", "/w"), extensionIdentity("npm:", "/w"); got != want {
		t.Errorf("extensionIdentity(npm:#next) = %q, want %q, that of npm: without the fragment", got, want)
	}
}

// TestGitAndNpmIdentities checks the normalized identities of sources
// that only some forms reach: a URL's host is lowercased and its .git
// and trailing slashes dropped, a source that is no URL with a scheme and
// a host is kept as written, and a fragment or version is cut wherever
// it starts.
func TestGitAndNpmIdentities(t *testing.T) {
	for source, want := range map[string]string{
		"git:https://Example.COM/a/b.git/": "git:https://example.com/a/b.git",
		"https://Example.COM/a/b#v1":       "git:https://example.com/a/b.git",
		"git:relative/Path":                "git:relative/Path.git",
		"git:https:///Path":                "git:https:///Path.git",
		"git:https://Example.COM/a b":      "git:https://Example.COM/a b.git",
		"git:#ref":                         "git:.git",
		"npm:@@1":                          "npm:@",
		"npm:@Scope/Pkg@2":                 "npm:@scope/pkg",
	} {
		if got := extensionIdentity(source, "/w"); got != want {
			t.Errorf("extensionIdentity(%q) = %q, want %q", source, got, want)
		}
	}
}
