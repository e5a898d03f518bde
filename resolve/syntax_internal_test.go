package resolve

import (
	"regexp"
	"strings"
	"testing"
)

// TestSyntaxChecksAsPatterns: ValidSkillID and flatSlug, which check the
// syntax of a skill id and of a flat profile file's name without a
// regular expression, give what the patterns they stand for give, on
// names near every edge and on every short name over an alphabet of the
// characters that matter.
func TestSyntaxChecksAsPatterns(t *testing.T) {
	t.Parallel()
	skillID := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	flat := regexp.MustCompile(`^(.+)\.ya?ml$`)
	names := []string{
		"", "a", "-", "a-", "-a", "a-b", "a--b", "ab-cd-9", "A", "a_b", "a b", "é", "a\n", "\n",
		strings.Repeat("a", MaxSkillIDLength), strings.Repeat("a", MaxSkillIDLength+1), strings.Repeat("a-", 32) + "b",
		".yml", ".yaml", "a.yml", "a.yaml", "a.YML", "a.yaml.yml", "a.ymll", "profile.yml", "a\n.yml", "\n.yaml",
		"a\r.yml", "..yml", "x.y.yml", "\xff.yml", "a.yaml\n",
	}
	alphabet := []string{"a", "z", "0", "9", "-", ".", "y", "m", "l", "\n", "B", "\xff"}
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		names = append(names, prefix, prefix+".yml", prefix+".yaml")
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	for _, s := range names {
		if got, want := ValidSkillID(s), len(s) <= MaxSkillIDLength && skillID.MatchString(s); got != want {
			t.Errorf("ValidSkillID(%q) = %v, the pattern says %v", s, got, want)
		}
		slug, ok := flatSlug(s)
		m := flat.FindStringSubmatch(s)
		if ok != (m != nil) || ok && slug != m[1] {
			t.Errorf("flatSlug(%q) = %q, %v; the pattern captures %q", s, slug, ok, m)
		}
	}
}
