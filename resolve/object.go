package resolve

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
	keys []string
	vals map[string]any
}

// NewObject returns an empty Object.
func NewObject() *Object { return &Object{} }

// Len returns the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Keys returns the keys in order. The caller may modify the returned slice.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return slices.Clone(o.keys)
}

// Get returns the value for key and whether it is present.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// Has reports whether key is present.
func (o *Object) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Set stores value under key. A new key takes its JavaScript position; an
// existing key keeps its position.
func (o *Object) Set(key string, value any) {
	if o.vals == nil {
		o.vals = make(map[string]any)
	}
	if _, ok := o.vals[key]; !ok {
		o.insertKey(key)
	}
	o.vals[key] = value
}

func (o *Object) insertKey(key string) {
	idx, ok := arrayIndex(key)
	if !ok {
		o.keys = append(o.keys, key)
		return
	}
	at := len(o.keys)
	for i, k := range o.keys {
		j, isIdx := arrayIndex(k)
		if !isIdx || j > idx {
			at = i
			break
		}
	}
	o.keys = slices.Insert(o.keys, at, key)
}

// Delete removes key if present.
func (o *Object) Delete(key string) {
	if o == nil {
		return
	}
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return k == key })
}

// Clone returns a deep copy of o.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := &Object{keys: slices.Clone(o.keys), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = CloneValue(v)
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

// arrayIndex reports whether key is a canonical JavaScript array index
// (a decimal integer below 2^32-1 without leading zeros).
func arrayIndex(key string) (uint64, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}
