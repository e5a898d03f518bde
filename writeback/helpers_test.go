package writeback_test

import (
	"path"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// Paths of the machine the tests build.
const (
	root    = "/tmp/outfitter-default-pi-a1B2c3"
	home    = "/home/u"
	piAgent = home + "/.pi/agent"
)

// piKeys are pi's declared keys in declaration order, without unknown.
var piKeys = []string{"auth.json", "settings.json", "keybindings.json", "mcp.json", "models.json", "trust.json",
	"plugins/", "cache/", "sessions/", "npm/", "git/", "tmp/", "utilities/", "bin/"}

// piPaths returns pi's state paths as planned for a profile with the given
// overrides: symlink by default, keybindings.json always discard, sources
// under ~/.pi/agent for symlink and prompt, unknown warn unless overridden.
func piPaths(overrides map[string]composite.Strategy) []composite.StatePath {
	var out []composite.StatePath
	for _, k := range append(piKeys, composite.UnknownPath) {
		s := composite.StrategySymlink
		if k == composite.UnknownPath {
			s = composite.StrategyWarn
		}
		if o, ok := overrides[k]; ok {
			s = o
		}
		if k == "keybindings.json" {
			s = composite.StrategyDiscard
		}
		sp := composite.StatePath{RelativePath: k, Strategy: s, Directory: strings.HasSuffix(k, "/")}
		if (s == composite.StrategySymlink || s == composite.StrategyPrompt) && k != composite.UnknownPath {
			sp.SourcePath = path.Join(piAgent, strings.TrimSuffix(k, "/"))
		}
		out = append(out, sp)
	}
	return out
}

// materialize builds the durable tree under / and the composite of paths
// under root, as writeCompositeProfile would: extra first (generated
// files), then each state path (links to sources, created when missing,
// and empty directories for the other directory strategies).
func materialize(t testing.TB, durable, extra vfstest.Tree, paths []composite.StatePath) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	machine := vfstest.Tree{}
	for k, n := range durable {
		machine[k] = n
	}
	tree := vfstest.Tree{}
	for k, n := range extra {
		tree[k] = n
	}
	for _, sp := range paths {
		switch {
		case sp.IsUnknown():
		case sp.Strategy == composite.StrategySymlink:
			tree[sp.Name()] = vfstest.Link(sp.SourcePath)
			src := strings.TrimPrefix(sp.SourcePath, "/")
			if _, ok := machine[src]; ok || hasChild(machine, src) {
				continue
			}
			if sp.Directory {
				machine[src] = vfstest.Dir()
			} else {
				machine[src] = vfstest.File("")
			}
		case sp.Directory:
			tree[sp.Name()] = vfstest.Dir()
		}
	}
	vfstest.Build(t, fsys, "/", machine)
	vfstest.Build(t, fsys, root, tree)
	return fsys
}

// hasChild reports whether tree lists an entry below dir.
func hasChild(tree vfstest.Tree, dir string) bool {
	for k := range tree {
		if strings.HasPrefix(k, dir+"/") {
			return true
		}
	}
	return false
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// errString returns err's message, or "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// put writes files (or, for a value "-> target", links) below dir as an
// agent would, creating parents as needed.
func put(t *testing.T, fsys vfs.ReadWriteFS, dir string, entries map[string]string) {
	t.Helper()
	for rel, v := range entries {
		name := path.Join(dir, rel)
		must(t, vfs.MkdirAll(fsys, path.Dir(name), 0o755))
		if target, ok := strings.CutPrefix(v, "-> "); ok {
			must(t, vfs.Symlink(fsys, target, name))
			continue
		}
		must(t, vfs.WriteFile(fsys, name, []byte(v), 0o644))
	}
}
