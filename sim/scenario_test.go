package sim_test

import (
	"context"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
)

// TestOverlayMountReadsOnlyWhatRunsTouch: on a mount that is a
// copy-on-write overlay, the durable difference comes from the overlay's
// changes, so a file of the fixture that no run touches is never read
// (reading it is what made vfsim run --overlay heavier than a plain run
// on a fixture holding a large file).
func TestOverlayMountReadsOnlyWhatRunsTouch(t *testing.T) {
	t.Parallel()
	fx, err := fixtures.LoadTxtar([]byte(soloFixture+"-- project/large.bin --\nuntouched\n"), "solo.txtar")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fixtures.ParseScenario([]byte(`{"runs": [{"ops": [{"op": "write", "path": "settings.json", "data": "{}\n"}]}]}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	var lower *faultfs.FS
	mount := func(mem *vfs.MemFS) (sim.FS, error) {
		lower = faultfs.New(mem)
		return overlayfs.New(lower, overlayfs.Options{}), nil
	}
	out, err := sim.RunScenario(context.Background(), fx, sc, sim.ScenarioOptions{Mount: mount})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Passed() {
		t.Fatalf("scenario failed:\n%s", out.Failure())
	}
	if _, ok := out.Report.Durable.Added["home/.pi/agent/settings.json"]; !ok {
		t.Errorf("durable difference %+v lacks the write through the link", out.Report.Durable)
	}
	for _, op := range lower.Ops() {
		if op.Path == "/fixture/project/large.bin" {
			t.Errorf("the untouched fixture file was read: %+v", op)
		}
	}
}
