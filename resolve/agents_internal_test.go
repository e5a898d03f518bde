package resolve

import (
	"slices"
	"strings"
	"sync"
	"testing"
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
		if s.full[settingsSchema] == nil || s.full[profileSchema] == nil {
			t.Errorf("%s: schemas %+v, want both", name, s)
		}
	}
}

// TestBlockKeywordsOfTheLibrary checks that an agent's block may use any
// keyword the validator evaluates (maxLength, which the embedded schemas
// do not use) and that documents are checked against it.
func TestBlockKeywordsOfTheLibrary(t *testing.T) {
	t.Parallel()
	a, err := NewAgents(Agent{ID: "a", Block: `{"properties": {"x": {"maxLength": 2}}}`})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		doc  string
		want string // the pointer of the one issue, "" for none
	}{
		{doc: "controls: {a: {x: ok}}\n"},
		{doc: "controls: {a: {x: long}}\n", want: "/controls/a/x"},
	} {
		doc, err := parseYAML([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		issues := a.schemaSet().validate(profileSchema, doc, "profile.yml")
		switch {
		case tc.want == "" && len(issues) != 0:
			t.Errorf("%s: issues %v, want none", strings.TrimSpace(tc.doc), issues)
		case tc.want != "" && (len(issues) != 1 || issues[0].Pointer != tc.want):
			t.Errorf("%s: issues %v, want one at %s", strings.TrimSpace(tc.doc), issues, tc.want)
		}
	}
}

// TestMemberNamesTheKeyThatIsNotAnObject checks the error an embedded
// schema of the wrong shape would give: the keys walked so far.
func TestMemberNamesTheKeyThatIsNotAnObject(t *testing.T) {
	doc := map[string]any{"properties": map[string]any{"controls": true}}
	if _, err := member(doc, "properties", "controls", "properties"); err == nil || err.Error() != "[properties controls]: not an object" {
		t.Errorf("member: error %v, want \"[properties controls]: not an object\"", err)
	}
	if got, err := member(doc, "properties"); err != nil || got["controls"] != true {
		t.Errorf("member: %v, %v, want the properties object", got, err)
	}
}

// TestDocumentRank checks the positions that order a document's schema
// issues, and that a location the document does not hold ranks its
// first missing step -1 instead of failing.
func TestDocumentRank(t *testing.T) {
	doc, err := parseYAML([]byte("b: x\na: [p, q, {c: 1}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		location []string
		want     []int
	}{
		{[]string{"a", "0"}, []int{1, 0}},
		{[]string{"a", "2", "c"}, []int{1, 2, 0}},
		{[]string{"b"}, []int{0}},
		{[]string{"a", "3"}, []int{1, -1}},
		{[]string{"a", "-1"}, []int{1, -1}},
		{[]string{"a", "x"}, []int{1, -1}},
		{[]string{"b", "0"}, []int{0, -1}},
	} {
		if got := documentRank(doc, tc.location); !slices.Equal(got, tc.want) {
			t.Errorf("documentRank(%q) = %v, want %v", tc.location, got, tc.want)
		}
	}
}
