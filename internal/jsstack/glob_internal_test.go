package jsstack

import (
	"encoding/json"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// nodeGlobTree is the tree of TestGlobSyncLikeNode and of
// testdata/node-globsync.json, below "root" (the walk's directory).
var nodeGlobTree = vfstest.Tree{
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
}

// TestGlobSyncMatchesNodeTable checks globSync against
// testdata/node-globsync.json: what Node 22.23.5's fs.globSync(pattern,
// {cwd: "root"}) returned on nodeGlobTree for every pattern of one to
// three parts from "**", ".", "..", "", "docs", "*", ".*", "sub", "*.md"
// and "dlink" (absolute patterns, and those whose results leave the
// tree's parent, left out), and every "**/../p/q" pattern (the shape
// that makes several sets) with p and q from "docs", "sub", "*", "*.md",
// "**" and "dlink", after nothing, "docs" or "*" and before nothing,
// "*.md" or "**": 1,313 patterns.
func TestGlobSyncMatchesNodeTable(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/node-globsync.json")
	if err != nil {
		t.Fatal(err)
	}
	var table map[string][]string
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	if len(table) != 1313 {
		t.Fatalf("the table holds %d patterns, want the recorded 1,313", len(table))
	}
	cases := make([]globCase, 0, len(table))
	for p, want := range table {
		cases = append(cases, globCase{p, want})
	}
	checkGlobLikeNode(t, nodeGlobTree, cases)
}

// TestGlobSyncLikeNode checks the glob of skill references against what
// Node 22's fs.globSync returned for the same tree and patterns (recorded
// from node v22.23, the version upstream runs on): dot files, "**" never
// descending through links, a literal part going through them, bracket
// expressions, "." and ".." parts, backslashes as separators.
func TestGlobSyncLikeNode(t *testing.T) {
	t.Parallel()
	checkGlobLikeNode(t, nodeGlobTree, []globCase{
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
		{"dlink/c.md", []string{"dlink/c.md"}},
		{"dlink/", []string{"dlink"}},
		{"docs/a.md/", []string{}},
		{"dlink/c.md/", []string{}},
		{"linked/outl/o.md", []string{}},
		{"docs/../**", []string{".", "dlink", "docs", "docs/[x].md", "docs/a.md", "docs/b.txt", "docs/broken.md", "docs/sub", "docs/sub/c.md", "docs/sub/deeper", "docs/sub/deeper/d.md", "docs/sub/self", "linked", "linked/outl"}},
		{"docs/./**", []string{"docs", "docs/[x].md", "docs/a.md", "docs/b.txt", "docs/broken.md", "docs/sub", "docs/sub/c.md", "docs/sub/deeper", "docs/sub/deeper/d.md", "docs/sub/self"}},
		{"docs/**/**/*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md", "docs/sub/c.md", "docs/sub/deeper/d.md"}},
		{"**/**/.*", []string{".hidden", "docs/.dot.md"}},
		{"docs/**/**", []string{"docs", "docs/[x].md", "docs/a.md", "docs/b.txt", "docs/broken.md", "docs/sub", "docs/sub/c.md", "docs/sub/deeper", "docs/sub/deeper/d.md", "docs/sub/self"}},
		{"**/**/c.md", []string{"docs/sub/c.md"}},
		{"./docs/**/.*", []string{"docs/.dot.md"}},
		{"docs/**/./*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md", "docs/sub/c.md", "docs/sub/deeper/d.md"}},
		{"docs/**/../*.md", []string{"docs/[x].md", "docs/a.md", "docs/broken.md", "docs/sub/c.md"}},
		{"docs/./sub/*.md", []string{"docs/sub/c.md"}},
		{"docs/sub/./c.md", []string{"docs/sub/c.md"}},
		{"./docs/./a.md", []string{"docs/a.md"}},
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
	})
}

// A globCase is a pattern and the names, relative to the glob's root,
// that Node's fs.globSync returned for it.
type globCase struct {
	pattern string
	want    []string
}

// checkGlobLikeNode builds tree below /w/g and checks that globSync from
// /w/g/root matches each case's names, in Node's order.
func checkGlobLikeNode(t *testing.T, tree vfstest.Tree, cases []globCase) {
	t.Helper()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.Build(t, fsys, "/w/g", tree)
	for _, tt := range cases {
		got := GlobSync(memGlobFS{fsys}, tt.pattern, "/w/g/root")
		slices.SortFunc(got, Compare)
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

// TestGlobSyncShapesLikeNode checks more pattern shapes against Node 22's
// fs.globSync(pattern, {cwd}) on the same tree (expected values recorded
// from node v22.23.5): every POSIX class of a bracket expression (which
// minimatch writes as Unicode property classes, so that "é" is alpha,
// "٣" a digit, a no-break space blank, "~" not punct, and "print" is
// \p{C}, and the u flag they bring makes "😀" one character, where it is
// two UTF-16 units otherwise), negated and mixed with other members
// ("graph" with others is a group in minimatch's expression, which drops
// the guard against a leading dot), ranges
// (reversed, with a trailing "-", negated), the rewrites of minimatch's
// first phase ("**" runs, "**/.." followed by names, "." parts, ".."
// after a name, a pattern that cancels out) and its second phase merging
// the patterns the first one split, and walks through links to files,
// to directories, broken ones and links to their own directory, one of
// them named as that directory ("sub/sub", where "**/sub/**" reaches a
// position with every index through a link).
func TestGlobSyncShapesLikeNode(t *testing.T) {
	t.Parallel()
	checkGlobLikeNode(t, vfstest.Tree{
		"out/o.md":                  vfstest.File(""),
		"root/.hid/e.md":            vfstest.File(""),
		"root/broken":               vfstest.Link("nowhere"),
		"root/dlink":                vfstest.Link("docs"),
		"root/docs/ .md":            vfstest.File(""),
		"root/docs/-.md":            vfstest.File(""),
		"root/docs/3.md":            vfstest.File(""),
		"root/docs/B.md":            vfstest.File(""),
		"root/docs/_.md":            vfstest.File(""),
		"root/docs/~.md":            vfstest.File(""),
		"root/docs/é.md":            vfstest.File(""),
		"root/docs/Ⅻ.md":            vfstest.File(""),
		"root/docs/٣.md":            vfstest.File(""),
		"root/docs/\u00a0.md":       vfstest.File(""),
		"root/docs/😀.md":            vfstest.File(""),
		"root/docs/a.md":            vfstest.File(""),
		"root/docs/sub/c.md":        vfstest.File(""),
		"root/docs/sub/deeper/d.md": vfstest.File(""),
		"root/docs/sub/self":        vfstest.Link("."),
		"root/docs/sub/sub":         vfstest.Link("."),
		"root/flink":                vfstest.Link("docs/a.md"),
	}, []globCase{
		{"docs/[[:alnum:]].md", []string{"docs/3.md", "docs/B.md", "docs/a.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md"}},
		{"docs/[[:alpha:]].md", []string{"docs/B.md", "docs/a.md", "docs/é.md", "docs/Ⅻ.md"}},
		{"docs/[[:ascii:]].md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/~.md"}},
		{"docs/[[:blank:]].md", []string{"docs/ .md", "docs/\u00a0.md"}},
		{"docs/[[:cntrl:]].md", []string{}},
		{"docs/[[:digit:]].md", []string{"docs/3.md", "docs/٣.md"}},
		{"docs/[[:graph:]].md", []string{"docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/~.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"docs/[[:lower:]].md", []string{"docs/a.md", "docs/é.md"}},
		{"docs/[[:print:]].md", []string{}},
		{"docs/[[:punct:]].md", []string{"docs/-.md", "docs/_.md"}},
		{"docs/[[:space:]].md", []string{"docs/ .md", "docs/\u00a0.md"}},
		{"docs/[[:upper:]].md", []string{"docs/B.md"}},
		{"docs/[[:word:]].md", []string{"docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md"}},
		{"docs/[[:xdigit:]].md", []string{"docs/3.md", "docs/B.md", "docs/a.md"}},
		{"docs/[[:bogus:]].md", []string{}},
		{"docs/[[:alpha:].md", []string{}},
		{"docs/[[:alpha].md", []string{"docs/a.md"}},
		{"docs/[a-c].md", []string{"docs/a.md"}},
		{"docs/[c-a].md", []string{}},
		{"docs/[0-9].md", []string{"docs/3.md"}},
		{"docs/[a-].md", []string{"docs/-.md", "docs/a.md"}},
		{"docs/[!a-z].md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md"}},
		{"docs/[^_-a].md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md"}},
		{"docs/**/**/*.md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/sub/c.md", "docs/sub/deeper/d.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"**/**/c.md", []string{"docs/sub/c.md"}},
		{"docs/**/../sub/*.md", []string{"docs/sub/c.md", "docs/sub/sub/c.md", "docs/sub/sub/sub/c.md"}},
		{"**/../docs/a.md", []string{"docs/a.md"}},
		{"docs/./sub/*.md", []string{"docs/sub/c.md"}},
		{"./", []string{}},
		{"./.", []string{}},
		{".", []string{}},
		{"..", []string{}},
		{"docs/.", []string{"docs"}},
		{"docs/./.", []string{"docs"}},
		{"docs/../**/c.md", []string{"docs/sub/c.md", "docs/sub/self/c.md", "docs/sub/sub/c.md"}},
		{"docs/../*.md", []string{}},
		{"docs/sub/../../docs/a.md", []string{"docs/a.md"}},
		{"*/**/../sub/*.md", []string{"docs/sub/c.md", "docs/sub/sub/c.md", "docs/sub/sub/sub/c.md"}},
		{"*/../*/a.md", []string{"docs/a.md"}},
		{"docs/**/../*/c.md", []string{"docs/sub/c.md"}},
		{"docs/*/**/../c.md", []string{"docs/sub/c.md"}},
		{"docs/**/../**/c.md", []string{"docs/sub/c.md"}},
		{"**/*/../*.md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/sub/c.md", "docs/sub/deeper/d.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"**/../*/*/c.md", []string{"docs/sub/c.md"}},
		{"*/**/../*/c.md", []string{"docs/sub/c.md"}},
		{"docs/a.md/x/y", []string{}},
		{"docs/a.md/x", []string{}},
		{"**/sub/*.md", []string{"docs/sub/c.md", "docs/sub/sub/c.md", "docs/sub/sub/sub/c.md"}},
		{"**/sub/**/*.md", []string{"docs/sub/c.md", "docs/sub/deeper/d.md", "docs/sub/sub/c.md"}},
		{"**/../*.md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/sub/c.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"**/../..", []string{".", "..", "../..", "docs"}},
		{"docs/**/..", []string{".", "docs", "docs/sub"}},
		{"docs/**/../..", []string{".", "..", "docs"}},
		{"**/..", []string{".", "..", "docs", "docs/sub"}},
		{"dlink/**", []string{"dlink", "dlink/ .md", "dlink/-.md", "dlink/3.md", "dlink/B.md", "dlink/_.md", "dlink/a.md", "dlink/sub", "dlink/sub/c.md", "dlink/sub/deeper", "dlink/sub/deeper/d.md", "dlink/sub/self", "dlink/sub/sub", "dlink/~.md", "dlink/\u00a0.md", "dlink/é.md", "dlink/٣.md", "dlink/Ⅻ.md", "dlink/😀.md"}},
		{"**/dlink/*", []string{}},
		{"*/*/*.md", []string{"docs/sub/c.md"}},
		{"*/**/*.md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/sub/c.md", "docs/sub/deeper/d.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"**/*/**/*.md", []string{"dlink/sub/c.md", "dlink/sub/deeper/d.md", "docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/sub/c.md", "docs/sub/deeper/d.md", "docs/sub/self/deeper/d.md", "docs/sub/sub/deeper/d.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"flink/*", []string{}},
		{"broken/*", []string{}},
		{"**/broken/*", []string{}},
		{"**/flink/*", []string{}},
		{"*/self/*", []string{}},
		{"docs/sub/self/**", []string{"docs/sub/self", "docs/sub/self/c.md", "docs/sub/self/deeper", "docs/sub/self/deeper/d.md", "docs/sub/self/self", "docs/sub/self/sub"}},
		{"**/self/**/c.md", []string{"docs/sub/self/self/c.md"}},
		{"docs/*/self/c.md", []string{"docs/sub/self/c.md"}},
		{"**/self/*", []string{"docs/sub/self/self/c.md", "docs/sub/self/self/deeper", "docs/sub/self/self/self", "docs/sub/self/self/sub"}},
		{"**/self/**", []string{"docs/sub/self/self", "docs/sub/self/self/c.md", "docs/sub/self/self/deeper", "docs/sub/self/self/deeper/d.md", "docs/sub/self/self/self", "docs/sub/self/self/sub"}},
		{"*/sub/self/*/c.md", []string{}},
		{"docs/**/self/*/c.md", []string{}},
		{"dlink/sub/self/self/c.md", []string{"dlink/sub/self/self/c.md"}},
		{"**/*", []string{"broken", "dlink", "dlink/ .md", "dlink/-.md", "dlink/3.md", "dlink/B.md", "dlink/_.md", "dlink/a.md", "dlink/sub", "dlink/~.md", "dlink/\u00a0.md", "dlink/é.md", "dlink/٣.md", "dlink/Ⅻ.md", "dlink/😀.md", "docs", "docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/sub", "docs/sub/c.md", "docs/sub/deeper", "docs/sub/deeper/d.md", "docs/sub/self", "docs/sub/self/c.md", "docs/sub/self/deeper", "docs/sub/self/self", "docs/sub/self/sub", "docs/sub/sub", "docs/sub/sub/c.md", "docs/sub/sub/deeper", "docs/sub/sub/self", "docs/sub/sub/sub", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md", "flink"}},
		{"**/.hid/*", []string{".hid/e.md"}},
		{".hid/**", []string{".hid", ".hid/e.md"}},
		{"**/.*/*.md", []string{".hid/e.md"}},
		{"docs/**/.", []string{}},
		{"docs/**/./c.md", []string{"docs/sub/c.md"}},
		{"docs/..", []string{}},
		{"docs/sub/../..", []string{}},
		{"docs/sub/deeper/**/../deeper/d.md", []string{"docs/sub/deeper/d.md"}},
		{"docs/sub/deeper/**/../deeper/*", []string{"docs/sub/deeper/d.md"}},
		{"docs/sub/deeper/**/../*/d.md", []string{"docs/sub/deeper/d.md"}},
		{"docs/sub/deeper/**/../**/d.md", []string{"docs/sub/deeper/d.md"}},
		{"docs/sub/*/**/../deeper/d.md", []string{"docs/sub/deeper/d.md"}},
		{"docs/sub/**/../*/*/d.md", []string{"docs/sub/deeper/d.md"}},
		{"docs/*/**/../sub/deeper/*", []string{"docs/sub/deeper/d.md", "docs/sub/sub/sub/deeper/d.md"}},
		{"docs/**/./**/../sub/c.md", []string{"docs/sub/c.md", "docs/sub/sub/c.md", "docs/sub/sub/sub/c.md"}},
		{"docs/sub/**/../**/sub", []string{"docs/sub", "docs/sub/sub", "docs/sub/sub/sub"}},
		{"docs/*/**/../sub/sub", []string{"docs/sub/sub", "docs/sub/sub/sub/sub"}},
		{"docs/*/**/../self/self", []string{"docs/sub/self/self/self"}},
		{"docs/*/**/../self/self/*", []string{"docs/sub/self/self/self/c.md", "docs/sub/self/self/self/deeper", "docs/sub/self/self/self/self", "docs/sub/self/self/self/sub"}},
		{"docs/[![:graph:]].md", []string{"docs/ .md", "docs/\u00a0.md"}},
		{"docs/[[:graph:]a].md", []string{"docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/~.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"docs/[![:alpha:]a].md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/_.md", "docs/~.md", "docs/\u00a0.md", "docs/٣.md", "docs/😀.md"}},
		{"docs/[![:punct:][:space:]].md", []string{"docs/3.md", "docs/B.md", "docs/a.md", "docs/~.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"docs/**/sub/**", []string{"docs/sub", "docs/sub/c.md", "docs/sub/deeper", "docs/sub/deeper/d.md", "docs/sub/self", "docs/sub/sub", "docs/sub/sub/sub"}},
		{"**/sub/**/c.md", []string{"docs/sub/c.md", "docs/sub/sub/c.md"}},
		{"docs/**/sub/sub/**", []string{"docs/sub/sub", "docs/sub/sub/c.md", "docs/sub/sub/deeper", "docs/sub/sub/deeper/d.md", "docs/sub/sub/self", "docs/sub/sub/sub", "docs/sub/sub/sub/sub"}},
		{"docs/?.md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md"}},
		{"docs/??.md", []string{"docs/😀.md"}},
		{"docs/[![:alpha:]].md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/_.md", "docs/~.md", "docs/\u00a0.md", "docs/٣.md", "docs/😀.md"}},
		{"docs/[![:ascii:]]?.md", []string{"docs/😀.md"}},
		{"docs/[![:alpha:]]?.md", []string{}},
		{"[[:graph:]a]*", []string{".hid", "broken", "dlink", "docs", "flink"}},
		{"[![:graph:]a]*", []string{".hid", "broken", "dlink", "docs", "flink"}},
		{"?[[:graph:]a]*", []string{"broken", "dlink", "docs", "flink"}},
		{"docs/[![:graph:]a].md", []string{"docs/ .md", "docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/~.md", "docs/\u00a0.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"docs/[[:graph:][:print:]].md", []string{"docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/~.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
		{"docs/[[:graph:][:graph:]].md", []string{"docs/-.md", "docs/3.md", "docs/B.md", "docs/_.md", "docs/a.md", "docs/~.md", "docs/é.md", "docs/٣.md", "docs/Ⅻ.md", "docs/😀.md"}},
	})
}

// TestCompiledGlobHasNoGlobstarPairs checks, over every pattern of up to
// five parts from globstars, dots, empty parts and names, what the walk
// relies on: minimatch's preprocessing leaves no globstar right after a
// globstar, so the part after one never is one, and no "." but first or
// last.
func TestCompiledGlobHasNoGlobstarPairs(t *testing.T) {
	t.Parallel()
	alphabet := []string{"**", ".", "..", "", "a", "*", ".b"}
	var walk func(parts []string)
	walk = func(parts []string) {
		if len(parts) > 0 {
			pattern := strings.Join(parts, "/")
			for _, p := range compileGlob(pattern) {
				for i := 1; i < len(p.parts); i++ {
					if p.parts[i].globstar && p.parts[i-1].globstar {
						t.Fatalf("compileGlob(%q) has a globstar pair: %q", pattern, p.strs)
					}
					if i < len(p.parts)-1 && p.parts[i].isLiteral() && p.parts[i].literal == "." {
						t.Fatalf("compileGlob(%q) has a \".\" inside: %q", pattern, p.strs)
					}
				}
			}
		}
		if len(parts) == 5 {
			return
		}
		for _, a := range alphabet {
			walk(append(parts, a))
		}
	}
	walk(nil)
}

// TestGlobSyncClassBoundsLikeNode checks bracket expressions at their
// bounds against Node 22.23.5's fs.globSync on a directory of one-character
// names either side of each class's edges (tab and carriage return, DEL
// and U+0080, the digits, "a"-"f" and "A"-"F", and the characters a
// bracket expression treats specially), with ranges, negations and
// unclosed expressions.
func TestGlobSyncClassBoundsLikeNode(t *testing.T) {
	t.Parallel()
	tree := vfstest.Tree{}
	for _, name := range []string{"\t", "\b", "\r", "\u000e", "\u007f", "\u0080", "0", "9", ":", "a", "f", "g", "`", "A", "F", "G", "@", "-", "]", "!", "^", "["} {
		tree["root/docs/"+name+".md"] = vfstest.File("")
	}
	checkGlobLikeNode(t, tree, []globCase{
		{"docs/[[:ascii:]].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/!.md", "docs/-.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/].md", "docs/^.md", "docs/`.md", "docs/a.md", "docs/f.md", "docs/g.md", "docs/\u007f.md"}},
		{"docs/[[:space:]].md", []string{"docs/\t.md", "docs/\r.md"}},
		{"docs/[[:xdigit:]].md", []string{"docs/0.md", "docs/9.md", "docs/A.md", "docs/F.md", "docs/a.md", "docs/f.md"}},
		{"docs/[[:cntrl:]].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[[:digit:]].md", []string{"docs/0.md", "docs/9.md"}},
		{"docs/[[:punct:]].md", []string{"docs/!.md", "docs/-.md", "docs/:.md", "docs/@.md", "docs/[.md", "docs/].md"}},
		{"docs/[[:graph:]].md", []string{"docs/!.md", "docs/-.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/].md", "docs/^.md", "docs/`.md", "docs/a.md", "docs/f.md", "docs/g.md"}},
		{"docs/[[:print:]].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[a-f].md", []string{"docs/a.md", "docs/f.md"}},
		{"docs/[0-9].md", []string{"docs/0.md", "docs/9.md"}},
		{"docs/[!a-f].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/!.md", "docs/-.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/].md", "docs/^.md", "docs/`.md", "docs/g.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[^a].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/!.md", "docs/-.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/].md", "docs/^.md", "docs/`.md", "docs/f.md", "docs/g.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[f-a].md", []string{}},
		{"docs/[a-].md", []string{"docs/-.md", "docs/a.md"}},
		{"docs/[]a].md", []string{"docs/].md", "docs/a.md"}},
		{"docs/[a-a].md", []string{"docs/a.md"}},
		{"docs/[!]].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/!.md", "docs/-.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/^.md", "docs/`.md", "docs/a.md", "docs/f.md", "docs/g.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[[:digit:]-a].md", []string{"docs/-.md", "docs/0.md", "docs/9.md", "docs/a.md"}},
		{"docs/[a-[:digit:]].md", []string{}},
		{"docs/[!", []string{}},
		{"docs/[[", []string{}},
		{"docs/[a-", []string{}},
		{"docs/[[:digit:]", []string{}},
		{"docs/[[:digit:]].md", []string{"docs/0.md", "docs/9.md"}},
		{"docs/[!!].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/-.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/].md", "docs/^.md", "docs/`.md", "docs/a.md", "docs/f.md", "docs/g.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[\\]].md", []string{}},
		{"docs/[a-f", []string{}},
		{"docs/[[:x", []string{}},
		{"docs/[[:xdigit:]", []string{}},
		{"docs/[[:alpha:][:digit:]].md", []string{"docs/0.md", "docs/9.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/a.md", "docs/f.md", "docs/g.md"}},
		{"docs/[!-].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/!.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/].md", "docs/^.md", "docs/`.md", "docs/a.md", "docs/f.md", "docs/g.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[--].md", []string{"docs/-.md"}},
		{"docs/[---].md", []string{"docs/-.md"}},
		{"docs/[!^].md", []string{"docs/\b.md", "docs/\t.md", "docs/\r.md", "docs/\u000e.md", "docs/!.md", "docs/-.md", "docs/0.md", "docs/9.md", "docs/:.md", "docs/@.md", "docs/A.md", "docs/F.md", "docs/G.md", "docs/[.md", "docs/].md", "docs/`.md", "docs/a.md", "docs/f.md", "docs/g.md", "docs/\u007f.md", "docs/\u0080.md"}},
		{"docs/[9-:].md", []string{"docs/9.md", "docs/:.md"}},
		{"docs/[F-G].md", []string{"docs/F.md", "docs/G.md"}},
		{"docs/[`-a].md", []string{"docs/`.md", "docs/a.md"}},
		{"docs/[\\-a].md", []string{}},
	})
}

// memGlobFS is a vfs.FS as the glob walks it.
type memGlobFS struct{ fsys vfs.FS }

func (g memGlobFS) Lstat(name string) (fs.FileInfo, error)     { return vfs.Lstat(g.fsys, name) }
func (g memGlobFS) ReadDir(name string) ([]fs.DirEntry, error) { return vfs.ReadDir(g.fsys, name) }
