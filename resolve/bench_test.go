package resolve_test

import (
	"fmt"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
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

// profilesTree is a home whose settings select profile p0 of a source
// holding n folder-layout profiles, each with a label and a model.
func profilesTree(n int) vfstest.Tree {
	tree := vfstest.Tree{
		"home/.outfitter/settings.yml": file("default_profile: p0\nprofile_sources:\n  - path: ./profiles\n"),
	}
	for i := range n {
		tree[fmt.Sprintf("home/.outfitter/profiles/p%d/profile.yml", i)] = file(fmt.Sprintf("label: Profile %d\ncontrols:\n  model: m%d\n", i, i))
	}
	return tree
}

// BenchmarkLoadProfilesInSources loads a run whose profile source holds
// n profiles, of which one is selected, with a shared cache: every
// profile of the sources is listed and checked, so the time grows with n;
// per profile it should stay flat and small.
func BenchmarkLoadProfilesInSources(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("profiles=%d", n), func(b *testing.B) {
			fsys := memTree(b, profilesTree(n))
			opts := resolve.Options{Agents: agents(), Home: home, Project: project, Cache: resolve.NewCache()}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := resolve.Load(fsys, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/profile")
		})
	}
}
