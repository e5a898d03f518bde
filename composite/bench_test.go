package composite_test

import (
	"math/rand/v2"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// benchFixture is the largest reference fixture (most profile layers and
// sources).
const benchFixture = "heavily_overridden_engineering"

func benchPlanMaterialize(b *testing.B, fsys composite.FS) {
	b.Helper()
	must(b, fsys.MkdirAll("/tmp", 0o755))
	res, err := resolve.Load(fsys.(resolve.FS), resolve.Options{Home: report.HomeRoot, Project: report.ProjectRoot, ProfileID: "engineering", AgentID: "pi", Agents: composite.DefaultRegistry().Agents()})
	must(b, err)
	rng := rand.NewChaCha8([32]byte{3})
	b.ResetTimer()
	for b.Loop() {
		r, err := composite.Plan(fsys, composite.Request{Result: res}, composite.Options{Rand: rng, NoSweep: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Materialize(); err != nil {
			b.Fatal(err)
		}
		if err := r.Cleanup(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanMaterialize plans and materializes the largest reference
// fixture (then removes the root) on MemFS and on the rooted OS backend.
func BenchmarkPlanMaterialize(b *testing.B) {
	fx := golden.UpstreamFixture(b, benchFixture)
	b.Run("MemFS", func(b *testing.B) {
		benchPlanMaterialize(b, fx.Clone())
	})
	b.Run("osfs", func(b *testing.B) {
		fsys := osfs.NewRooted(b.TempDir())
		must(b, vfs.CopyTree(fsys, report.FixtureRoot, fx.Clone(), report.FixtureRoot))
		benchPlanMaterialize(b, fsys)
	})
}
