package writeback_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestRecordEditsTheTargetOfALinkedProfile: a profile file that is a link to a dotfiles
// checkout is edited in place of its target; the link stays a link and
// nothing but the state_persistence mapping changes: one line is added.
func TestRecordEditsTheTargetOfALinkedProfile(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("word ", 40))
	doc := "# my profile\nid: eng\n\n" +
		"description: " + long + "\n" +
		"base: &b\n  model: m # the model\n" +
		"other: *b\n" +
		"prompt: |\n  line one\n  line two\n" +
		"state_persistence:\n  plugins/: symlink\n"
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.Build(t, fsys, "/", vfstest.Tree{
		"dot/eng.yml":                        vfstest.File(doc),
		"home/u/.outfitter/profiles/eng.yml": vfstest.Link("/dot/eng.yml"),
	})
	must(t, writeback.Record(fsys, "/home/u/.outfitter/profiles/eng.yml", "mcp.json"))
	fi, err := fsys.Lstat("/home/u/.outfitter/profiles/eng.yml")
	must(t, err)
	if fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("profile link replaced by a regular file")
	}
	got, err := fsys.ReadFile("/dot/eng.yml")
	must(t, err)
	want := doc + "  mcp.json: symlink\n"
	if string(got) != want {
		t.Errorf("edited profile:\n%s\nwant:\n%s", got, want)
	}
}
