package resolve

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed schema/*.json
var schemaFiles embed.FS

// schemaSet holds the compiled schemas of one [Agents] set, compiled once
// (see validator.go) and reused for every document. It is immutable and
// safe for concurrent use.
type schemaSet struct {
	full [2]*checkNode // by schemaKind
	// text is the schema documents as JSON text, made on first use.
	text func() [2][]byte
}

// compileSchemas composes and compiles the schemas for agents.
func compileSchemas(agents []Agent) (*schemaSet, error) {
	settings, profile, err := composeSchemas(agents)
	if err != nil {
		return nil, err
	}
	s := &schemaSet{}
	docs := [...]map[string]any{settingsSchema: settings, profileSchema: profile}
	for kind, doc := range docs {
		if s.full[kind], err = compileCheckDoc(doc); err != nil {
			return nil, fmt.Errorf("%s schema: %w", schemaKind(kind), err)
		}
	}
	s.text = sync.OnceValue(func() [2][]byte {
		var out [2][]byte
		for kind, doc := range docs {
			var err error
			if out[kind], err = json.Marshal(doc); err != nil {
				panic(fmt.Sprintf("resolve: %s schema: %v", schemaKind(kind), err)) // decoded from JSON
			}
		}
		return out
	})
	return s, nil
}

// documents returns copies of the schema documents as JSON text.
func (s *schemaSet) documents() (settings, profile []byte) {
	t := s.text()
	return slices.Clone(t[settingsSchema]), slices.Clone(t[profileSchema])
}

// schemaKind names one of the embedded schemas.
type schemaKind int

const (
	settingsSchema schemaKind = iota
	profileSchema
)

func (k schemaKind) String() string { return [...]string{"settings", "profile"}[k] }

// file is the name of the kind's embedded schema file.
func (k schemaKind) file() string { return k.String() + ".schema.json" }

// validate checks doc against the schema kind and returns every problem,
// ordered by the position of the offending value in the document (a
// container before its members), with the validator's own order breaking
// ties.
func (s *schemaSet) validate(which schemaKind, doc any, file string) []*Issue {
	verr := s.full[which].validate(doc)
	if verr == nil {
		return nil
	}
	return schemaIssues(verr, doc, file)
}

// schemaIssues words an error tree as issues of file.
func schemaIssues(verr *checkError, doc any, file string) []*Issue {
	var found []schemaProblem
	collectProblems(verr, &found)
	for i := range found {
		found[i].rank = documentRank(doc, found[i].location)
	}
	slices.SortStableFunc(found, func(a, b schemaProblem) int { return slices.Compare(a.rank, b.rank) })
	issues := make([]*Issue, 0, len(found))
	seen := make(map[[2]string]bool)
	for _, p := range found {
		ptr := pointer(p.location)
		if seen[[2]string{ptr, p.message}] {
			continue
		}
		seen[[2]string{ptr, p.message}] = true
		issues = append(issues, &Issue{File: file, Pointer: ptr, Message: p.message})
	}
	return issues
}

type schemaProblem struct {
	location []string
	message  string
	rank     []int
}

func collectProblems(e *checkError, out *[]schemaProblem) {
	switch k := e.kind.(type) {
	case *kind.Group, *kind.Schema, *kind.Reference, *kind.AllOf:
		for _, c := range e.causes {
			collectProblems(c, out)
		}
		return
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, schemaProblem{location: e.location, message: "must have required property '" + m + "'"})
		}
		return
	}
	for _, c := range e.causes {
		collectProblems(c, out)
	}
	*out = append(*out, schemaProblem{location: e.location, message: problemMessage(e.kind)})
}

// englishPrinter is made on first use: no package initialization work.
var englishPrinter = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// problemMessage words a validation error in the vocabulary Outfitter
// users know from upstream's validator.
func problemMessage(k errorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return "must be " + strings.Join(k.Want, ",")
	case *kind.MinLength:
		return fmt.Sprintf("must NOT have fewer than %d characters", k.Want)
	case *kind.Enum:
		return "must be equal to one of the allowed values"
	case *kind.Pattern:
		return fmt.Sprintf("must match pattern %q", k.Want)
	case *kind.AdditionalProperties:
		return "must NOT have additional properties"
	case *kind.Not:
		return "must NOT be valid"
	case *kind.OneOf:
		return "must match exactly one schema in oneOf"
	case *kind.AnyOf:
		return "must match a schema in anyOf"
	case *kind.FalseSchema:
		return "boolean schema is false"
	}
	return k.LocalizedString(englishPrinter())
}

// pointer renders an instance location as a JSON pointer; the root is "/".
func pointer(location []string) string {
	if len(location) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, s := range location {
		b.WriteByte('/')
		b.WriteString(escapeToken(s))
	}
	return b.String()
}

// documentRank returns the position of each location step in its parent:
// the key index for mappings, the element index for sequences.
func documentRank(doc any, location []string) []int {
	rank := make([]int, 0, len(location))
	cur := doc
	for _, step := range location {
		switch c := cur.(type) {
		case *Object:
			rank = append(rank, c.Index(step))
			cur = c.Value(step)
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(c) {
				return append(rank, -1)
			}
			rank = append(rank, i)
			cur = c[i]
		default:
			return append(rank, -1)
		}
	}
	return rank
}

// plainValue converts a document value into the plain Go shapes the
// validator understands.
func plainValue(v any) any {
	switch v := v.(type) {
	case *Object:
		m := make(map[string]any, v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			m[k] = plainValue(e)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = plainValue(e)
		}
		return l
	}
	return v
}
