package jsstack

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// regexCoreScalar is the core-schema resolution written with the schema's
// own regular expressions, the reference for coreScalar.
func regexCoreScalar(s string) any {
	var (
		reNull  = regexp.MustCompile(`^(|~|null|Null|NULL)$`)
		reTrue  = regexp.MustCompile(`^(true|True|TRUE)$`)
		reFalse = regexp.MustCompile(`^(false|False|FALSE)$`)
		reInt   = regexp.MustCompile(`^[-+]?[0-9]+$`)
		reOct   = regexp.MustCompile(`^0o[0-7]+$`)
		reHex   = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
		reFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
		reInf   = regexp.MustCompile(`^[-+]?\.(inf|Inf|INF)$`)
		reNaN   = regexp.MustCompile(`^\.(nan|NaN|NAN)$`)
	)
	switch {
	case reNull.MatchString(s):
		return nil
	case reTrue.MatchString(s):
		return true
	case reFalse.MatchString(s):
		return false
	case reInt.MatchString(s), reFloat.MatchString(s):
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case reOct.MatchString(s):
		return parseRadix(s[2:], 8)
	case reHex.MatchString(s):
		return parseRadix(s[2:], 16)
	case reInf.MatchString(s):
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case reNaN.MatchString(s):
		return math.NaN()
	}
	return s
}

// TestCoreScalarMatchesTheSchemaPatterns checks the hand-written scalar
// resolution against the core schema's regular expressions, on strings
// built from the characters that matter to them.
func TestCoreScalarMatchesTheSchemaPatterns(t *testing.T) {
	t.Parallel()
	fixed := []string{"", "~", "null", "NULL", "nULL", "True", "tRUE", "0", "-0", "9", "+12", "007", "0o17", "0o10", "0o", "0o8", "0x", "0x1F", "0xaf", "0xAF",
		"0xg", "0X1F", "1.", ".5", ".", "+.", "1e5", "1e", "1e+", "1.5E-3", ".e1", "-.inf", "+.Inf", ".INF", ".iNF", "-.nan", ".NaN",
		"1_000", "0x1p-2", "1e400", "-1e400", "12a", "a12", " 1", "1 ", "+", "-", "é", "1\n"}
	for _, s := range fixed {
		if d := scalarMismatch(s); d != "" {
			t.Error(d)
		}
	}
	alphabet := rapid.SampledFrom([]rune("0123456789+-.eExXoOaAfFgiInNuUlLtTrRsS~_ "))
	rapid.Check(t, func(t *rapid.T) {
		if d := scalarMismatch(rapid.StringOf(alphabet).Draw(t, "s")); d != "" {
			t.Fatal(d)
		}
	})
}

// scalarMismatch describes how coreScalar and the reference differ on s,
// or is "" when they agree (NaN agreeing with NaN).
func scalarMismatch(s string) string {
	want, got := regexCoreScalar(s), coreScalar(s)
	if wf, ok := want.(float64); ok && math.IsNaN(wf) {
		if gf, ok := got.(float64); ok && math.IsNaN(gf) {
			return ""
		}
	} else if want == got {
		return ""
	}
	return fmt.Sprintf("coreScalar(%q) = %#v, want %#v", s, got, want)
}

// aliasDoc is a document with an anchor of the given text used uses
// times in a list.
func aliasDoc(anchor string, uses int) string {
	return "a: &x " + anchor + "\nl: [" + strings.Repeat("*x, ", uses-1) + "*x]\n"
}

// TestYAMLAliasBudgetMatchesUpstream checks documents on either side of
// upstream's alias budget; each verdict was taken from upstream's yaml
// package (2.9.0, the oracle's) on the same text.
func TestYAMLAliasBudgetMatchesUpstream(t *testing.T) {
	t.Parallel()
	const (
		budget = "ReferenceError: Excessive alias count indicates a resource exhaustion attack"
		dup    = "Map keys must be unique"
	)
	lol := func(uses int) string {
		return "a: &a [x]\nb: &b [" + strings.Repeat("*a, ", uses-1) + "*a]\nc: &c [" + strings.Repeat("*b, ", 9) + "*b]\n"
	}
	// b's alias count is fixed when b is first aliased (2: a used twice),
	// not when a has been used 40 more times.
	lazy := func(uses int) string {
		return "a: &a [x]\nb: &b [*a]\nc: *b\nd: [" + strings.Repeat("*a, ", 39) + "*a]\ne: [" + strings.Repeat("*b, ", uses-1) + "*b]\n"
	}
	// c's alias count multiplies the uses and counts down the chain:
	// b's is a's uses times a's, a's is x's uses.
	chain := func(uses int) string {
		return "x: &x [1]\na: &a [*x, *x]\nb: &b [*a, *a, *a]\nc: [" + strings.Repeat("*b, ", uses-1) + "*b]\n"
	}
	aliasKeys := func(n int) string {
		var b strings.Builder
		b.WriteString("a: &k x\n")
		for i := range n {
			fmt.Fprintf(&b, "m%d: {*k : %d}\n", i, i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, src, wantErr string
	}{
		{"a scalar used 99 times", aliasDoc("v", 99), ""},
		{"a scalar used 100 times", aliasDoc("v", 100), budget},
		{"a list used 99 times", aliasDoc("[1, 2]", 99), ""},
		{"a list used 100 times", aliasDoc("[1, 2]", 100), budget},
		{"an empty list used 200 times", aliasDoc("[]", 200), ""},
		{"three levels of ten", lol(10), budget},
		{"three levels of nine and ten", lol(9), budget},
		{"an alias count taken when first aliased: 50 uses", lazy(48), ""},
		{"an alias count taken when first aliased: 51 uses", lazy(49), budget},
		{"a chain of aliases used 7 times", chain(7), ""},
		{"a chain of aliases used 8 times", chain(8), budget},
		{"an anchor used as a key 99 times", aliasKeys(99), ""},
		{"an anchor used as a key 100 times", aliasKeys(100), budget},
		{"a duplicate key after the budget is exceeded", aliasDoc("v", 100) + "b: 1\nb: 2\n", dup},
		{"a duplicate key before", "b: 1\nb: 2\n" + aliasDoc("v", 100), dup},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseYAML([]byte(tc.src))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("ParseYAML: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// TestYAMLKeysAsJavaScriptStrings: a mapping key that is not a string
// becomes the object key JavaScript's String() gives it.
func TestYAMLKeysAsJavaScriptStrings(t *testing.T) {
	t.Parallel()
	doc, err := ParseYAML([]byte(".nan: a\n.inf: b\n-.inf: c\n-0: d\n1e21: e\n0.000001: f\ntrue: g\n~: h\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := doc.(*Object).Keys()
	want := []string{"0", "NaN", "Infinity", "-Infinity", "1e+21", "0.000001", "true", ""}
	if !slices.Equal(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
}
