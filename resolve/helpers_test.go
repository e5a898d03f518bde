package resolve_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// Directories of the in-memory trees built by memTree.
const (
	home    = "/w/home"
	project = "/w/project"
)

// agents returns the agents Outfitter runs, as the adapters' registry
// gives them to the resolver: pi (the default) and claude.
func agents() *resolve.Agents { return composite.DefaultRegistry().Agents() }

// memTree builds tree (paths relative to /w) in a new MemFS.
func memTree(t testing.TB, tree vfstest.Tree) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.Build(t, fsys, "/w", tree)
	return fsys
}

// file is shorthand for vfstest.File.
func file(text string) vfstest.Node { return vfstest.File(text) }

// objectComparer compares Objects by their JSON text (keys in order).
var objectComparer = cmp.Comparer(func(a, b *resolve.Object) bool {
	return string(resolve.Stringify(a, "")) == string(resolve.Stringify(b, ""))
})

// objOf builds an Object from alternating keys and values.
func objOf(kv ...any) *resolve.Object {
	o := resolve.NewObject()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

func ptr[T any](v T) *T { return &v }

// issueList renders issues as "<path> <message>" lines for comparison.
func issueList(issues []*resolve.Issue) []string {
	out := make([]string, len(issues))
	for i, is := range issues {
		out[i] = is.Error()
	}
	return out
}
