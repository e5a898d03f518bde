package writeback_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/writeback"
)

// specOrder is the example list of §4.3, in upstream's order.
var specOrder = []string{"_x", ".mcp.json", "10", "9", "a.txt", "B.txt", "cache", "cache/", "sessions/", "settings.json", "z", "Z"}

func TestCompareSpecExample(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		got := slices.Clone(specOrder)
		rand.New(rand.NewPCG(seed, 1)).Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		slices.SortFunc(got, writeback.Compare)
		if diff := cmp.Diff(specOrder, got); diff != "" {
			t.Fatalf("seed %d: order (-want +got):\n%s", seed, diff)
		}
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, a, b string
		want       int
		why        string
	}{
		{name: "equal", a: "cache/", b: "cache/", want: 0},
		{name: "prefix first", a: "cache", b: "cache/", want: -1},
		{name: "case tie lower first", a: "z", b: "Z", want: -1},
		{name: "letters before case", a: "B.txt", b: "a.txt", want: 1, why: "primary level ignores case"},
		{name: "case decided at first difference", a: "a-B", b: "A-b", want: -1, why: "tertiary weights compared left to right"},
		{name: "digits as characters", a: "10", b: "9", want: -1},
		{name: "punctuation before digits", a: ".x", b: "0", want: -1},
		{name: "underscore before dot", a: "_x", b: ".mcp.json", want: -1},
		{name: "slash before letters", a: "a/b", b: "ab", want: -1},
		{name: "dollar last symbol", a: "~", b: "$", want: -1},
		{name: "control ignored, byte tie-break", a: "a\x01", b: "a", want: 1, why: "ICU says equal; bytes break the tie"},
		{name: "non-ASCII after letters", a: "zz", b: "é", want: -1, why: "documented deviation from ICU"},
		{name: "A shares a's weight", a: "Ab", b: "ac", want: -1, why: "primary level ignores case, for the first letter too"},
		{name: "Z shares z's weight", a: "Zb", b: "zc", want: -1, why: "primary level ignores case, for the last letter too"},
		{name: "control ignored at the case level", a: "\x01a", b: "A", want: -1, why: "a control character weighs nothing on any level, so a meets A and lowercase comes first"},
		{name: "U+0080 after ASCII", a: "~", b: "\u0080", want: -1, why: "the first character outside ASCII sorts after every ASCII character"},
		{name: "case decided after U+0080", a: "x\u0080a", b: "x\u0080A", want: -1, why: "the character outside ASCII weighs the same in both on the case level"},
		{name: "non-ASCII compared whole", a: "\u1000b", b: "\u1001a", want: -1, why: "U+1000 and U+1001 share the bytes E1 80; the character decides, not what follows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := writeback.Compare(tt.a, tt.b); got != tt.want {
				t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := writeback.Compare(tt.b, tt.a); got != -tt.want {
				t.Errorf("Compare(%q, %q) = %d, want %d", tt.b, tt.a, got, -tt.want)
			}
		})
	}
}

// pathChars are the ASCII characters drawn for collation properties:
// printable ASCII and a few control characters.
var pathChars = func() []rune {
	rs := []rune{'\x01', '\t', '\x1f'}
	for r := rune(' '); r < 127; r++ {
		rs = append(rs, r)
	}
	return rs
}()

// TestPropCompareMatchesICURoot checks Compare against the CLDR root
// collation of golang.org/x/text for ASCII strings: wherever that
// collation orders two strings, Compare orders them the same way.
func TestPropCompareMatchesICURoot(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.StringOfN(rapid.SampledFrom(pathChars), 0, 8, -1)
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		want := collate.New(language.Und).CompareString(a, b)
		got := writeback.Compare(a, b)
		if want != 0 && got != want {
			t.Fatalf("Compare(%q, %q) = %d, CLDR root says %d", a, b, got, want)
		}
		if (got == 0) != (a == b) {
			t.Fatalf("Compare(%q, %q) = %d: not a total order", a, b, got)
		}
	})
}
