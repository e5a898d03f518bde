package resolve

import "github.com/outfitter-go/vfsim/internal/jsstack"

// Object is an ordered mapping from strings to values, with the key order
// of a JavaScript object: keys that are array indexes ("0", "17") come
// first in ascending numeric order, then every other key in insertion
// order. Values are nil, bool, float64, string, []any or *Object, the
// shapes a YAML or JSON document decodes to. The zero value is empty and
// ready to use; an Object is not safe for concurrent mutation. It is the
// JavaScript object twin of the internal jsstack package.
type Object = jsstack.Object

// NewObject returns an empty Object.
func NewObject() *Object { return jsstack.NewObject() }

// CloneValue returns a deep copy of a document value.
func CloneValue(v any) any { return jsstack.CloneValue(v) }

// Stringify encodes a document value (nil, bool, float64, string, []any,
// *Object, plus the Go integer types) exactly as JavaScript's
// JSON.stringify(value, null, indent) does: object keys in [Object] order,
// numbers in JavaScript notation, non-finite numbers as null, and only the
// characters JSON requires escaped. An empty indent gives the compact form.
// Values of other types encode as null.
func Stringify(v any, indent string) []byte { return jsstack.Stringify(v, indent) }

// AppendStringify appends [Stringify] of v with indent to dst and returns
// the extended buffer.
func AppendStringify(dst []byte, v any, indent string) []byte {
	return jsstack.AppendStringify(dst, v, indent)
}
