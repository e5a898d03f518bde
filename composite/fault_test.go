package composite_test

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
)

// faultWorld has profile-owned, native and cache sources, a blank
// mcp.json to repair and every pi state path kind.
func faultWorld() world {
	eng := home + "/.outfitter/profiles/eng"
	return world{profiles: map[string]string{"eng": "id: eng\nstate_persistence:\n  cache/: warn\n  tmp/: discard\n  models.json: prompt\n"},
		files: map[string]string{
			eng + "/cli_specific/pi/settings.json":  `{"theme":"dark"}`,
			eng + "/cli_specific/pi/.mcp.json":      `{"mcpServers":{}}`,
			eng + "/cli_specific/pi/plugins/p.json": "p",
			home + "/.pi/agent/mcp.json":            "  ",
			home + "/.pi/agent/keybindings.json":    `{"x":"alt+x"}`,
		}}
}

// durable snapshots everything outside /tmp.
func durable(t testing.TB, fsys vfs.FS) vfs.Tree {
	t.Helper()
	tree, err := vfs.SnapshotWith(fsys, "/", vfs.SnapshotOptions{Skip: func(rel string, _ fs.FileInfo) bool { return rel == "tmp" }})
	must(t, err)
	return tree
}

var jsonDefaults = []string{"", "{}\n", "{\"providers\":{}}\n"}

func TestMaterializeFaults(t *testing.T) {
	t.Parallel()
	w := faultWorld()
	base, r := w.mustPlan(t)
	c := r.Composite
	var sources []string
	for _, sp := range c.StatePaths {
		if sp.Strategy == composite.StrategySymlink {
			sources = append(sources, sp.SourcePath)
		}
	}
	isSourceOrParent := func(p string) bool {
		for _, s := range sources {
			if p == s || strings.HasPrefix(s, p+"/") {
				return true
			}
		}
		return false
	}
	before := durable(t, base)
	probe := faultfs.New(base.Clone())
	if _, err := composite.Write(probe, c, composite.WriteOptions{}); err != nil {
		t.Fatalf("write without faults: %v", err)
	}
	total := probe.Count()
	if total < 30 {
		t.Fatalf("only %d operations seen; the fault sweep would prove little", total)
	}
	for n := 1; n <= total; n++ {
		mem := base.Clone()
		ffs := faultfs.New(mem, faultfs.OnNth(n, vfs.ErrIO))
		_, err := composite.Write(ffs, c, composite.WriteOptions{})
		injected := ffs.Injected()
		if len(injected) != 1 {
			t.Fatalf("op %d: %d faults injected", n, len(injected))
		}
		op := injected[0]
		var we *composite.WriteError
		if !errors.As(err, &we) || !errors.Is(err, vfs.ErrIO) {
			t.Errorf("op %d (%s %s): error %v, want a *WriteError wrapping EIO", n, op.Kind, op.Path, err)
			continue
		}
		d := vfs.Diff(before, durable(t, mem))
		if len(d.Removed) > 0 {
			t.Errorf("op %d (%s %s): durable entries removed: %q", n, op.Kind, op.Path, d.Removed)
		}
		for p, ch := range d.Changed {
			if !slices.Contains(jsonDefaults, string(ch.After.Data)) || strings.TrimSpace(string(ch.Before.Data)) != "" {
				t.Errorf("op %d (%s %s): durable %s changed from %q to %q", n, op.Kind, op.Path, p, ch.Before.Data, ch.After.Data)
			}
		}
		for p, e := range d.Added {
			abs := "/" + p
			ok := isSourceOrParent(abs) && (e.Type == vfs.TypeDir || e.Type == vfs.TypeFile && slices.Contains(jsonDefaults, string(e.Data)))
			// The lock of a source's replacement that the crash kept its
			// writer from removing: empty and unlocked, the next write
			// takes it and removes it.
			if base := path.Base(abs); strings.HasPrefix(base, ".") && strings.HasSuffix(base, ".replace.lock") && isSourceOrParent(path.Dir(abs)+"/"+strings.TrimSuffix(base[1:], ".replace.lock")) && e.Type == vfs.TypeFile && len(e.Data) == 0 {
				ok = true
			}
			if !ok {
				t.Errorf("op %d (%s %s): unexpected durable entry %s (%s %q)", n, op.Kind, op.Path, abs, e.Type, e.Data)
			}
		}
	}
}

func TestMaterializeFaultCount(t *testing.T) {
	t.Parallel()
	_, r := faultWorld().mustPlan(t)
	// The probe count is asserted in TestMaterializeFaults; this checks that
	// a read-only durable side fails on the first write with a typed error.
	mem := vfs.NewMemFS(vfs.MemOptions{})
	_, err := composite.Write(faultfs.New(mem, faultfs.ReadOnly()), r.Composite, composite.WriteOptions{})
	var we *composite.WriteError
	if !errors.As(err, &we) || !errors.Is(err, vfs.ErrReadOnly) {
		t.Fatalf("error %v, want a *WriteError wrapping EROFS", err)
	}
}
