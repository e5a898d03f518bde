package composite_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/composite"
)

func TestLookupEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		why   string
		env   []string
		want  string
		found bool
	}{
		{name: "absent", env: []string{"A=1"}},
		{name: "present", env: []string{"A=1", "PATH=/bin"}, want: "/bin", found: true},
		{name: "empty value is set", env: []string{"PATH="}, want: "", found: true},
		{name: "last wins", why: "os/exec keeps the last entry of a name for the child", env: []string{"PATH=/first", "PATH=/last"}, want: "/last", found: true},
		{name: "malformed entries skipped", env: []string{"PATH", "PATH=/x", "junk"}, want: "/x", found: true},
		{name: "value holds =", env: []string{"PATH=a=b"}, want: "a=b", found: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := composite.LookupEnv(tt.env, "PATH")
			if got != tt.want || ok != tt.found {
				t.Errorf("LookupEnv = %q, %v; want %q, %v (%s)", got, ok, tt.want, tt.found, tt.why)
			}
		})
	}
}
