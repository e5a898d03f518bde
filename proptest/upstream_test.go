package proptest_test

import (
	"reflect"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/proptest"
)

// driverOps are the ops the oracle's capture driver plays.
var driverOps = map[fixtures.OpKind]bool{
	fixtures.OpWrite: true, fixtures.OpAppend: true, fixtures.OpMkdir: true, fixtures.OpMkdirAll: true,
	fixtures.OpRemove: true, fixtures.OpRemoveAll: true, fixtures.OpSymlink: true, fixtures.OpRename: true, fixtures.OpExit: true,
}

func TestUpstreamWorldGen(t *testing.T) {
	t.Parallel()
	gen := proptest.UpstreamWorldGen()
	for i := range 200 {
		w := gen.Example(i)
		if !reflect.DeepEqual(w, gen.Example(i)) {
			t.Fatalf("seed %d: two draws differ", i)
		}
		if _, _, err := w.Load(); err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		for _, r := range w.Runs {
			for _, op := range r.Ops {
				if !driverOps[op.Op.Op] {
					t.Errorf("seed %d: op %s, which the capture driver does not play", i, op.Op.Op)
				}
			}
		}
		for _, p := range w.Profiles {
			for _, e := range p.Controls.Extra {
				if (e.Key == "pi" || e.Key == "claude") && (p.Controls.PiModel != "" || p.Controls.ClaudeModel != "" || p.Controls.ClaudeProvider != "") {
					t.Errorf("seed %d: an agent block written twice", i)
				}
			}
		}
	}
}

func TestGitCacheKey(t *testing.T) {
	t.Parallel()
	// printf %s 'github:acme/pi-ext#v1' | sha256sum | cut -c1-16
	if got, want := proptest.GitCacheKey("github:acme/pi-ext#v1"), "a942c96fc3af731a"; got != want {
		t.Errorf("GitCacheKey = %q, want %q", got, want)
	}
}
