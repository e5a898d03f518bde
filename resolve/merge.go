package resolve

import (
	"slices"

	"github.com/outfitter-go/vfsim/internal/jsstack"
)

// arrayPolicy says how a higher-precedence list combines with a lower one.
type arrayPolicy int

const (
	policyReplace arrayPolicy = iota
	policyAppend
	policyPrepend
	policyAppendList
	policyPrependList
	policyAppendUnique
	policyPrependUnique
	policyUniqueBy
)

// policy is the merge rule for one path of a document.
type policy struct {
	kind arrayPolicy
	// For policyUniqueBy: the identity of an item, whether the higher list
	// comes first, and whether the first (else the last) occurrence wins.
	key         func(any) string
	prepend     bool
	firstWinner bool
}

// policyFunc returns the rule for a dot-joined path, or nil for the defaults.
type policyFunc func(path string) *policy

// mergeObjects merges higher over lower as upstream's generic merger does:
// a shallow copy of lower, then every key of higher merged member-wise.
// Neither input is modified; the result shares no mutable values with them.
func mergeObjects(lower, higher *Object, path string, pf policyFunc) *Object {
	out := lower.Clone()
	if out == nil {
		out = NewObject()
	}
	return mergeInto(out, higher, path, pf)
}

// mergeInto merges higher into dst in place and returns dst. dst must share
// no mutable values with higher or with anything else the caller keeps;
// higher is not modified and the result shares nothing with it.
func mergeInto(dst, higher *Object, path string, pf policyFunc) *Object {
	for j := range higher.Len() {
		key, val := higher.At(j)
		i := dst.Index(key)
		if i < 0 {
			dst.Set(key, CloneValue(val))
			continue
		}
		_, lower := dst.At(i)
		dst.SetAt(i, mergeMember(lower, val, joinPath(path, key), pf))
	}
	return dst
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// mergeMember merges one member; lower belongs to the object being merged
// into and may be modified in place.
func mergeMember(lower, higher any, path string, pf policyFunc) any {
	var p *policy
	if pf != nil {
		p = pf(path)
	}
	if p != nil && (p.kind == policyAppendList || p.kind == policyPrependList) {
		l, h := asList(lower), asList(higher)
		if p.kind == policyAppendList {
			return concat(l, h)
		}
		return concat(h, l)
	}
	if h, ok := higher.([]any); ok {
		l, _ := lower.([]any)
		if p == nil {
			p = &policy{kind: policyReplace}
		}
		return mergeArrays(l, h, p)
	}
	lo, lok := lower.(*Object)
	ho, hok := higher.(*Object)
	if lok && hok && lo != nil && ho != nil {
		return mergeInto(lo, ho, path, pf)
	}
	return CloneValue(higher)
}

// asList coerces a value to a list: a list stays, anything else (null
// included) becomes a one-element list.
func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{v}
}

func concat(a, b []any) []any {
	out := make([]any, 0, len(a)+len(b))
	for _, v := range a {
		out = append(out, CloneValue(v))
	}
	for _, v := range b {
		out = append(out, CloneValue(v))
	}
	return out
}

// mergeArrays combines two lists with a policy; lower may be nil.
func mergeArrays(lower, higher []any, p *policy) []any {
	switch p.kind {
	case policyAppend, policyAppendList:
		return concat(lower, higher)
	case policyPrepend, policyPrependList:
		return concat(higher, lower)
	case policyAppendUnique:
		return uniqueBy(concat(lower, higher), defaultKey, true)
	case policyPrependUnique:
		return uniqueBy(concat(higher, lower), defaultKey, true)
	case policyUniqueBy:
		all := concat(lower, higher)
		if p.prepend {
			all = concat(higher, lower)
		}
		key := p.key
		if key == nil {
			key = defaultKey
		}
		return uniqueBy(all, key, p.firstWinner)
	}
	return concat(nil, higher)
}

// uniqueBy removes items whose key was already seen. With first, the first
// occurrence survives; otherwise the last does, survivors keeping their
// relative order.
func uniqueBy(items []any, key func(any) string, first bool) []any {
	keys := make([]string, len(items))
	for i, v := range items {
		keys[i] = key(v)
	}
	out := make([]any, 0, len(items))
	for i, v := range items {
		var dup bool
		if first {
			dup = slices.Contains(keys[:i], keys[i])
		} else {
			dup = slices.Contains(keys[i+1:], keys[i])
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

// defaultKey is the dedupe identity of the …Unique policies: a string is
// itself; anything else is its JSON text with object keys sorted.
func defaultKey(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return StableJSON(v)
}

// StableJSON encodes a document value compactly like [Stringify], with
// every object's keys sorted: equal values give equal text, whatever the
// key order they were built in. It is the identity of values in
// de-duplicating merges.
func StableJSON(v any) string {
	var buf [128]byte // most identities fit; a longer one grows on the heap
	return string(appendSorted(buf[:0], v))
}

func appendSorted(b []byte, v any) []byte {
	switch v := v.(type) {
	case *Object:
		keys := v.Keys()
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsstack.AppendString(b, k)
			b = append(b, ':')
			b = appendSorted(b, v.Value(k))
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSorted(b, e)
		}
		return append(b, ']')
	case []string:
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsstack.AppendString(b, s)
		}
		return append(b, ']')
	}
	return jsstack.AppendStringify(b, v, "")
}
