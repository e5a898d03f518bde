package composite_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestMaterializePowerCut cuts the power at every operation of a run's
// planning and materialization, under both orderings of the power-cut
// model, in a world with sources to create (directories and files with
// their default content), a blank mcp.json to reset and a system prompt
// to export: every durable entry is its old self or its new self, whole,
// nothing outside the sources and the export changes, and once
// Materialize returned all of it is on the disk. The composite root, in
// /tmp, is temporary by design and not checked.
func TestMaterializePowerCut(t *testing.T) {
	t.Parallel()
	eng := home + "/.outfitter/profiles/eng"
	w := faultWorld()
	w.files[home+"/.outfitter/settings.yml"] = exportSettings
	w.files[eng+"/generated-system-prompt.md"] = "an old export\n"
	for _, order := range []faultfs.Ordering{faultfs.OrderSynced, faultfs.OrderJournal} {
		t.Run(string(order), func(t *testing.T) {
			t.Parallel()
			r := vfstest.PowerSweep{
				Base:     w.newFS(t),
				Run:      w.materializes(t),
				Ordering: order,
				Ignore:   []string{"/tmp"},
				Changes:  []string{home + "/.pi", home + "/.outfitter/cache", eng + "/generated-system-prompt.md", eng + "/cli_specific/pi/plugins"},
			}.Check(t)
			if r.Cuts != r.Ops+1 || r.Ops < 50 {
				t.Errorf("the sweep cut the power %d times over %d operations", r.Cuts, r.Ops)
			}
			t.Logf("%d operations, %d cuts, %d disk states checked", r.Ops, r.Cuts, r.Disks)
			for _, want := range []string{home + "/.pi/agent/mcp.json", home + "/.pi/agent/trust.json", home + "/.pi/agent/sessions", eng + "/generated-system-prompt.md"} {
				if !slices.Contains(r.Changed, want) {
					t.Errorf("precondition: the run did not write %s (it changed %q)", want, r.Changed)
				}
			}
		})
	}
}

// TestSeedPowerCut: the state copies of a synced profile's sources, made
// from its checkout at the first run, survive a power cut file by file,
// old (absent) or new, whole, and all of them once Materialize returned;
// the checkout is never written.
func TestSeedPowerCut(t *testing.T) {
	t.Parallel()
	base, w, _ := syncedWorld(t, false, map[string]string{
		"<folder>/cli_specific/pi/auth.json":      `{"token":"catalog"}`,
		"<folder>/cli_specific/pi/plugins/a.json": "A",
		"<folder>/cli_specific/pi/plugins/b.json": "B",
	})
	for _, order := range []faultfs.Ordering{faultfs.OrderSynced, faultfs.OrderJournal} {
		t.Run(string(order), func(t *testing.T) {
			t.Parallel()
			r := vfstest.PowerSweep{
				Base:     base,
				Run:      w.materializes(t),
				Ordering: order,
				Ignore:   []string{"/tmp"},
				Changes:  []string{home + "/.outfitter/state", home + "/.pi", home + "/.outfitter/cache/utilities"},
			}.Check(t)
			seeded := 0
			for _, p := range r.Changed {
				if strings.HasPrefix(p, home+"/.outfitter/state/") && (strings.HasSuffix(p, "/auth.json") || strings.HasSuffix(p, ".json") && strings.Contains(p, "/plugins/")) {
					seeded++
				}
			}
			if seeded != 3 {
				t.Errorf("precondition: the run seeded %d of the 3 state copies (it changed %q)", seeded, r.Changed)
			}
		})
	}
}

// materializes is a power sweep's run of w: plan it on the swept file
// system and materialize the composite.
func (w world) materializes(t testing.TB) func(*faultfs.FS) error {
	return func(fsys *faultfs.FS) error {
		run, err := w.plan(t, fsys)
		if err != nil {
			return err
		}
		_, err = run.Materialize()
		return err
	}
}
