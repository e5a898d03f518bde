package composite

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// normalizeKeyModel is the direct reading of normalizeKey's rule: split,
// trim, drop empty parts, the last one the key, ctrl, shift and alt among
// the others in that order.
func normalizeKeyModel(k string) string {
	var parts []string
	for _, p := range strings.Split(strings.ToLower(k), "+") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	key := parts[len(parts)-1]
	mods := map[string]bool{}
	for _, p := range parts[:len(parts)-1] {
		mods[p] = true
	}
	var out []string
	for _, m := range []string{"ctrl", "shift", "alt"} {
		if mods[m] {
			out = append(out, m)
		}
	}
	return strings.Join(append(out, key), "+")
}

func TestNormalizeKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                 "",
		"+":                "",
		"Shift+Tab":        "shift+tab",
		"alt + ctrl+ x":    "ctrl+alt+x",
		"meta+shift+k":     "shift+k",
		"ctrl+ctrl":        "ctrl+ctrl",
		"ctrl":             "ctrl",
		"shift+ctrl+alt+t": "ctrl+shift+alt+t",
		" +a+ ":            "a",
	} {
		if got := normalizeKey(in); got != want {
			t.Errorf("normalizeKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPropNormalizeKeyMatchesModel(t *testing.T) {
	t.Parallel()
	part := rapid.SampledFrom([]string{"", " ", "+", "ctrl", "Ctrl", "shift", "SHIFT", "alt", "meta", "t", "Tab", " x ", "ctrl "})
	rapid.Check(t, func(t *rapid.T) {
		k := strings.Join(rapid.SliceOfN(part, 0, 6).Draw(t, "parts"), rapid.SampledFrom([]string{"+", " + ", ""}).Draw(t, "sep"))
		if got, want := normalizeKey(k), normalizeKeyModel(k); got != want {
			t.Fatalf("normalizeKey(%q) = %q, want %q", k, got, want)
		}
	})
}
