package proptest_test

import (
	"os"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/proptest"
)

// TestDeviationsDocumented: every rule marked as a deliberate deviation is
// in the README's list of deviations, and the list names no rule that is
// not one, so a divergence counted as explained is one the README
// explains.
func TestDeviationsDocumented(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Deviations from upstream\n")
	if !ok {
		t.Fatal("README has no section \"Deviations from upstream\"")
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	deviations := proptest.Deviations()
	if len(deviations) == 0 {
		t.Fatal("no rule is marked as a deviation")
	}
	for _, r := range deviations {
		if !strings.Contains(section, "`"+r+"`") {
			t.Errorf("rule %s is a deviation the README's list does not name", r)
		}
	}
	for _, r := range proptest.Rules() {
		if strings.Contains(section, "`"+r+"`") && !proptest.RuleInfo(r).Deviation {
			t.Errorf("the README lists %s as a deviation, but its rule is not marked as one", r)
		}
	}
}

// TestExplanationOpen: the rules of an explanation that are not documented
// deviations are open; the deviations are not.
func TestExplanationOpen(t *testing.T) {
	e := proptest.Explanation{Rules: map[string]int{"always-answer-yaml": 1, "skill-shadowing-warning": 2, "yaml-error-text": 1}}
	if got := e.Open(); len(got) != 1 || got[0] != "skill-shadowing-warning" {
		t.Errorf("Open() = %v, want [skill-shadowing-warning]", got)
	}
	if got := (proptest.Explanation{Rules: map[string]int{"skill-link-materialization": 3}}).Open(); len(got) != 0 {
		t.Errorf("Open() of a deviation = %v, want none", got)
	}
}
