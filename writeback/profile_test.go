package writeback_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestSelectedProfile: an "always" answer is recorded in the last loaded
// definition of the selected profile, remote or not, never in a layer it
// inherits from; a profile with no definition (first-run onboarding) has
// no file.
func TestSelectedProfile(t *testing.T) {
	t.Parallel()
	layers := []resolve.Layer{
		{ID: "eng", ProfilePath: "/home/u/.outfitter/profiles/eng/profile.yml"},
		{ID: "eng", ProfilePath: "/cache/team/eng.yml", Source: resolve.Source{GitHub: "acme/profiles"}},
		{ID: "base", ProfilePath: "/home/u/.outfitter/profiles/base/profile.yml"},
	}
	tests := []struct {
		name   string
		layers []resolve.Layer
		id     string
		want   writeback.Profile
	}{
		{name: "last definition wins", layers: layers, id: "eng", want: writeback.Profile{ID: "eng", File: "/cache/team/eng.yml", Remote: true}},
		{name: "first layer", layers: layers[:1], id: "eng", want: writeback.Profile{ID: "eng", File: "/home/u/.outfitter/profiles/eng/profile.yml"}},
		{name: "layers of other ids passed over", layers: layers, id: "base", want: writeback.Profile{ID: "base", File: "/home/u/.outfitter/profiles/base/profile.yml"}},
		{name: "no definition", layers: layers, id: "onboarding", want: writeback.Profile{ID: "onboarding"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := writeback.SelectedProfile(&resolve.Result{ProfileID: tt.id, Layers: tt.layers})
			if got != tt.want {
				t.Errorf("SelectedProfile(%q) = %+v, want %+v", tt.id, got, tt.want)
			}
		})
	}
}
