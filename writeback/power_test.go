package writeback_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestPersistPowerCut cuts the power at every operation of a persist,
// under both orderings of the power-cut model: every durable entry is its
// old self or its new self, whole, nothing outside the source changes,
// and the completed persist is on the disk. The composite root is
// temporary by design and not checked.
func TestPersistPowerCut(t *testing.T) {
	t.Parallel()
	auth := composite.StatePath{RelativePath: "auth.json", Strategy: composite.StrategyPrompt, SourcePath: piAgent + "/auth.json"}
	mcp := composite.StatePath{RelativePath: "mcp.json", Strategy: composite.StrategyPrompt, SourcePath: piAgent + "/mcp.json"}
	tests := []struct {
		name   string
		files  map[string]string
		sp     composite.StatePath
		change string
	}{
		{
			name: "directory over an existing source",
			files: map[string]string{
				root[1:] + "/plugins/a.json": "new a", root[1:] + "/plugins/c.json": "new c",
				root[1:] + "/plugins/sub/x": "new x", root[1:] + "/plugins/l": "-> a.json", root[1:] + "/plugins/m": "-> c.json",
				piAgent[1:] + "/plugins/a.json": "old a", piAgent[1:] + "/plugins/b.json": "old b", piAgent[1:] + "/plugins/m": "-> b.json",
				home[1:] + "/other": "untouched",
			},
			sp: pluginsPrompt(piAgent), change: piAgent + "/plugins",
		},
		{
			name: "directory into a missing source",
			files: map[string]string{
				root[1:] + "/plugins/a.json": "new a", root[1:] + "/plugins/sub/x": "new x",
				home[1:] + "/other": "untouched",
			},
			sp: pluginsPrompt(home + "/.new/agent"), change: home + "/.new",
		},
		{
			name:  "file over an existing source",
			files: map[string]string{root[1:] + "/auth.json": `{"token":"new"}`, piAgent[1:] + "/auth.json": `{"token":"old"}`},
			sp:    auth, change: piAgent + "/auth.json",
		},
		{
			name:  "file with a default content, source missing",
			files: map[string]string{root[1:] + "/mcp.json": `{"mcpServers":{"a":{}}}`, home[1:] + "/other": "untouched"},
			sp:    mcp, change: piAgent,
		},
	}
	for _, tt := range tests {
		for _, order := range []faultfs.Ordering{faultfs.OrderSynced, faultfs.OrderJournal} {
			t.Run(tt.name+"/"+string(order), func(t *testing.T) {
				t.Parallel()
				mem := vfs.NewMemFS(vfs.MemOptions{})
				put(t, mem, "/", tt.files)
				r := vfstest.PowerSweep{
					Base:     mem,
					Run:      func(fsys *faultfs.FS) error { return writeback.Persist(fsys, root, tt.sp) },
					Ordering: order,
					Ignore:   []string{root},
					Changes:  []string{tt.change},
					// The source made with its default content before the
					// copy replaces it, as upstream makes it.
					Between: func(name string, e vfs.Entry) bool {
						return name == tt.sp.SourcePath && e.Type == vfs.TypeFile && string(e.Data) == "{}\n"
					},
				}.Check(t)
				if r.Cuts != r.Ops+1 || r.Ops < 8 {
					t.Errorf("the sweep cut the power %d times over %d operations", r.Cuts, r.Ops)
				}
				t.Logf("%d operations, %d cuts, %d disk states checked", r.Ops, r.Cuts, r.Disks)
			})
		}
	}
}

// TestRecordPowerCut: the "always" answer's edit of profile.yml, through
// a link or not, survives a power cut at any point old or new, and new
// once Record returned.
func TestRecordPowerCut(t *testing.T) {
	t.Parallel()
	for _, link := range []bool{false, true} {
		for _, order := range []faultfs.Ordering{faultfs.OrderSynced, faultfs.OrderJournal} {
			mem, real := profileMachine(t, link)
			r := vfstest.PowerSweep{
				Base:     mem,
				Run:      func(fsys *faultfs.FS) error { return writeback.Record(fsys, profileFile, "mcp.json") },
				Ordering: order,
				Changes:  []string{real},
			}.Check(t)
			if r.Cuts != r.Ops+1 || r.Ops < 8 {
				t.Errorf("link %v, %s: the sweep cut the power %d times over %d operations", link, order, r.Cuts, r.Ops)
			}
		}
	}
}
