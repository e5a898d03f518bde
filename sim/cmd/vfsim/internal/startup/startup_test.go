package startup_test

import (
	"slices"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim/cmd/vfsim/internal/startup"
)

func TestWanted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"vfsim", "check"}, true},
		{[]string{"vfsim"}, false},
		{[]string{"vfsim", "check", "dir"}, false},
		{[]string{"vfsim", "check", "--scenarios", "dir"}, false},
		{[]string{"vfsim", "list"}, false},
		{[]string{"vfsim.test", "-test.run=x"}, false},
	}
	for _, tt := range tests {
		if got := startup.Wanted(tt.args); got != tt.want {
			t.Errorf("Wanted(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// TestCatalog checks that the preloaded catalog lists the catalog's
// fixtures in name order, the same ones on every call, and that each is
// loaded once.
func TestCatalog(t *testing.T) {
	t.Parallel()
	names, err := fixtures.CatalogNames()
	if err != nil {
		t.Fatal(err)
	}
	list, err := startup.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range list {
		got = append(got, f.Name())
	}
	if !slices.Equal(got, names) || len(got) == 0 {
		t.Fatalf("Catalog() names = %q, want %q", got, names)
	}
	again, err := startup.Catalog()
	if err != nil || !slices.Equal(again, list) {
		t.Fatalf("a second Catalog() = %p, %v; want the same fixtures %p", again, err, list)
	}
	for _, f := range list {
		fx, err := f.Load()
		if err != nil {
			t.Fatal(err)
		}
		if fx.Name() != f.Name() {
			t.Errorf("%s: loaded fixture %q", f.Name(), fx.Name())
		}
		if again, _ := f.Load(); again != fx {
			t.Errorf("%s: loaded twice", f.Name())
		}
	}
}

func TestGCPercent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		gogc    string
		want    int
		wantSet bool
	}{
		{name: "GOGC unset or empty: vfsim's own", want: startup.StartGCPercent, wantSet: true},
		{name: "GOGC set: the user's stands", gogc: "50"},
		{name: "GOGC=off stands", gogc: "off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, set := startup.GCPercent(tt.gogc)
			if got != tt.want || set != tt.wantSet {
				t.Errorf("startup.GCPercent(%q) = %d, %v; want %d, %v", tt.gogc, got, set, tt.want, tt.wantSet)
			}
		})
	}
}
