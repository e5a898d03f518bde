package writeback_test

import (
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestReviewPersistDirectoryLinks: a prompt directory holding links to
// outside is copied with the links as links; a durable child that is a
// link is never written through.
func TestReviewPersistDirectoryLinks(t *testing.T) {
	mem := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.Build(t, mem, "/", vfstest.Tree{
		root[1:] + "/plugins/ssh":          vfstest.Link(home + "/.ssh"),
		root[1:] + "/plugins/conf.json":    vfstest.File("agent"),
		root[1:] + "/plugins/sub/x.json":   vfstest.File("x"),
		home[1:] + "/.ssh/id":              vfstest.File("KEY"),
		home[1:] + "/dot/conf.json":        vfstest.File("dot"),
		home[1:] + "/dot/sub/x.json":       vfstest.File("dotx"),
		piAgent[1:] + "/plugins/conf.json": vfstest.Link(home + "/dot/conf.json"),
		piAgent[1:] + "/plugins/sub":       vfstest.Link(home + "/dot/sub"),
	})
	sp := composite.StatePath{RelativePath: "plugins/", Strategy: composite.StrategyPrompt, Directory: true, SourcePath: piAgent + "/plugins"}
	err := writeback.Persist(mem, root, sp)
	if err == nil {
		t.Errorf("Persist succeeded; want the directory-onto-link failure for sub/")
	}
	for name, want := range map[string]string{home + "/dot/conf.json": "dot", home + "/dot/sub/x.json": "dotx", home + "/.ssh/id": "KEY"} {
		if data, err := mem.ReadFile(name); err != nil || string(data) != want {
			t.Errorf("%s = %q, %v; want %q untouched", name, data, err, want)
		}
	}
	if target, err := mem.ReadLink(piAgent + "/plugins/ssh"); err != nil || target != home+"/.ssh" {
		t.Errorf("plugins/ssh = %q, %v; want the link copied as a link", target, err)
	}
}

// TestReviewPersistRefusesEscapingKeys: keys that climb out of the root
// are refused before anything is read or written.
func TestReviewPersistRefusesEscapingKeys(t *testing.T) {
	for _, key := range []string{"../x", "..", "a/../../x", "/etc/passwd", "../"} {
		mem := vfs.NewMemFS(vfs.MemOptions{})
		vfstest.Build(t, mem, "/", vfstest.Tree{"tmp/x": vfstest.File("outside"), root[1:]: vfstest.Dir()})
		err := writeback.Persist(mem, root, composite.StatePath{RelativePath: key, Strategy: composite.StrategyPrompt, SourcePath: "/durable/x"})
		if err == nil || !strings.Contains(err.Error(), "must stay under compositeProfile root") {
			t.Errorf("Persist(%q) = %v; want the escape error", key, err)
		}
		if _, err := mem.Lstat("/durable"); err == nil {
			t.Errorf("Persist(%q) created the source", key)
		}
	}
}
