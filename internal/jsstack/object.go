package jsstack

import (
	"slices"
	"strconv"
)

// Object is an ordered mapping from strings to values, with the key order
// of a JavaScript object: keys that are array indexes ("0", "17") come
// first in ascending numeric order, then every other key in insertion
// order. Values are nil, bool, float64, string, []any or *Object, the
// shapes a YAML or JSON document decodes to. The zero value is empty and
// ready to use; an Object is not safe for concurrent mutation.
type Object struct {
	// entries holds the keys and values in order.
	entries []entry
	// index maps each key to its position in entries once the object has
	// more than indexAbove keys; it is always current, so that reading
	// never writes (shared objects are read concurrently).
	index map[string]int
}

type entry struct {
	key string
	val any
}

// indexAbove is the size up to which keys are looked up by scanning.
const indexAbove = 16

// NewObject returns an empty Object.
func NewObject() *Object { return &Object{} }

// NewObjectSize returns an empty Object with room for n keys. A small
// object and its entries are one allocation.
func NewObjectSize(n int) *Object {
	// Which of these holds the entries changes only allocations (an
	// append past the room moves them): mutants of the bounds are
	// equivalent.
	switch {
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	case n <= 0:
		return &Object{}
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	case n <= 2:
		b := new(struct {
			o Object
			e [2]entry
		})
		b.o.entries = b.e[:0]
		return &b.o
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	case n <= 4:
		b := new(struct {
			o Object
			e [4]entry
		})
		b.o.entries = b.e[:0]
		return &b.o
	//mutants:equivalent CONDITIONALS_BOUNDARY CONDITIONALS_NEGATION
	case n <= 8:
		b := new(struct {
			o Object
			e [8]entry
		})
		b.o.entries = b.e[:0]
		return &b.o
	}
	return &Object{entries: make([]entry, 0, n)}
}

// Len returns the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.entries)
}

// Keys returns the keys in order. The caller may modify the returned slice.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	keys := make([]string, len(o.entries))
	for i, e := range o.entries {
		keys[i] = e.key
	}
	return keys
}

// Index returns the position of key in the key order, or -1.
func (o *Object) Index(key string) int {
	if o == nil {
		return -1
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range o.entries {
		if o.entries[i].key == key {
			return i
		}
	}
	return -1
}

// Get returns the value for key and whether it is present.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.Index(key); i >= 0 {
		return o.entries[i].val, true
	}
	return nil, false
}

// Value returns the value for key, nil when absent.
func (o *Object) Value(key string) any {
	v, _ := o.Get(key)
	return v
}

// At returns the key and value at position i of the key order
// (0 <= i < Len).
func (o *Object) At(i int) (key string, value any) {
	e := &o.entries[i]
	return e.key, e.val
}

// SetAt replaces the value at position i of the key order (0 <= i < Len);
// the key keeps its position.
func (o *Object) SetAt(i int, value any) { o.entries[i].val = value }

// Has reports whether key is present.
func (o *Object) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Set stores value under key. A new key takes its JavaScript position; an
// existing key keeps its position.
func (o *Object) Set(key string, value any) {
	if i := o.Index(key); i >= 0 {
		o.entries[i].val = value
		return
	}
	at := len(o.entries)
	if idx, ok := ArrayIndex(key); ok {
		for i, e := range o.entries {
			j, isIdx := ArrayIndex(e.key)
			// j == idx would be key itself, which find did not see: ">="
			// is the same test.
			//mutants:equivalent CONDITIONALS_BOUNDARY
			if !isIdx || j > idx {
				at = i
				break
			}
		}
	}
	if at == len(o.entries) {
		o.entries = append(o.entries, entry{key, value})
		if o.index != nil {
			o.index[key] = at
		} else {
			o.reindex() // builds the index when the object outgrows scanning
		}
		return
	}
	o.entries = slices.Insert(o.entries, at, entry{key, value})
	o.reindex()
}

// reindex rebuilds the index after a change of positions.
func (o *Object) reindex() {
	if len(o.entries) <= indexAbove {
		o.index = nil
		return
	}
	o.index = make(map[string]int, len(o.entries))
	for i, e := range o.entries {
		o.index[e.key] = i
	}
}

// Delete removes key if present.
func (o *Object) Delete(key string) {
	if o == nil {
		return
	}
	i := o.Index(key)
	if i < 0 {
		return
	}
	o.entries = slices.Delete(o.entries, i, i+1)
	o.reindex()
}

// Clone returns a deep copy of o.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := NewObjectSize(len(o.entries))
	for _, e := range o.entries {
		c.entries = append(c.entries, entry{e.key, CloneValue(e.val)})
	}
	if o.index != nil {
		c.reindex()
	}
	return c
}

// CloneValue returns a deep copy of a document value.
func CloneValue(v any) any {
	switch v := v.(type) {
	case *Object:
		return v.Clone()
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = CloneValue(e)
		}
		return c
	}
	return v
}

// ArrayIndex reports whether key is a canonical JavaScript array index
// (a decimal integer below 2^32-1 without leading zeros).
func ArrayIndex(key string) (uint64, bool) {
	// A name fails on its first byte, cheaply; ParseUint refuses the
	// rest of what is not a decimal number.
	if key == "" || len(key) > 10 || key[0] < '0' || key[0] > '9' || len(key) > 1 && key[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}
