package writeback_test

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestPersistCopiesADirectorysLinksAsLinks: a prompt directory holding
// links to outside is copied with the links as links; a durable child that
// is a link is never written through.
func TestPersistCopiesADirectorysLinksAsLinks(t *testing.T) {
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

// TestPersistRefusesKeysLeavingTheRoot: keys that climb out of the root
// are refused before anything is read or written.
func TestPersistRefusesKeysLeavingTheRoot(t *testing.T) {
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

// TestPersistKeepsTheDurableFileWhenTheReadFails: the composite file is
// read before the durable one is touched.
func TestPersistKeepsTheDurableFileWhenTheReadFails(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	put(t, mem, "/", map[string]string{root[1:] + "/auth.json": "agent", piAgent[1:] + "/auth.json": "SECRET"})
	fsys := faultfs.New(mem, faultfs.When(func(op faultfs.Op) bool {
		return op.Kind == faultfs.KindReadFile && op.Path == root+"/auth.json"
	}, vfs.ErrIO))
	err := writeback.Persist(fsys, root, composite.StatePath{RelativePath: "auth.json", Strategy: composite.StrategyPrompt, SourcePath: piAgent + "/auth.json"})
	if !errors.Is(err, vfs.ErrIO) {
		t.Fatalf("Persist = %v, want the injected EIO", err)
	}
	if data, err := mem.ReadFile(piAgent + "/auth.json"); err != nil || string(data) != "SECRET" {
		t.Fatalf("durable auth.json = %q, %v; want it untouched", data, err)
	}
}

// TestPersistKeepsTheDurableFileWhenTheWriteFails: a failed write (a full
// disk, whatever the way the file is written) leaves the old durable
// content whole and no temporary file.
func TestPersistKeepsTheDurableFileWhenTheWriteFails(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	put(t, mem, "/", map[string]string{root[1:] + "/auth.json": "agent", piAgent[1:] + "/auth.json": "SECRET"})
	fsys := faultfs.New(mem, faultfs.ShortWrite(2, vfs.ErrNoSpace).If(func(op faultfs.Op) bool {
		return strings.HasPrefix(op.Path, piAgent+"/")
	}))
	err := writeback.Persist(fsys, root, composite.StatePath{RelativePath: "auth.json", Strategy: composite.StrategyPrompt, SourcePath: piAgent + "/auth.json"})
	if !errors.Is(err, vfs.ErrNoSpace) {
		t.Fatalf("Persist = %v, want the injected ENOSPC", err)
	}
	if data, err := mem.ReadFile(piAgent + "/auth.json"); err != nil || string(data) != "SECRET" {
		t.Fatalf("durable auth.json = %q, %v; want it untouched", data, err)
	}
	if got := vfstest.Snapshot(t, mem, piAgent).Paths(); !slices.Equal(got, []string{"auth.json"}) {
		t.Errorf("durable folder holds %q, want auth.json alone", got)
	}
}

// TestPersistRefusesARootReplacedByALink: with the root a link to the
// source's folder, source and destination are one file; nothing happens.
func TestPersistRefusesARootReplacedByALink(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	put(t, mem, "/", map[string]string{piAgent[1:] + "/auth.json": "SECRET"})
	must(t, mem.MkdirAll(path.Dir(root), 0o755))
	must(t, mem.Symlink(piAgent, root))
	err := writeback.Persist(mem, root, composite.StatePath{RelativePath: "auth.json", Strategy: composite.StrategyPrompt, SourcePath: piAgent + "/auth.json"})
	if err == nil {
		t.Fatal("Persist through a root replaced by a link succeeded")
	}
	if data, err := mem.ReadFile(piAgent + "/auth.json"); err != nil || string(data) != "SECRET" {
		t.Fatalf("durable auth.json = %q, %v; want it untouched", data, err)
	}
}
