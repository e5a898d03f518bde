package resolve_test

import (
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
)

// BenchmarkLoadHeavilyOverridden resolves the five-source, seven-profile
// heavily_overridden_engineering reference fixture from a MemFS.
func BenchmarkLoadHeavilyOverridden(b *testing.B) {
	fsys := golden.UpstreamFixture(b, "heavily_overridden_engineering").Clone()
	opts := resolve.Options{Home: "/fixture/home", Project: "/fixture/project", ProfileID: "engineering", AgentID: "pi"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := resolve.Load(fsys, opts); err != nil {
			b.Fatal(err)
		}
	}
}
