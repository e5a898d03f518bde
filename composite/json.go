package composite

import (
	"sync"

	"github.com/outfitter-go/vfsim/resolve"
)

// jsonBufs holds the buffers json2 encodes into, so that the only
// allocation of an encoding is its string.
var jsonBufs = sync.Pool{New: func() any { return new([]byte) }}

// json2 is JSON.stringify(v, null, 2) followed by a newline.
func json2(v any) string {
	bp := jsonBufs.Get().(*[]byte)
	b := append(resolve.AppendStringify((*bp)[:0], v, "  "), '\n')
	s := string(b)
	*bp = b
	jsonBufs.Put(bp)
	return s
}

// compactJSON is JSON.stringify(v) without indentation.
func compactJSON(v any) string { return string(resolve.Stringify(v, "")) }

// stableJSON is JSON with object keys sorted, used for identities.
func stableJSON(v any) string { return resolve.StableJSON(v) }
