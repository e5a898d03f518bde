package resolve

import (
	"fmt"
	"strings"
	"testing"
)

// TestIssuesTextAsJoined holds the messages of Issue, SettingsError,
// ProfilesError and ResolveError to the quoted parts joined one by one,
// on files, pointers and messages with control characters and invalid
// bytes, split ones included, and checks that a resolution error of two
// clean issues costs one allocation.
func TestIssuesTextAsJoined(t *testing.T) {
	issueText := func(i *Issue) string { return Quote(i.Path()) + " " + QuoteText(i.Message) }
	joined := func(issues []*Issue) string {
		parts := make([]string, len(issues))
		for n, i := range issues {
			parts[n] = issueText(i)
		}
		return strings.Join(parts, "; ")
	}
	texts := []string{"", "settings.yaml", "/profiles/a", "a\x1b[2Jb", "caf\u00e9", "x\xc3", "\xa9y", "tab\there", "two\nlines", "\u0085"}
	var all []*Issue
	for _, f := range texts {
		for _, p := range texts {
			for _, m := range []string{"", "is missing", "bell\a", "line\nnext\tcol", "\xff"} {
				i := &Issue{File: f, Pointer: p, Message: m}
				all = append(all, i)
				if got, want := i.Error(), issueText(i); got != want {
					t.Errorf("Issue{%q, %q, %q}.Error() = %q, want %q", f, p, m, got, want)
				}
			}
		}
	}
	for k := 0; k+3 <= len(all); k += 97 {
		issues := all[k : k+3]
		for _, c := range []struct {
			err  error
			want string
		}{
			{&SettingsError{Issues: issues}, "Cannot run with invalid settings: " + joined(issues)},
			{&ProfilesError{Issues: issues}, "Cannot run with invalid profiles: " + joined(issues)},
			{&ResolveError{ID: "a\x1b", Issues: issues}, fmt.Sprintf("Cannot resolve profile '%s': %s", "a\x1b", joined(issues))},
		} {
			if got := c.err.Error(); got != c.want {
				t.Errorf("%T.Error() = %q, want %q", c.err, got, c.want)
			}
		}
	}
	e := &ResolveError{ID: "a", Issues: []*Issue{
		{File: "/h/.outfitter/profiles", Pointer: "/profiles/a", Message: "Parent profile 'b' not found"},
		{File: "/h/.outfitter/profiles", Pointer: "/profiles/b", Message: "Profile 'b' not found"},
	}}
	if allocs := testing.AllocsPerRun(100, func() { _ = e.Error() }); allocs > 1 {
		t.Errorf("ResolveError of two clean issues: %v allocations, want 1", allocs)
	}
}
