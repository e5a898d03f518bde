package composite

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// adapters returns the registered adapters in registry order. Adding an
// agent adds one line here.
func adapters() []Adapter {
	return []Adapter{
		Pi{},
		Claude{},
	}
}

// UnknownAgentError reports an agent id without an adapter.
type UnknownAgentError struct {
	// ID is the requested agent id.
	ID string
}

// Error returns upstream's message.
func (e *UnknownAgentError) Error() string {
	ids := make([]string, 0, 2)
	for _, a := range adapters() {
		ids = append(ids, a.ID())
	}
	return fmt.Sprintf("Unknown agent '%s'. Expected one of: %s.", e.ID, strings.Join(ids, ", "))
}

// Lookup returns the adapter registered under id.
func Lookup(id string) (Adapter, error) {
	for _, a := range adapters() {
		if a.ID() == id {
			return a, nil
		}
	}
	return nil, &UnknownAgentError{ID: id}
}

//go:embed assets
var embedded embed.FS

// DefaultAssets returns Outfitter's own small embedded assets: a bundled
// skill with one reference and stand-ins for the pi launch extension and
// its support files. The composite's layout depends on their presence,
// never on their bytes.
func DefaultAssets() fs.FS { return defaultAssets() }

// defaultAssets is the one value DefaultAssets returns, so that what is
// derived from the immutable embedded files can be computed once.
var defaultAssets = sync.OnceValue(func() fs.FS {
	sub, err := fs.Sub(embedded, "assets")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
})
