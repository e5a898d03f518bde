package resolve_test

import (
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
)

// BenchmarkLoadHeavilyOverridden resolves the five-source, seven-profile
// heavily_overridden_engineering reference fixture from a MemFS.
func BenchmarkLoadHeavilyOverridden(b *testing.B) {
	fixtures := sharedDir(b, "VFSIM_UPSTREAM_FIXTURES", "upstream-fixtures")
	fsys := loadFixture(b, filepath.Join(fixtures, "heavily_overridden_engineering"))
	opts := resolve.Options{Home: "/fixture/home", Project: "/fixture/project", ProfileID: "engineering", AgentID: "pi"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := resolve.Load(fsys, opts); err != nil {
			b.Fatal(err)
		}
	}
}
