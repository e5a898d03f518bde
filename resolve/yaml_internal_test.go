package resolve

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestYAMLLargeDocuments checks that large documents without aliases load,
// as upstream loads them, and that the port's own limits refuse what is
// over them with a YAMLSizeError naming the file.
func TestYAMLLargeDocuments(t *testing.T) {
	t.Parallel()
	t.Run("40,000 environment variables", func(t *testing.T) {
		t.Parallel()
		var b strings.Builder
		b.WriteString("controls:\n  environment:\n")
		for i := range 40000 {
			fmt.Fprintf(&b, "    VAR_%d: value-%d\n", i, i)
		}
		p, issue := ParseProfile([]byte(b.String()), "big", "/src/big.yml", internalAgents())
		if issue != nil {
			t.Fatalf("ParseProfile: %v", issue)
		}
		if got := len(p.Controls.Environment); got != 40000 {
			t.Errorf("%d environment variables, want 40000", got)
		}
	})
	t.Run("100,001 profile sources", func(t *testing.T) {
		t.Parallel()
		var b strings.Builder
		b.WriteString("profile_sources:\n")
		for i := range 100001 {
			fmt.Fprintf(&b, "  - path: ./profiles/source%d\n", i)
		}
		f, issues := (*Cache)(nil).settingsFile([]byte(b.String()), "/w/home/.outfitter/settings.yml", ScopeUser, internalAgents())
		if len(issues) > 0 {
			t.Fatalf("issues: %v", issues[0])
		}
		if got := len(f.file.Sources); got != 100001 {
			t.Errorf("%d sources, want 100001", got)
		}
	})
	tooLong := make([]byte, maxYAMLBytes+1)
	for i := range tooLong {
		tooLong[i] = '#'
	}
	t.Run("a file at the byte limit is parsed", func(t *testing.T) {
		t.Parallel()
		// A flow sequence never closed: the parser reads to the end.
		atLimit := append([]byte("["), tooLong[:maxYAMLBytes-1]...)
		_, err := parseYAML(atLimit)
		if err == nil || !strings.HasPrefix(err.Error(), yamlErrorPrefix) {
			t.Errorf("parseYAML of %d bytes = %v, want the parser's error", len(atLimit), err)
		}
	})
	var copies strings.Builder
	copies.WriteString("a: &x [")
	copies.WriteString(strings.Repeat("1, ", 11999))
	copies.WriteString("1]\nl: [" + strings.Repeat("*x, ", 89) + "*x]\n")
	for _, tc := range []struct {
		name string
		src  []byte
		want YAMLSizeError
		msg  string
	}{
		{
			name: "a file over the byte limit",
			src:  tooLong,
			want: YAMLSizeError{File: "/src/big.yml", Size: maxYAMLBytes + 1, Limit: maxYAMLBytes},
			msg:  "/src/big.yml#/profile.yml YAML document too large: 16777217 bytes, over the limit of 16777216",
		},
		{
			name: "aliases within upstream's budget that copy over a million values",
			src:  []byte(copies.String()),
			want: YAMLSizeError{File: "/src/big.yml", Aliases: true, Size: maxAliasValues + 1, Limit: maxAliasValues},
			msg:  "/src/big.yml#/profile.yml YAML document too large: its aliases copy more than the limit of 1048576 values",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, issue := ParseProfile(tc.src, "big", "/src/big.yml", internalAgents())
			var got *YAMLSizeError
			if !errors.As(issue, &got) {
				t.Fatalf("issue %v, want a YAMLSizeError", issue)
			}
			if *got != tc.want {
				t.Errorf("error %+v, want %+v", *got, tc.want)
			}
			if issue.Error() != tc.msg {
				t.Errorf("issue %q, want %q", issue.Error(), tc.msg)
			}
		})
	}
}
