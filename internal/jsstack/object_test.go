package jsstack_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/internal/jsstack"
	"pgregory.net/rapid"
)

// modelObject is the reference for Object: keys in JavaScript order kept
// in a slice, values in a map.
type modelObject struct {
	keys []string
	vals map[string]any
}

func (m *modelObject) set(k string, v any) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
		slices.SortStableFunc(m.keys, func(a, b string) int {
			ai, aok := jsIndex(a)
			bi, bok := jsIndex(b)
			switch {
			case aok && bok:
				return int(ai) - int(bi)
			case aok:
				return -1
			case bok:
				return 1
			}
			return 0
		})
	}
	m.vals[k] = v
}

func (m *modelObject) delete(k string) {
	if _, ok := m.vals[k]; ok {
		delete(m.vals, k)
		m.keys = slices.DeleteFunc(m.keys, func(s string) bool { return s == k })
	}
}

// jsIndex reports whether k is a canonical array index below 2^32-1.
func jsIndex(k string) (int64, bool) {
	n, err := strconv.ParseInt(k, 10, 64)
	if err != nil || n < 0 || n >= 1<<32-1 || strconv.FormatInt(n, 10) != k {
		return 0, false
	}
	return n, true
}

// TestObjectMatchesModel applies random sets and deletes, across the size
// where lookups switch from scanning to an index, to an Object and to the
// model, and to clones taken along the way, comparing keys and values
// after every step.
func TestObjectMatchesModel(t *testing.T) {
	t.Parallel()
	keys := rapid.SampledFrom([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "0", "1", "7", "9", "10", "01", "-1", "1a", "+1", "4294967295", "4294967294"})
	rapid.Check(t, func(t *rapid.T) {
		obj := jsstack.NewObject()
		model := &modelObject{vals: map[string]any{}}
		var clones []*jsstack.Object
		var cloneModels []string
		for i := range rapid.IntRange(0, 60).Draw(t, "steps") {
			k := keys.Draw(t, "key")
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0:
				obj.Delete(k)
				model.delete(k)
			case 1:
				clones = append(clones, obj.Clone())
				cloneModels = append(cloneModels, string(jsstack.Stringify(obj, "")))
			default:
				obj.Set(k, float64(i))
				model.set(k, float64(i))
			}
			if got := obj.Keys(); !slices.Equal(model.keys, got) {
				t.Fatalf("step %d: keys (-model +object):\n%s", i, cmp.Diff(model.keys, got))
			}
			for _, k := range model.keys {
				if got, ok := obj.Get(k); !ok || got != model.vals[k] {
					t.Fatalf("step %d: Get(%q) = %v, %v, want %v", i, k, got, ok, model.vals[k])
				}
			}
			if obj.Has(k) != (model.vals[k] != nil) {
				t.Fatalf("step %d: Has(%q) = %v", i, k, obj.Has(k))
			}
		}
		for i, c := range clones {
			if got := string(jsstack.Stringify(c, "")); got != cloneModels[i] {
				t.Fatalf("clone %d changed: %s, want %s", i, got, cloneModels[i])
			}
		}
	})
}

// TestObjectMarshalJSON: an Object encodes with its keys in order, and a
// nil one as null.
func TestObjectMarshalJSON(t *testing.T) {
	t.Parallel()
	o := jsstack.NewObject()
	o.Set("b", 1.0)
	o.Set("a", []any{"x"})
	got, err := json.Marshal(struct{ Set, Unset *jsstack.Object }{Set: o})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"Set":{"b":1,"a":["x"]},"Unset":null}`; string(got) != want {
		t.Errorf("json.Marshal = %s, want %s", got, want)
	}
}
