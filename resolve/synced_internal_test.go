package resolve

import (
	"path"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// syncedCheckoutJoined is SyncedCheckout as the joined names of the cache
// directory define it, the reference of TestSyncedCheckoutAsJoined.
func syncedCheckoutJoined(home, name string) string {
	if home == "" || !path.IsAbs(name) {
		return ""
	}
	cache := vfs.Join(home, ".outfitter", "cache")
	rel, ok := strings.CutPrefix(path.Clean(name), cache+"/")
	if !ok {
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
	return vfs.Join(cache, kind, key)
}

// TestSyncedCheckoutAsJoined holds SyncedCheckout, which cuts the
// checkout out of the clean name, to the joined names of the cache
// directory, on homes and names of every shape, and checks that a clean
// name inside a checkout costs no allocation.
func TestSyncedCheckoutAsJoined(t *testing.T) {
	homes := []string{"", "/", "/h", "/h/", "/h/./u", "/h//u", "h", "/h/u/..", "/h/.outfitter"}
	tails := []string{"", "/", "/x", "/.outfitter", "/.outfitter/cache", "/.outfitter/cache/", "/.outfitter/cache/repos",
		"/.outfitter/cache/repos/", "/.outfitter/cache/repos/k", "/.outfitter/cache/repos/k/", "/.outfitter/cache/repos/k/a/b",
		"/.outfitter/cache/profiles/k2/p.yml", "/.outfitter/cache/other/k", "/.outfitter/cache/repos/./k", "/.outfitter/cache/repos/../repos/k/x",
		"/.outfitter/cache/repos//k", "/.outfitter/cache/reposx/k", "/.outfitter/cachex/repos/k", "/../h/.outfitter/cache/repos/k", "/.outfitter/state/repos/k"}
	for _, home := range homes {
		for _, base := range []string{"/h", "/h/u", "", "/other"} {
			for _, tail := range tails {
				name := base + tail
				if got, want := SyncedCheckout(home, name), syncedCheckoutJoined(home, name); got != want {
					t.Errorf("SyncedCheckout(%q, %q) = %q, want %q", home, name, got, want)
				}
			}
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		if SyncedCheckout("/h", "/h/.outfitter/cache/repos/k/skills/s/SKILL.md") != "/h/.outfitter/cache/repos/k" {
			t.Fatal("checkout not found")
		}
	})
	if allocs != 0 {
		t.Errorf("SyncedCheckout of a clean name: %v allocations, want 0", allocs)
	}
}
