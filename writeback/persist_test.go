package writeback_test

import (
	"errors"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
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

// pluginsPrompt is pi's plugins/ directory with strategy prompt, its
// durable source under agentDir.
func pluginsPrompt(agentDir string) composite.StatePath {
	return composite.StatePath{RelativePath: "plugins/", Strategy: composite.StrategyPrompt, Directory: true, SourcePath: agentDir + "/plugins"}
}

// plantPersistLink is the attack of a persisted directory: beside
// plugins/evil the agent creates plugins/.evil.outfitter-persist, a link
// to ~/.bashrc, the fixed temporary name an earlier Persist wrote evil's
// content to before renaming it.
func plantPersistLink(t *testing.T, fsys vfs.ReadWriteFS, compRoot, bashrc string) {
	t.Helper()
	put(t, fsys, compRoot, map[string]string{
		"plugins/evil":                    "EVIL\n",
		"plugins/.evil.outfitter-persist": "-> " + bashrc,
	})
}

// checkNoWriteThroughLink checks the outcome of the attack: ~/.bashrc is
// untouched, evil is a regular file with the agent's content, the link is
// copied as a link, and no temporary file is left in the durable folder.
func checkNoWriteThroughLink(t *testing.T, fsys vfs.ReadWriteFS, durable, bashrc string) {
	t.Helper()
	if data, err := vfs.ReadFile(fsys, bashrc); err != nil || string(data) != "export PS1=safe\n" {
		t.Errorf("~/.bashrc = %q, %v; want it untouched", data, err)
	}
	if fi, err := vfs.Lstat(fsys, durable+"/evil"); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("durable evil: %v, %v; want a regular file", fi, err)
	} else if data, err := vfs.ReadFile(fsys, durable+"/evil"); err != nil || string(data) != "EVIL\n" {
		t.Errorf("durable evil = %q, %v; want the agent's content", data, err)
	}
	if target, err := vfs.ReadLink(fsys, durable+"/.evil.outfitter-persist"); err != nil || target != bashrc {
		t.Errorf("durable .evil.outfitter-persist = %q, %v; want the link copied as a link", target, err)
	}
	list, err := vfs.ReadDir(fsys, durable)
	must(t, err)
	if diff := cmp.Diff([]string{".evil.outfitter-persist", "evil", "kept"}, vfstest.EntryNames(list)); diff != "" {
		t.Errorf("durable folder (-want +got):\n%s", diff)
	}
}

// TestPersistNeverWritesThroughAPlantedLink, on the memory backend and
// on the host file system (below a temporary directory): a link the agent
// planted at a name a persist might write to first (a fixed temporary
// name once sent evil's content into ~/.bashrc) is never written through.
func TestPersistNeverWritesThroughAPlantedLink(t *testing.T) {
	t.Parallel()
	for name, machine := range map[string]func(*testing.T) (fsys vfs.ReadWriteFS, dir string){
		"memory": func(*testing.T) (vfs.ReadWriteFS, string) { return vfs.NewMemFS(vfs.MemOptions{}), "" },
		"os":     func(t *testing.T) (vfs.ReadWriteFS, string) { return osfs.New(), filepath.ToSlash(t.TempDir()) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys, dir := machine(t)
			bashrc, agentDir := dir+home+"/.bashrc", dir+piAgent
			put(t, fsys, "/", map[string]string{bashrc[1:]: "export PS1=safe\n", agentDir[1:] + "/plugins/kept": "kept"})
			plantPersistLink(t, fsys, dir+root, bashrc)
			must(t, writeback.Persist(fsys, dir+root, pluginsPrompt(agentDir)))
			checkNoWriteThroughLink(t, fsys, agentDir+"/plugins", bashrc)
		})
	}
}

// TestPersistLinksInTheDurableTree: links already in the durable folder
// (from an earlier persist of the agent's links, say) are never written
// through: one where a file goes is replaced by the file, one where a
// directory goes stops the copy with a *LinkRefusedError.
func TestPersistLinksInTheDurableTree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		durable   map[string]string // below ~/.pi/agent/plugins
		composite map[string]string // below <root>/plugins
		wantErr   *writeback.LinkRefusedError
		want      map[string]string // durable files after (below /), "-> x" for links
	}{
		{
			name:      "link where a file goes",
			durable:   map[string]string{"evil": "-> " + home + "/.bashrc"},
			composite: map[string]string{"evil": "EVIL\n"},
			want: map[string]string{
				"home/u/.bashrc": "export PS1=safe\n", "home/u/.ssh/config": "Host *\n",
				"home/u/.pi/agent/plugins/evil": "EVIL\n",
			},
		},
		{
			name:      "link where a directory goes",
			durable:   map[string]string{"sub": "-> " + home + "/.ssh"},
			composite: map[string]string{"a": "A", "sub/authorized_keys": "ssh-ed25519 AAAA evil\n"},
			wantErr:   &writeback.LinkRefusedError{Path: piAgent + "/plugins/sub", Target: home + "/.ssh"},
			want: map[string]string{
				"home/u/.bashrc": "export PS1=safe\n", "home/u/.ssh/config": "Host *\n",
				"home/u/.pi/agent/plugins/a": "A", "home/u/.pi/agent/plugins/sub": "-> " + home + "/.ssh",
			},
		},
		{
			name:      "relative link where a directory goes, deeper",
			durable:   map[string]string{"d/e": "-> ../../../../.ssh"},
			composite: map[string]string{"d/e/authorized_keys": "evil"},
			wantErr:   &writeback.LinkRefusedError{Path: piAgent + "/plugins/d/e", Target: "../../../../.ssh"},
			want: map[string]string{
				"home/u/.bashrc": "export PS1=safe\n", "home/u/.ssh/config": "Host *\n",
				"home/u/.pi/agent/plugins/d/e": "-> ../../../../.ssh",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mem := vfs.NewMemFS(vfs.MemOptions{})
			put(t, mem, "/", map[string]string{home[1:] + "/.bashrc": "export PS1=safe\n", home[1:] + "/.ssh/config": "Host *\n"})
			put(t, mem, piAgent+"/plugins", tt.durable)
			put(t, mem, root+"/plugins", tt.composite)
			err := writeback.Persist(mem, root, pluginsPrompt(piAgent))
			var le *writeback.LinkRefusedError
			switch {
			case tt.wantErr == nil:
				must(t, err)
			case !errors.As(err, &le):
				t.Fatalf("Persist = %v, want a *LinkRefusedError", err)
			default:
				if diff := cmp.Diff(tt.wantErr, le); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
			}
			got := map[string]string{}
			for p, e := range vfstest.Snapshot(t, mem, home) {
				switch e.Type {
				case vfs.TypeFile:
					got[path.Join(home[1:], p)] = string(e.Data)
				case vfs.TypeSymlink:
					got[path.Join(home[1:], p)] = "-> " + e.Target
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("home after Persist (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPersistInterruptedBeforeTheRename: when the rename of the
// temporary file fails, the durable file keeps its old content and the
// temporary file is gone.
func TestPersistInterruptedBeforeTheRename(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	put(t, mem, "/", map[string]string{root[1:] + "/plugins/evil": "EVIL\n", piAgent[1:] + "/plugins/evil": "old"})
	fsys := faultfs.New(mem, faultfs.OnNthOf(faultfs.KindRename, 1, vfs.ErrIO))
	if err := writeback.Persist(fsys, root, pluginsPrompt(piAgent)); !errors.Is(err, vfs.ErrIO) {
		t.Fatalf("Persist = %v, want the injected EIO", err)
	}
	want := vfs.Tree{"evil": {Type: vfs.TypeFile, Mode: 0o644, Data: []byte("old")}}
	if diff := cmp.Diff(want, vfstest.Snapshot(t, mem, piAgent+"/plugins")); diff != "" {
		t.Errorf("durable plugins (-want +got):\n%s", diff)
	}
}

// TestPersistAtEveryCrashPoint: a crash after any number of operations
// leaves each durable file with its old content or the new one, whole,
// never a part; only a temporary file (never a durable name) may be left.
func TestPersistAtEveryCrashPoint(t *testing.T) {
	t.Parallel()
	setup := func() *vfs.MemFS {
		mem := vfs.NewMemFS(vfs.MemOptions{})
		put(t, mem, "/", map[string]string{
			root[1:] + "/plugins/a.json": "new a", root[1:] + "/plugins/b.json": "new b",
			piAgent[1:] + "/plugins/a.json": "old a", piAgent[1:] + "/plugins/b.json": "old b",
		})
		return mem
	}
	counter := faultfs.New(setup())
	must(t, writeback.Persist(counter, root, pluginsPrompt(piAgent)))
	total := counter.Count()
	t.Logf("%d operations, each a failure point", total)
	if total < 10 {
		t.Fatalf("precondition: Persist took %d operations, want a copy of two files", total)
	}
	for n := 0; n <= total; n++ {
		mem := setup()
		err := writeback.Persist(faultfs.New(mem, faultfs.CrashAfter(n, 2, vfs.ErrIO)), root, pluginsPrompt(piAgent))
		if (err == nil) != (n == total) {
			t.Errorf("crash after %d of %d operations: Persist = %v", n, total, err)
		}
		for name, e := range vfstest.Snapshot(t, mem, piAgent+"/plugins") {
			switch {
			case name == "a.json" || name == "b.json":
				if s := string(e.Data); s != "old "+name[:1] && s != "new "+name[:1] {
					t.Errorf("crash after %d: %s = %q, want the old or the new content whole", n, name, s)
				}
			case (name == ".a.json.replace.lock" || name == ".b.json.replace.lock") && len(e.Data) == 0:
				// The lock of the replacement, which the crash kept its
				// writer from removing: unlocked, the next write takes
				// it and removes it.
			case !(strings.HasPrefix(name, ".a.json.") || strings.HasPrefix(name, ".b.json.")) || !strings.HasSuffix(name, ".tmp"):
				t.Errorf("crash after %d: unexpected durable entry %s", n, name)
			}
		}
	}
}
