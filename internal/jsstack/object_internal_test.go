package jsstack

import (
	"strconv"
	"testing"
)

// checkIndex fails unless o keeps the index its documentation promises:
// present exactly when o has more than indexAbove keys, and naming each
// key's position.
func checkIndex(t *testing.T, what string, o *Object) {
	t.Helper()
	if (o.index != nil) != (len(o.entries) > indexAbove) {
		t.Fatalf("%s: %d keys, index present: %v; want one exactly above %d keys", what, len(o.entries), o.index != nil, indexAbove)
	}
	if o.index == nil {
		return
	}
	if len(o.index) != len(o.entries) {
		t.Fatalf("%s: index of %d keys for %d entries", what, len(o.index), len(o.entries))
	}
	for i, e := range o.entries {
		if o.index[e.key] != i {
			t.Fatalf("%s: index says %q is at %d, it is at %d", what, e.key, o.index[e.key], i)
		}
	}
}

// TestObjectIndex: an object looks keys up through an index once it has
// more than indexAbove keys, and keeps that index current through every
// change and in its clones.
func TestObjectIndex(t *testing.T) {
	t.Parallel()
	o := NewObject()
	for i := range 2 * indexAbove {
		// Names append; array indexes are inserted before them.
		o.Set("k"+strconv.Itoa(i), i)
		checkIndex(t, "after Set k"+strconv.Itoa(i), o)
		o.Set(strconv.Itoa(i), i)
		checkIndex(t, "after Set "+strconv.Itoa(i), o)
		checkIndex(t, "a clone", o.Clone())
	}
	for i := range 2 * indexAbove {
		o.Delete(strconv.Itoa(i))
		checkIndex(t, "after Delete "+strconv.Itoa(i), o)
		checkIndex(t, "a clone", o.Clone())
	}
}
