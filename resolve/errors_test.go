package resolve_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
)

// TestIssuePath: an issue names its place as upstream does,
// "<file>#<pointer>", or whichever of the two it has.
func TestIssuePath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		issue resolve.Issue
		want  string
	}{
		{resolve.Issue{File: "/h/settings.yml", Pointer: "/default_agent", Message: "must be string"}, "/h/settings.yml#/default_agent must be string"},
		{resolve.Issue{File: "/h/settings.yml", Message: "unreadable"}, "/h/settings.yml unreadable"},
		{resolve.Issue{Pointer: "/profiles/eng", Message: "Profile 'eng' was not found."}, "/profiles/eng Profile 'eng' was not found."},
	}
	for _, tt := range tests {
		if got := tt.issue.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
