package resolve

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// doc decodes a YAML flow literal for the merge tests.
func doc(t *testing.T, src string) any {
	t.Helper()
	v, err := parseYAML([]byte(src))
	if err != nil {
		t.Fatalf("parseYAML(%q): %v", src, err)
	}
	return v
}

func text(v any) string { return string(Stringify(v, "")) }

func TestMergeArrays(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		policy        *policy
		lower, higher string
		want          string
	}{
		{"replace", &policy{kind: policyReplace}, "[a, b]", "[c]", `["c"]`},
		{"append", &policy{kind: policyAppend}, "[a, b]", "[b, c]", `["a","b","b","c"]`},
		{"prepend", &policy{kind: policyPrepend}, "[a, b]", "[b, c]", `["b","c","a","b"]`},
		{"appendUnique", &policy{kind: policyAppendUnique}, "[a, b]", "[b, c]", `["a","b","c"]`},
		{"prependUnique", &policy{kind: policyPrependUnique}, "[a, b]", "[b, c]", `["b","c","a"]`},
		{"appendUnique with the default key", &policy{kind: policyAppendUnique}, "[1, null, {b: 2, a: 1}]", "[1, {a: 1, b: 2}, false]", `[1,null,{"b":2,"a":1},false]`},
		{"appendUnique keeps false, null and 1 apart", &policy{kind: policyAppendUnique}, "[false]", "[null, 1, false]", `[false,null,1]`},
		{
			"uniqueBy prepend, first winner keeps the higher item",
			&policy{kind: policyUniqueBy, prepend: true, firstWinner: true, key: func(v any) string { return text(v)[:2] }},
			"[ab, cd]", "[ax]", `["ax","cd"]`,
		},
		{
			"uniqueBy append, last winner keeps the higher item in place",
			&policy{kind: policyUniqueBy, firstWinner: false, key: func(v any) string { return text(v)[:2] }},
			"[ab, cd]", "[ax]", `["cd","ax"]`,
		},
		{"absent lower counts as empty", &policy{kind: policyPrepend}, "~", "[x]", `["x"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lower, _ := doc(t, tc.lower).([]any)
			got := mergeArrays(lower, doc(t, tc.higher).([]any), tc.policy)
			if diff := cmp.Diff(tc.want, text(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeObjects(t *testing.T) {
	t.Parallel()
	lists := func(p string) *policy {
		switch p {
		case "app":
			return &policy{kind: policyAppendList}
		case "pre":
			return &policy{kind: policyPrependList}
		}
		return nil
	}
	tests := []struct {
		name          string
		lower, higher string
		want          string
	}{
		{"objects deep-merge", "{a: {b: 1, c: 2}}", "{a: {c: 3, d: 4}}", `{"a":{"b":1,"c":3,"d":4}}`},
		{"arrays replace by default", "{a: [1, 2]}", "{a: [3]}", `{"a":[3]}`},
		{"a scalar is replaced by an array", "{a: 1}", "{a: [2]}", `{"a":[2]}`},
		{"null overrides an object", "{a: {b: 1}}", "{a: null}", `{"a":null}`},
		{"an object replaces a scalar", "{a: 1}", "{a: {b: 2}}", `{"a":{"b":2}}`},
		{"appendList coerces scalars", "{app: x}", "{app: y}", `{"app":["x","y"]}`},
		{"prependList coerces scalars", "{pre: x}", "{pre: [y]}", `{"pre":["y","x"]}`},
		{"prependList with null lower", "{pre: null}", "{pre: y}", `{"pre":["y",null]}`},
		{"a key only in higher is copied as is", "{}", "{app: x}", `{"app":"x"}`},
		{"new keys are appended in higher's order", "{z: 1}", "{b: 1, a: 2, z: 3}", `{"z":3,"b":1,"a":2}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lower, higher := doc(t, tc.lower).(*Object), doc(t, tc.higher).(*Object)
			before := text(lower)
			got := mergeObjects(lower, higher, "", lists)
			if diff := cmp.Diff(tc.want, text(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if text(lower) != before {
				t.Errorf("merge modified its lower input")
			}
		})
	}
}

func TestParseYAMLScalars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want any
	}{
		{"yes", "yes"}, {"no", "no"}, {"on", "on"}, {"off", "off"}, {"True", true}, {"FALSE", false},
		{"~", nil}, {"null", nil}, {"", nil}, {"0x10", 16.0}, {"0o17", 15.0}, {"017", 17.0},
		{"1e3", 1000.0}, {"-.5", -0.5}, {"1_000", "1_000"}, {"'5'", "5"}, {"!!str 5", "5"},
		{".inf", math.Inf(1)}, {"-.Inf", math.Inf(-1)}, {"2001-12-14", "2001-12-14"}, {"<<", "<<"},
	}
	for _, tc := range tests {
		got, err := parseYAML([]byte(tc.src))
		if err != nil {
			t.Errorf("parseYAML(%q): %v", tc.src, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("parseYAML(%q) (-want +got):\n%s", tc.src, diff)
		}
	}
	nan, err := parseYAML([]byte(".nan"))
	if f, ok := nan.(float64); err != nil || !ok || !math.IsNaN(f) {
		t.Errorf("parseYAML(.nan) = %v, %v", nan, err)
	}
}

func TestParseYAMLStructure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		want    string
		wantErr string
	}{
		{name: "anchors and aliases", src: "a: &x {b: 1}\nc: *x\n", want: `{"a":{"b":1},"c":{"b":1}}`},
		{name: "merge key is an ordinary key", src: "a: &x {b: 1}\nc: {<<: *x}\n", want: `{"a":{"b":1},"c":{"<<":{"b":1}}}`},
		{name: "non-string keys become strings", src: "1: a\ntrue: b\n~: c\n", want: `{"1":"a","true":"b","":"c"}`},
		{name: "1 and '1' are different keys, later value wins", src: "1: a\n'1': b\n", want: `{"1":"b"}`},
		{name: "duplicate keys", src: "a: 1\na: 2\n", wantErr: "YAMLParseError: Map keys must be unique at line 2, column 1:"},
		{name: "1 and 1.0 are the same key", src: "1: a\n1.0: b\n", wantErr: "YAMLParseError: Map keys must be unique at line 2, column 1:"},
		{name: "0 and -0 are the same key", src: "0: a\n-0: b\n", wantErr: "YAMLParseError: Map keys must be unique at line 2, column 1:"},
		{name: "null and ~ are the same key", src: "null: a\n~: b\n", wantErr: "YAMLParseError: Map keys must be unique at line 2, column 1:"},
		{name: "NaN keys are never equal", src: ".nan: a\n.NaN: b\n", want: `{"NaN":"b"}`},
		{name: "collection keys are never equal", src: "? [a]\n: 1\n? [a]\n: 2\n", want: `{"[\"a\"]":2}`},
		{name: "an aliased key equals no other key, later value wins", src: "a: &k x\n*k : 1\nx: 2\n", want: `{"a":"x","x":2}`},
		{name: "keys of nested mappings are apart", src: "a: {a: 1, b: {a: 2}}\nb: {a: 3}\n", want: `{"a":{"a":1,"b":{"a":2}},"b":{"a":3}}`},
		{name: "duplicate in a big mapping", src: bigMappingDoc(40, "k7"), wantErr: "YAMLParseError: Map keys must be unique at line 41, column 1:"},
		{name: "big mapping without duplicates", src: bigMappingDoc(40, "'7'"), want: bigMappingJSON(40)},
		{name: "several documents", src: "a: 1\n---\nb: 2\n", wantErr: "YAMLParseError: Source contains multiple documents; please use YAML.parseAllDocuments() at line 2, column 1:"},
		{name: "alias bombs are refused", src: bomb(), wantErr: "ReferenceError: Excessive alias count indicates a resource exhaustion attack"},
		{name: "a comment-only document is null", src: "# nothing\n", want: "null"},
		{name: "an explicitly empty document is null", src: "---\n", want: "null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseYAML([]byte(tc.src))
			if tc.wantErr != "" {
				if err == nil || strings.SplitN(err.Error(), "\n", 2)[0] != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseYAML: %v", err)
			}
			if diff := cmp.Diff(tc.want, text(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// bigMappingDoc is a mapping of n keys k0..k(n-1) with value 0 and a last
// key extra with value 1.
func bigMappingDoc(n int, extra string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: 0\n", i)
	}
	fmt.Fprintf(&b, "%s: 1\n", extra)
	return b.String()
}

// bigMappingJSON is the text of bigMappingDoc(n, "'7'").
func bigMappingJSON(n int) string {
	parts := []string{`"7":1`}
	for i := range n {
		parts = append(parts, fmt.Sprintf(`"k%d":0`, i))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// bomb is a "billion laughs" document: ten levels of ten aliases each.
func bomb() string {
	s := "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 10; i++ {
		p := "*a" + string(rune('0'+i-1))
		s += "a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + "]\n"
	}
	return s
}

func TestRedact(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"git+https://github.com/acme/x.git#main":   "git+https://github.com/acme/x.git#main",
		"git+https://u:p@github.com/acme/x.git#v1": "git+https://REDACTED@github.com/acme/x.git#v1",
		"https://token@Example.COM/x.git#":         "https://REDACTED@example.com/x.git#",
		"not a url //user@host/x":                  "not a url //REDACTED@host/x",
		"HTTPS://GitHub.com/acme/x.git":            "HTTPS://GitHub.com/acme/x.git",
	} {
		if got := redact(in); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProfilePolicyPaths checks the path rules on keys that contain the
// separators: a path splits at its last '.' or '/', both counting alike,
// as the original lookup through path.Split did.
func TestProfilePolicyPaths(t *testing.T) {
	t.Parallel()
	pf := profilePolicies("/p", []string{"claude", "pi"})
	tests := []struct {
		path string
		want arrayPolicy // -1: no rule
	}{
		{"controls.args", policyPrepend},
		{"contrxls.args", -1},
		{"metadata.args", -1},
		{"controls.pi.args", policyPrepend},
		{"controls.claude.append_system_prompt", policyPrependList},
		{"controls.appendSystemPrompt", policyPrependList},
		{"controls.pi.extensions", policyUniqueBy},
		{"controls.claude.skills", policyUniqueBy},
		{"controls.deepwork.jobs", policyAppendUnique},
		{"controls/args", policyPrepend},
		{"controls.pi/args", policyPrepend},
		{"controls/claude.skills", policyUniqueBy},
		{"controls.deepwork/jobs", -1},
		{"controls.other.args", -1},
		{"controls.x/args", -1},
		{"controls.model", -1},
		{"args", -1},
		{"controls", -1},
		{"", -1},
		{"xcontrols.args", -1},
		{"controls.pix.args", -1},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			var got arrayPolicy = -1
			if p := pf(tc.path); p != nil {
				got = p.kind
			}
			if got != tc.want {
				t.Fatalf("policy of %q = %d, want %d", tc.path, got, tc.want)
			}
		})
	}
}
