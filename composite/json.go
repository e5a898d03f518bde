package composite

import "github.com/outfitter-go/vfsim/resolve"

// json2 is JSON.stringify(v, null, 2) followed by a newline.
func json2(v any) string { return string(resolve.Stringify(v, "  ")) + "\n" }

// compactJSON is JSON.stringify(v) without indentation.
func compactJSON(v any) string { return string(resolve.Stringify(v, "")) }

// stableJSON is JSON with object keys sorted, used for identities.
func stableJSON(v any) string { return resolve.StableJSON(v) }
