package resolve_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/fixtures/golden"

	"github.com/outfitter-go/vfsim/resolve"
)

// BenchmarkLoadHeavilyOverridden resolves the five-source, seven-profile
// heavily_overridden_engineering reference fixture from a MemFS, without
// and with a shared cache.
func BenchmarkLoadHeavilyOverridden(b *testing.B) {
	for _, bc := range []struct {
		name  string
		cache *resolve.Cache
	}{
		{"uncached", nil},
		{"cached", resolve.NewCache()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fsys := golden.UpstreamFixture(b, "heavily_overridden_engineering").Clone()
			opts := resolve.Options{Agents: agents(), Home: "/fixture/home", Project: "/fixture/project", ProfileID: "engineering", AgentID: "pi", Cache: bc.cache}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := resolve.Load(fsys, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
