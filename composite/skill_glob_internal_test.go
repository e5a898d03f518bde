package composite

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestGlobSyncLikeNode checks the glob of skill references against what
// Node 22's fs.globSync returned for the same tree and patterns (recorded
// from node v22.23, the version upstream runs on): dot files, "**" never
// descending through links, a literal part going through them, bracket
// expressions, "." and ".." parts, backslashes as separators.
func TestGlobSyncLikeNode(t *testing.T) {
	t.Parallel()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.Build(t, fsys, "/w/g", vfstest.Tree{
		"out/o.md":                  vfstest.File(""),
		"root/.hidden/h.md":         vfstest.File(""),
		"root/dlink":                vfstest.Link("docs/sub"),
		"root/docs/.dot.md":         vfstest.File(""),
		"root/docs/[x].md":          vfstest.File(""),
		"root/docs/a.md":            vfstest.File(""),
		"root/docs/b.txt":           vfstest.File(""),
		"root/docs/broken.md":       vfstest.Link("nowhere"),
		"root/docs/sub/c.md":        vfstest.File(""),
		"root/docs/sub/deeper":      vfstest.Dir(),
		"root/docs/sub/deeper/d.md": vfstest.File(""),
		"root/docs/sub/self":        vfstest.Link("."),
		"root/linked/outl":          vfstest.Link("../out"),
	})
	tests := []struct {
		pattern string
		want    []string
	}{
		{"docs/*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md"}},
		{"docs/**/*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md", "docs/sub/c.md", "docs/sub/deeper/d.md"}},
		{"**/*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md", "docs/sub/c.md", "docs/sub/deeper/d.md"}},
		{"*", []string{"dlink", "docs", "linked"}},
		{"docs/**", []string{"docs", "docs/[x].md", "docs/a.md", "docs/b.txt", "docs/broken.md", "docs/sub", "docs/sub/c.md", "docs/sub/deeper", "docs/sub/deeper/d.md", "docs/sub/self"}},
		{"docs/sub/../*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md"}},
		{"docs/?.md", []string{"docs/a.md"}},
		{"docs/[ab].md", []string{"docs/a.md"}},
		{"docs/[!a]*", []string{"docs/[x].md", "docs/b.txt", "docs/broken.md", "docs/sub"}},
		{"docs/*/", []string{"docs/sub"}},
		{"./docs/*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md"}},
		{"docs//*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md"}},
		{"dlink/*.md", []string{"dlink/c.md"}},
		{"*/c.md", []string{}},
		{"**", []string{".", "dlink", "docs", "docs/[x].md", "docs/a.md", "docs/b.txt", "docs/broken.md", "docs/sub", "docs/sub/c.md", "docs/sub/deeper", "docs/sub/deeper/d.md", "docs/sub/self", "linked", "linked/outl"}},
		{"**/.*", []string{".hidden", "docs/.dot.md"}},
		{".*/*.md", []string{".hidden/h.md"}},
		{"docs/**/", []string{"docs", "docs/sub", "docs/sub/deeper"}},
		{"**/sub", []string{"docs/sub"}},
		{"docs/sub/self/*.md", []string{"docs/sub/self/c.md"}},
		{"docs\\*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md"}},
		{"docs/[x", []string{}},
		{"**/self/c.md", []string{"docs/sub/self/self/c.md"}},
		{"**/..", []string{".", "..", "docs", "docs/sub"}},
		{"docs/[[:lower:]].md", []string{"docs/a.md"}},
		{"../*/docs/a.md", []string{"../root/docs/a.md"}},
		{"/w/g/root/docs/?.md", []string{"/w/g/root/docs/a.md"}},
	}
	for _, tt := range tests {
		got := globSync(fsys, tt.pattern, "/w/g/root")
		slices.SortFunc(got, jsCompare)
		if tt.want == nil {
			tt.want = []string{}
		}
		if got == nil {
			got = []string{}
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("globSync(%q) (-node +ours):\n%s", tt.pattern, d)
		}
	}
}
