package resolve

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"
)

// internalAgents is an agent set shaped like the adapters' registry: pi,
// whose block takes one more key, then claude.
var internalAgents = sync.OnceValue(func() *Agents {
	a, err := NewAgents(Agent{ID: "pi", Block: `{"properties": {"allow_external_deepwork_jobs": {"type": "boolean"}}}`}, Agent{ID: "claude"})
	if err != nil {
		panic(err)
	}
	return a
})

func TestSchemasCompile(t *testing.T) {
	for name, s := range map[string]*schemaSet{"no agents": noAgentSchemas(), "pi and claude": internalAgents().schemaSet()} {
		if s.fast[settingsSchema] == nil || s.fast[profileSchema] == nil || s.full[settingsSchema] == nil || s.full[profileSchema] == nil {
			t.Errorf("%s: schemas %+v, want all four", name, s)
		}
	}
}

func TestCompileFastRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, why, schema string
	}{
		{"unknown keyword", "a keyword the check does not evaluate would be ignored silently", `{"type": "string", "maxLength": 3}`},
		{"unknown keyword in a definition", "definitions are compiled even when unused", `{"$defs": {"a": {"format": "uri"}}}`},
		{"nested definitions", "references resolve from the root only", `{"properties": {"a": {"$defs": {}}}}`},
		{"remote reference", "only local definitions are known", `{"$ref": "other.json#/$defs/a"}`},
		{"missing definition", "a dangling reference cannot be checked", `{"$ref": "#/$defs/a"}`},
		{"enum of objects", "the check compares scalars only", `{"enum": [{"a": 1}]}`},
		{"tuple items", "2020-12 items is a single schema", `{"items": [{"type": "string"}]}`},
		{"unknown type", "no such JSON type", `{"type": "text"}`},
		{"bad pattern", "the pattern must compile", `{"pattern": "("}`},
		{"not JSON", "the document must parse", `{`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if s, err := compileFast([]byte(tc.schema)); err == nil {
				t.Errorf("compileFast(%s) = %+v, want an error (%s)", tc.schema, s, tc.why)
			}
		})
	}
}

// TestFastSchemaKeywords checks keyword semantics our two schemas cannot
// tell apart (their oneOf branches exclude each other, for one) against the
// full validator on small schemas.
func TestFastSchemaKeywords(t *testing.T) {
	for _, tc := range []struct {
		name, why, schema string
		doc               any
	}{
		{"oneOf ambiguous", "two matching branches fail oneOf", `{"oneOf": [{"type": "string"}, {"minLength": 1}]}`, "a"},
		{"oneOf single", "one matching branch passes", `{"oneOf": [{"type": "string"}, {"minLength": 1}]}`, ""},
		{"anyOf none", "no matching branch fails anyOf", `{"anyOf": [{"type": "string"}, {"type": "boolean"}]}`, 1.0},
		{"integer", "a whole number is an integer", `{"type": ["integer", "null"]}`, 2.0},
		{"not integer", "a fraction is not", `{"type": "integer"}`, 2.5},
		{"nan", "a non-finite number fails any schema", `{"not": {"type": "string"}}`, math.NaN()},
		{"true schema", "a boolean schema does not look at the value", `{"properties": {"a": true}}`, objOfInternal("a", math.Inf(1))},
		{"false schema", "additionalProperties false rejects any other member", `{"additionalProperties": false, "properties": {"a": {}}}`, objOfInternal("a", 1.0, "b", nil)},
		{"minLength runes", "length counts characters, not bytes", `{"minLength": 2}`, "é"},
		{"enum null", "null compares equal to null only", `{"enum": [null, "a"]}`, nil},
		{"enum bool", "true is not the string true", `{"enum": ["true"]}`, true},
		{"recursive reference", "a definition may refer to itself", `{"$ref": "#/$defs/t", "$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}}}`, []any{[]any{}, []any{[]any{"x"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast, err := compileFast([]byte(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource("https://vfsim.invalid/test.json", raw); err != nil {
				t.Fatal(err)
			}
			lib := c.MustCompile("https://vfsim.invalid/test.json")
			want := lib.Validate(plainValue(tc.doc)) == nil
			if got := fast.valid(tc.doc); got != want {
				t.Errorf("valid(%s) = %v, library says %v (%s)", Stringify(tc.doc, ""), got, want, tc.why)
			}
		})
	}
}

// objOfInternal builds an Object from alternating keys and values.
func objOfInternal(kv ...any) *Object {
	o := NewObject()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

func TestFastSchemaValidPathAllocatesNothing(t *testing.T) {
	doc, err := parseYAML([]byte("id: a\ncontrols: {model: m, skills: [x, {id: y, references: [{file: a}]}], append_system_prompt: [s, {repo_file: r}], pi: {args: [--x]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	fast := internalAgents().schemaSet().fast[profileSchema]
	if !fast.valid(doc) {
		t.Fatal("precondition: the document is valid")
	}
	// AllocsPerRun counts every goroutine's allocations: a stray one from
	// the runtime (seen under -race) can tip one measurement, while an
	// allocation in valid shows in all of them.
	least := math.Inf(1)
	for range 5 {
		least = min(least, testing.AllocsPerRun(20, func() { fast.valid(doc) }))
	}
	if least != 0 {
		t.Errorf("valid allocates %v times per run in the best of 5 measurements, want 0", least)
	}
}

// TestFastSchemaAgreesWithLibrary generates documents around both schemas,
// valid ones and mutations of them, and checks that the fast verdict is the
// full validator's.
func TestFastSchemaAgreesWithLibrary(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind schemaKind
	}{
		{"settings.schema.json", settingsSchema},
		{"profile.schema.json", profileSchema},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := internalAgents().schemaSet()
			data := s.settingsJSON
			if tc.kind == profileSchema {
				data = s.profileJSON
			}
			var root map[string]any
			if err := json.Unmarshal(data, &root); err != nil {
				t.Fatal(err)
			}
			g := docGen{defs: root["$defs"].(map[string]any)}
			verdicts := map[bool]int{}
			rapid.Check(t, func(t *rapid.T) {
				doc := g.value(t, root, 0)
				verdicts[assertAgreement(t, tc.kind, doc)]++
			})
			t.Logf("verdicts (valid: count): %v", verdicts)
			// Both verdicts must occur, or the property proves little.
			if verdicts[true] == 0 || verdicts[false] == 0 {
				t.Errorf("verdicts %v: want both valid and invalid documents", verdicts)
			}
		})
	}
}

// assertAgreement fails unless the fast check and the full validator agree
// on doc; it returns the verdict.
func assertAgreement(t interface {
	Helper()
	Fatalf(string, ...any)
}, which schemaKind, doc any) bool {
	t.Helper()
	s := internalAgents().schemaSet()
	err := s.full[which].Validate(plainValue(doc))
	if got := s.fast[which].valid(doc); got != (err == nil) {
		t.Fatalf("fast check says valid=%v, library says %v, for %s", got, err, Stringify(doc, ""))
	}
	return err == nil
}

// FuzzSchemaAgreement parses arbitrary YAML and checks that the fast check
// and the full validator agree on it under both schemas.
func FuzzSchemaAgreement(f *testing.F) {
	for _, s := range []string{
		"",
		"default_profile: a\nprofile_sources: [{path: ./p, only: [a]}, {github: a/b, ref: main}]\n",
		"profile_sources: [{github: acme/x, uri: y}, {path: a, ref: b}]\nremote_settings: [{uri: u, path: p}]\n",
		"default_agent: pi\nstartup: {ascii_art: yes}\nenterprise: {x: 1}\ncache_directory: ''\n",
		"id: a-b\ninherits: [b, -c]\nstate_persistence: {a: symlink, b: keep}\n",
		"controls: {skills: [x, {id: y, references: [{file: a}, {repo_file: b, file: c}]}]}\n",
		"controls: {append_system_prompt: [s, {file: f}], pi: {allow_external_deepwork_jobs: no, environment: {A: .nan}}}\n",
		"controls: {deepwork: {jobs: [a_b, B]}, claude: {args: [1]}}\n",
		"- a\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := parseYAML(data)
		if err != nil {
			return
		}
		assertAgreement(t, settingsSchema, doc)
		assertAgreement(t, profileSchema, doc)
	})
}

// docGen draws document values shaped by a schema: mostly what the schema
// asks for, with mutations (other types, missing or extra members, strings
// that break patterns, enums and lengths) at every level.
type docGen struct {
	defs map[string]any
}

var (
	genStrings = []string{
		"", "a", "x", "B", "a_b", "a.b", "a-b", "-a", "a-", "1", "é", "a b", "\n",
		"a/b", "acme/tools", "A_b.c-d/e-f", "a/b/c", "/a",
		"pi", "claude", "symlink", "discard", "warn", "error", "prompt", "keep",
		"./profiles", "../settings.yml", "main",
	}
	genKeys = []string{
		"path", "uri", "github", "ref", "only", "except", "file", "repo_file", "id",
		"references", "model", "skills", "append_system_prompt", "jobs", "extra", "0", "17",
	}
	genNumbers = []float64{0, 1, 1.5, -2, 1e21, math.NaN(), math.Inf(1)}
)

func (g docGen) value(t *rapid.T, schema any, depth int) any {
	node, ok := schema.(map[string]any)
	if !ok || depth > 6 || rapid.IntRange(0, 11).Draw(t, "mutate") == 0 {
		return g.arbitrary(t, depth)
	}
	chain := g.chain(t, node, nil)
	for _, n := range chain {
		if e, ok := n["enum"].([]any); ok {
			if rapid.IntRange(0, 5).Draw(t, "off-enum") == 0 {
				return rapid.SampledFrom(genStrings).Draw(t, "string")
			}
			return rapid.SampledFrom(e).Draw(t, "enum")
		}
	}
	typ := ""
	for _, n := range chain {
		if s, ok := n["type"].(string); ok && typ == "" {
			typ = s
		}
	}
	switch typ {
	case "string":
		return rapid.SampledFrom(genStrings).Draw(t, "string")
	case "boolean":
		return rapid.Bool().Draw(t, "bool")
	case "array":
		var items any
		for _, n := range chain {
			if i, ok := n["items"]; ok && items == nil {
				items = i
			}
		}
		list := make([]any, rapid.IntRange(0, 3).Draw(t, "len"))
		for i := range list {
			list[i] = g.value(t, items, depth+1)
		}
		return list
	case "object":
		return g.object(t, chain, depth)
	}
	return g.arbitrary(t, depth)
}

// chain returns node, the definitions it refers to, and one drawn branch of
// each oneOf and anyOf among them.
func (g docGen) chain(t *rapid.T, node map[string]any, out []map[string]any) []map[string]any {
	out = append(out, node)
	if ref, ok := node["$ref"].(string); ok {
		if d, ok := g.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any); ok {
			out = g.chain(t, d, out)
		}
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if branches, ok := node[kw].([]any); ok {
			if b, ok := rapid.SampledFrom(branches).Draw(t, kw).(map[string]any); ok {
				out = g.chain(t, b, out)
			}
		}
	}
	return out
}

func (g docGen) object(t *rapid.T, chain []map[string]any, depth int) *Object {
	o := NewObject()
	props := map[string]any{}
	var names, required []string
	for _, n := range chain {
		p, _ := n["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(p)) {
			if _, seen := props[name]; !seen {
				props[name] = p[name]
				names = append(names, name)
			}
		}
		r, _ := n["required"].([]any)
		for _, name := range r {
			required = append(required, name.(string))
		}
	}
	for _, name := range required {
		if rapid.IntRange(0, 9).Draw(t, "drop-required") > 0 {
			o.Set(name, g.value(t, props[name], depth+1))
		}
	}
	for _, name := range names {
		if !o.Has(name) && rapid.IntRange(0, 2).Draw(t, "optional") == 0 {
			o.Set(name, g.value(t, props[name], depth+1))
		}
	}
	if rapid.IntRange(0, 5).Draw(t, "extra") == 0 {
		o.Set(rapid.SampledFrom(genKeys).Draw(t, "key"), g.arbitrary(t, depth+1))
	}
	return o
}

// arbitrary draws any document value.
func (g docGen) arbitrary(t *rapid.T, depth int) any {
	max := 5
	if depth > 4 {
		max = 3
	}
	switch rapid.IntRange(0, max).Draw(t, "kind") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2:
		return rapid.SampledFrom(genNumbers).Draw(t, "number")
	case 3:
		return rapid.SampledFrom(genStrings).Draw(t, "string")
	case 4:
		list := make([]any, rapid.IntRange(0, 2).Draw(t, "len"))
		for i := range list {
			list[i] = g.arbitrary(t, depth+1)
		}
		return list
	}
	o := NewObject()
	for range rapid.IntRange(0, 3).Draw(t, "members") {
		o.Set(rapid.SampledFrom(genKeys).Draw(t, "key"), g.arbitrary(t, depth+1))
	}
	return o
}
