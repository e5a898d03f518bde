package resolve

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
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
	fixed := []string{"", "~", "null", "NULL", "nULL", "True", "tRUE", "0", "-0", "+12", "007", "0o17", "0o", "0o8", "0x1F",
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
