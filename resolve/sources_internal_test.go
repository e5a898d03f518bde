package resolve

import (
	"path"
	"testing"
)

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
