package composite

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/outfitter-go/vfsim/resolve"
)

// DefaultRegistry returns Outfitter's agents: pi, the default agent, and
// Claude Code. Adding an agent adds one line here.
func DefaultRegistry() *Registry { return defaultRegistry() }

var defaultRegistry = sync.OnceValue(func() *Registry {
	r, err := NewRegistry(
		Pi{},
		Claude{},
	)
	if err != nil {
		panic(err) // the adapters are fixed at build time
	}
	return r
})

// Registry is the set of agents a run can use: their adapters in order,
// the first being the default agent. It is the one place that knows which
// agents exist; [Registry.Agents] tells the resolver. A Registry is
// immutable and safe for concurrent use.
type Registry struct {
	adapters []Adapter
	agents   *resolve.Agents
}

// NewRegistry returns the registry of the adapters, in order. It fails
// when the resolver refuses their ids or block schemas (see
// [resolve.NewAgents]).
func NewRegistry(adapters ...Adapter) (*Registry, error) {
	specs := make([]resolve.Agent, len(adapters))
	for i, a := range adapters {
		specs[i] = resolve.Agent{ID: a.ID()}
		if b, ok := a.(BlockSchemaAdapter); ok {
			specs[i].Block = b.BlockSchema()
		}
	}
	agents, err := resolve.NewAgents(specs...)
	if err != nil {
		return nil, fmt.Errorf("agent registry: %w", err)
	}
	return &Registry{adapters: slices.Clone(adapters), agents: agents}, nil
}

// Agents returns the registered agents as the resolver knows them; give
// it to [resolve.Options].Agents.
func (r *Registry) Agents() *resolve.Agents { return r.agents }

// IDs returns the agent ids in order; the first is the default agent.
func (r *Registry) IDs() []string { return r.agents.IDs() }

// Lookup returns the adapter registered under id, or a
// [*resolve.AgentError] naming the registered ones.
func (r *Registry) Lookup(id string) (Adapter, error) {
	for _, a := range r.adapters {
		if a.ID() == id {
			return a, nil
		}
	}
	return nil, &resolve.AgentError{Agent: id, Known: r.IDs()}
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
