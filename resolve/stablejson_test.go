package resolve_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
)

// TestStableJSON: equal values give equal text whatever their key order,
// and different values different text.
func TestStableJSON(t *testing.T) {
	t.Parallel()
	ab, ba := resolve.NewObject(), resolve.NewObject()
	ab.Set("a", []any{1.0, 2.0})
	ab.Set("b", "x")
	ba.Set("b", "x")
	ba.Set("a", []any{1.0, 2.0})
	want := `{"a":[1,2],"b":"x"}`
	for _, v := range []*resolve.Object{ab, ba} {
		if got := resolve.StableJSON(v); got != want {
			t.Errorf("StableJSON = %s, want %s", got, want)
		}
	}
	if got := resolve.StableJSON([]string{"a", "b"}); got != `["a","b"]` {
		t.Errorf("StableJSON of strings = %s", got)
	}
	if resolve.StableJSON([]any{1.0, 2.0}) == resolve.StableJSON([]any{12.0}) {
		t.Error("[1,2] and [12] have the same text")
	}
	inner := resolve.NewObject()
	inner.Set("k", []any{true, nil, 1.5, []any{}, resolve.NewObject()})
	inner.Set("s", []string{"x", "y"})
	inner.Set("e", []string{})
	if got, want := resolve.StableJSON([]any{inner, []string{"b", "a"}, "s", 2.0}), `[{"e":[],"k":[true,null,1.5,[],{}],"s":["x","y"]},["b","a"],"s",2]`; got != want {
		t.Errorf("StableJSON = %s, want %s", got, want)
	}
}
