package resolve

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"
)

// The JSON Schema library is the reference of the validator: these tests
// compile the same schema documents with it and check that every document
// gets the same issues, in the same order, from both.

// librarySchemas compiles a schema set's documents with the library, once
// per set.
var librarySchemas sync.Map // *schemaSet -> *[2]*jsonschema.Schema

func libraryCompile(t fataler, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	url := "https://vfsim.invalid/schema/" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("library: %s: %v", name, err)
	}
	return s
}

func (s *schemaSet) library(t fataler) *[2]*jsonschema.Schema {
	t.Helper()
	if l, ok := librarySchemas.Load(s); ok {
		return l.(*[2]*jsonschema.Schema)
	}
	settings, profile := s.documents()
	l := &[2]*jsonschema.Schema{
		settingsSchema: libraryCompile(t, settingsSchema.file(), settings),
		profileSchema:  libraryCompile(t, profileSchema.file(), profile),
	}
	librarySchemas.Store(s, l)
	return l
}

// fromLibrary converts the library's error tree node by node.
func fromLibrary(e *jsonschema.ValidationError) *checkError {
	out := &checkError{kind: e.ErrorKind, location: e.InstanceLocation}
	for _, c := range e.Causes {
		out.causes = append(out.causes, fromLibrary(c))
	}
	return out
}

// libraryIssues are the issues the library's validator gives doc.
func (s *schemaSet) libraryIssues(t fataler, which schemaKind, doc any, file string) []*Issue {
	t.Helper()
	err := s.library(t)[which].Validate(plainValue(doc))
	if err == nil {
		return nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		t.Fatalf("library: %v", err)
	}
	return schemaIssues(fromLibrary(verr), doc, file)
}

func issueLines(issues []*Issue) []string {
	var out []string
	for _, i := range issues {
		out = append(out, i.File+" "+i.Pointer+" "+i.Message)
	}
	return out
}

// sameIssues checks one document against the library.
func sameIssues(t fataler, s *schemaSet, which schemaKind, doc any, what string) {
	t.Helper()
	got := issueLines(s.validate(which, doc, "doc.yml"))
	want := issueLines(s.libraryIssues(t, which, doc, "doc.yml"))
	if !slices.Equal(got, want) {
		t.Fatalf("%s (%s):\n validator: %q\n library:   %q", what, which, got, want)
	}
}

// blockAgents is an agent set whose third agent's block uses every
// keyword the validator evaluates.
var blockAgents = sync.OnceValue(func() *Agents {
	a, err := NewAgents(
		Agent{ID: "pi", Block: `{"properties": {"allow_external_deepwork_jobs": {"type": "boolean"}}}`},
		Agent{ID: "claude"},
		Agent{ID: "x", Block: `{
			"required": ["model"], "minProperties": 2, "maxProperties": 4,
			"properties": {
				"n": {"type": ["integer", "null"], "minimum": 1, "maximum": 10, "multipleOf": 0.5},
				"e": {"exclusiveMinimum": 0, "exclusiveMaximum": 3},
				"c": {"const": {"a": [1, "b"]}},
				"s": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$", "format": "email"},
				"l": {"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": true, "prefixItems": [{"type": "string"}], "items": {"type": "number"}},
				"a": {"allOf": [{"type": "object"}, {"required": ["k"]}]},
				"o": {"anyOf": [{"type": "boolean"}, {"enum": [1, "one", null]}]},
				"i": {"if": {"type": "string"}, "then": {"minLength": 3}, "else": {"type": "number"}},
				"no": {"not": {"type": "string"}},
				"f": false,
				"strs": {"$ref": "#/$defs/strings"}
			},
			"additionalProperties": {"type": ["string", "boolean", "number", "array", "object"]}
		}`},
	)
	if err != nil {
		panic(err)
	}
	return a
})

// TestValidatorMatchesTheLibraryOnFiles checks every settings and profile
// file of the catalog (and of upstream's fixtures when they are there)
// with both validators, under three agent sets.
func TestValidatorMatchesTheLibraryOnFiles(t *testing.T) {
	roots := []string{"../fixtures/catalog", "../sim/testdata"}
	if dir := os.Getenv("VFSIM_UPSTREAM_FIXTURES"); dir != "" {
		roots = append(roots, dir)
	}
	files := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".yaml")) {
				return err
			}
			which := profileSchema
			if d.Name() == "settings.yml" || d.Name() == "settings.yaml" {
				which = settingsSchema
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			doc, err := parseYAML(data)
			if err != nil {
				return nil // not a document the schemas see
			}
			files++
			for _, s := range []*schemaSet{noAgentSchemas(), internalAgents().schemaSet(), blockAgents().schemaSet()} {
				sameIssues(t, s, which, doc, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Fatalf("%d documents found, want the catalog's (at least 50)", files)
	}
}

// schemaWords are the keys and strings the generated documents use: the
// schemas' own property names and values on either side of their rules.
var schemaWords = []string{
	"default_profile", "default_agent", "cache_directory", "profile_export", "startup", "ascii_art",
	"enterprise", "private_profile_catalogs", "profile_sources", "remote_settings", "custom_settings",
	"path", "uri", "github", "ref", "only", "except",
	"id", "label", "description", "template", "inherits", "state_persistence", "controls",
	"model", "provider", "thinking", "args", "session_directory", "extensions", "skills",
	"prompt_template", "system_prompt", "append_system_prompt", "environment", "deepwork", "jobs",
	"file", "repo_file", "references", "pi", "claude", "x", "allow_external_deepwork_jobs",
	"n", "e", "c", "s", "l", "a", "o", "i", "no", "f", "strs", "k", "b",
	"symlink", "discard", "warn", "prompt", "", "one", "ab", "abcd", "A", "o/r", "a.b", "-a", "é",
}

func genValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		choice := rapid.IntRange(0, 9).Draw(t, "kind")
		if depth <= 0 && choice >= 7 {
			choice = rapid.IntRange(0, 6).Draw(t, "scalar")
		}
		switch choice {
		case 0:
			return nil
		case 1:
			return rapid.Bool().Draw(t, "bool")
		case 2:
			return rapid.SampledFrom([]float64{0, 1, 2, 2.5, -1, 3, 10, 11, 1e21, 0.1, math.NaN(), math.Inf(1)}).Draw(t, "number")
		case 3, 4, 5, 6:
			return rapid.SampledFrom(schemaWords).Draw(t, "string")
		case 7:
			return rapid.SliceOfN(genValue(depth-1), 0, 4).Draw(t, "array")
		}
		o := NewObject()
		for range rapid.IntRange(0, 5).Draw(t, "keys") {
			o.Set(rapid.SampledFrom(schemaWords).Draw(t, "key"), genValue(depth-1).Draw(t, "value"))
		}
		return o
	})
}

// TestValidatorMatchesTheLibrary checks generated documents, made of the
// schemas' own words, with both validators.
func TestValidatorMatchesTheLibrary(t *testing.T) {
	sets := []*schemaSet{noAgentSchemas(), internalAgents().schemaSet(), blockAgents().schemaSet()}
	rapid.Check(t, func(t *rapid.T) {
		doc := genValue(4).Draw(t, "doc")
		s := sets[rapid.IntRange(0, len(sets)-1).Draw(t, "set")]
		which := schemaKind(rapid.IntRange(0, 1).Draw(t, "which"))
		sameIssues(t, s, which, doc, fmt.Sprintf("%s", Stringify(doc, "")))
	})
}

// TestValidatorRefusesWhatItCannotCheck checks that a block schema with a
// keyword outside the validator's, or one that refers to itself on the
// same value, is refused when the set is made, naming the place.
func TestValidatorRefusesWhatItCannotCheck(t *testing.T) {
	for _, tc := range []struct{ block, want string }{
		{`{"patternProperties": {"^a": {}}}`, "/patternProperties: keyword not supported"},
		{`{"properties": {"x": {"$ref": "#/properties/controls/properties/a/properties/x"}}}`, "refers to itself"},
		{`{"properties": {"x": {"$ref": "other.json#/a"}}}`, "only references inside the document"},
		{`{"properties": {"x": {"type": "text"}}}`, "/type: must be"},
		{`{"properties": {"x": {"minLength": -1}}}`, "/minLength: must be a non-negative integer"},
		{`{"properties": {"x": {"pattern": "("}}}`, "/pattern: error parsing regexp"},
	} {
		_, err := NewAgents(Agent{ID: "a", Block: tc.block})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.block, err, tc.want)
		}
	}
}

// fataler is what the helpers need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// BenchmarkSchemas compares the validator with the library it stands in
// for: compiling the schema set of pi and claude, and checking the
// catalog's largest profile (valid) and a profile with a problem in each
// of its parts.
func BenchmarkSchemas(b *testing.B) {
	agents := []Agent{{ID: "pi", Block: `{"properties": {"allow_external_deepwork_jobs": {"type": "boolean"}}}`}, {ID: "claude"}}
	b.Run("compile/validator", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := compileSchemas(agents); err != nil {
				b.Fatal(err)
			}
		}
	})
	s, err := compileSchemas(agents)
	if err != nil {
		b.Fatal(err)
	}
	settings, profile := s.documents()
	b.Run("compile/library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			libraryCompile(b, settingsSchema.file(), settings)
			libraryCompile(b, profileSchema.file(), profile)
		}
	})
	for _, tc := range []struct{ name, doc string }{
		{"valid", "id: full\nlabel: Full\ninherits: [base, extra]\nstate_persistence: {auth.json: symlink, notes: discard}\n" +
			"controls:\n  model: m\n  args: [--a, --b]\n  skills: [one, {id: two, references: [{file: r.md}]}]\n" +
			"  append_system_prompt: [text, {file: p.md}, {repo_file: q.md}]\n  environment: {A: a}\n" +
			"  pi: {model: p, allow_external_deepwork_jobs: true}\n  claude: {skills: [three]}\n"},
		{"invalid", "id: Bad Id\ninherits: [ok, 3]\nstate_persistence: {auth.json: keep}\n" +
			"controls:\n  args: [1]\n  skills: [{id: x, extra: 1}]\n  append_system_prompt: {file: 1}\n  pi: {allow_external_deepwork_jobs: yes}\n"},
	} {
		doc, err := parseYAML([]byte(tc.doc))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("validate-"+tc.name+"/validator", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.validate(profileSchema, doc, "profile.yml")
			}
		})
		b.Run("validate-"+tc.name+"/library", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.libraryIssues(b, profileSchema, doc, "profile.yml")
			}
		})
	}
}
