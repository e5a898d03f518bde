package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// Agent describes one agent to the resolver: the id that --agent and
// default_agent name and that keys the agent's controls block, and what
// that block accepts.
type Agent struct {
	// ID is the agent id. It follows the profile id syntax ([ValidID]) and
	// must not name a generic control (model, deepwork, …).
	ID string
	// Block is a JSON Schema object, as JSON text, that the agent's
	// controls block must satisfy besides the controls every agent block
	// takes (the profile schema's #/$defs/agentControls), for example
	// {"properties": {"allow_external_deepwork_jobs": {"type": "boolean"}}}.
	// It may refer to the profile schema's definitions ("#/$defs/strings")
	// and must not have a $ref of its own; "" adds nothing. It may use the
	// draft 2020-12 keywords the validator evaluates: type, enum, const,
	// minLength, maxLength, pattern, minimum, maximum, exclusiveMinimum,
	// exclusiveMaximum, multipleOf, required, properties,
	// additionalProperties, minProperties, maxProperties, items,
	// prefixItems, minItems, maxItems, uniqueItems, allOf, anyOf, oneOf,
	// not, if, then, else, $ref and $defs, and the annotations (title,
	// description, default, examples, format, …); [NewAgents] refuses any
	// other keyword.
	Block string
}

// Agents is the ordered set of agents a resolution knows, the first being
// the default agent. It decides what the documents may say about agents:
// default_agent must name one of them, and each one's controls block
// (controls.<id>) is checked against the agent's schema, gets the
// camelCase twins of its controls and a typed view ([Controls].Agents).
// Any other key of controls is an ordinary control, kept as written. [Load]
// selects one of them for the run.
//
// An *Agents is immutable and safe for concurrent use. The nil *Agents
// knows no agent: every default_agent is invalid and [Load] fails with an
// [*AgentError]. Package composite builds the set from its adapters.
type Agents struct {
	ids     []string
	schemas *schemaSet
}

// NewAgents returns the set of the given agents, in order. It fails when
// an id is invalid, repeated or the name of a generic control, or when a
// block schema does not compile.
func NewAgents(agents ...Agent) (*Agents, error) {
	a := &Agents{}
	for _, ag := range agents {
		if !ValidID(ag.ID) {
			return nil, fmt.Errorf("agent id %q: not a filesystem-safe id", ag.ID)
		}
		if slices.Contains(a.ids, ag.ID) {
			return nil, fmt.Errorf("agent id %q: given twice", ag.ID)
		}
		a.ids = append(a.ids, ag.ID)
	}
	s, err := compileSchemas(agents)
	if err != nil {
		return nil, err
	}
	a.schemas = s
	return a, nil
}

// IDs returns the agent ids in order; the first is the default agent.
func (a *Agents) IDs() []string {
	if a == nil {
		return nil
	}
	return slices.Clone(a.ids)
}

// Default returns the default agent's id, "" for a set without agents.
func (a *Agents) Default() string {
	if a == nil || len(a.ids) == 0 {
		return ""
	}
	return a.ids[0]
}

// Has reports whether id is one of the agents.
func (a *Agents) Has(id string) bool { return a != nil && slices.Contains(a.ids, id) }

// list returns the ids without copying them; callers only read.
func (a *Agents) list() []string {
	if a == nil {
		return nil
	}
	return a.ids
}

// Schemas returns the JSON Schema documents, as JSON text, that settings
// and profile files are checked against for this set: the embedded
// schemas with default_agent naming the set's ids and one controls block
// per agent. Their objects are open (additionalProperties), as upstream's
// are, so a misspelled key passes a run; a linter reads the documents to
// name the keys they do not know.
func (a *Agents) Schemas() (settings, profile []byte) {
	return a.schemaSet().documents()
}

// schemaSet returns the compiled schemas of the set.
func (a *Agents) schemaSet() *schemaSet {
	if a == nil {
		return noAgentSchemas()
	}
	return a.schemas
}

// noAgentSchemas are the schemas of the set without agents.
var noAgentSchemas = sync.OnceValue(func() *schemaSet {
	s, err := compileSchemas(nil)
	if err != nil {
		panic(fmt.Sprintf("resolve: embedded schemas: %v", err)) // fixed at build time
	}
	return s
})

// composeSchemas returns the settings and profile schema documents for
// agents: the embedded schemas with default_agent's enum listing the ids
// and one block per agent under controls.
// Numbers are json.Number, as written.
func composeSchemas(agents []Agent) (settingsDoc, profileDoc map[string]any, err error) {
	if settingsDoc, err = embeddedSchema(settingsSchema.file()); err != nil {
		return nil, nil, err
	}
	if profileDoc, err = embeddedSchema(profileSchema.file()); err != nil {
		return nil, nil, err
	}
	ids := make([]any, len(agents))
	for i, ag := range agents {
		ids[i] = ag.ID
	}
	defaultAgent, err := member(settingsDoc, "properties", "default_agent")
	if err != nil {
		return nil, nil, fmt.Errorf("settings schema: %w", err)
	}
	defaultAgent["enum"] = ids
	controls, err := member(profileDoc, "properties", "controls", "properties")
	if err != nil {
		return nil, nil, fmt.Errorf("profile schema: %w", err)
	}
	for _, ag := range agents {
		if _, taken := controls[ag.ID]; taken {
			return nil, nil, fmt.Errorf("agent id %q: names a generic control", ag.ID)
		}
		block := map[string]any{}
		if ag.Block != "" {
			if err := decodeJSON([]byte(ag.Block), &block); err != nil {
				return nil, nil, fmt.Errorf("agent %q: block schema: %w", ag.ID, err)
			}
			if _, ok := block["$ref"]; ok {
				return nil, nil, fmt.Errorf("agent %q: block schema: has a $ref of its own", ag.ID)
			}
		}
		block["$ref"] = "#/$defs/agentControls"
		controls[ag.ID] = block
	}
	return settingsDoc, profileDoc, nil
}

// decodeJSON decodes one JSON value, numbers as json.Number; anything but
// white space after it is an error, as for json.Unmarshal.
func decodeJSON(data []byte, v any) error {
	if !json.Valid(data) {
		return json.Unmarshal(data, v) // its error names the problem
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// embeddedSchema decodes one of the embedded schema files.
func embeddedSchema(name string) (map[string]any, error) {
	data, err := schemaFiles.ReadFile("schema/" + name)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := decodeJSON(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return doc, nil
}

// member walks doc along the keys, each naming an object.
func member(doc map[string]any, keys ...string) (map[string]any, error) {
	cur := doc
	for i, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%v: not an object", keys[:i+1])
		}
		cur = next
	}
	return cur, nil
}
