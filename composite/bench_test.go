package composite_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// benchFixture is the largest reference fixture (most profile layers and
// sources).
const benchFixture = "heavily_overridden_engineering"

// copyTree copies the fixture tree of src into dst.
func copyTree(b *testing.B, src vfs.FS, dst composite.FS) {
	b.Helper()
	tree, err := vfs.Snapshot(src, fixtures.FixtureRoot)
	must(b, err)
	must(b, dst.MkdirAll(fixtures.FixtureRoot, 0o755))
	for _, p := range tree.Paths() {
		e, name := tree[p], fixtures.FixtureRoot+"/"+p
		switch e.Type {
		case vfs.TypeDir:
			must(b, dst.MkdirAll(name, 0o755))
		case vfs.TypeFile:
			must(b, dst.WriteFile(name, e.Data, 0o644))
		case vfs.TypeSymlink:
			must(b, vfs.Symlink(dst, e.Target, name))
		}
	}
}

func benchPlanMaterialize(b *testing.B, fsys composite.FS) {
	b.Helper()
	must(b, fsys.MkdirAll("/tmp", 0o755))
	res, err := resolve.Load(fsys.(resolve.FS), resolve.Options{Home: fixtures.HomeRoot, Project: fixtures.ProjectRoot, ProfileID: "engineering", AgentID: "pi"})
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
	fx, err := fixtures.LoadDir(filepath.Join(sharedDir(b, "VFSIM_UPSTREAM_FIXTURES", "upstream-fixtures"), benchFixture))
	must(b, err)
	b.Run("MemFS", func(b *testing.B) {
		benchPlanMaterialize(b, fx.Clone())
	})
	b.Run("osfs", func(b *testing.B) {
		fsys := osfs.NewRooted(b.TempDir())
		copyTree(b, fx.Clone(), fsys)
		benchPlanMaterialize(b, fsys)
	})
}
