package main

import "testing"

// TestDistance: the optimal string alignment distance, in which an
// adjacent transposition costs one edit and no substring is edited twice.
func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "", 1},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"ab", "ba", 1},
		{"defualt_profile", "default_profile", 1},
		{"badcfe", "abcdef", 3},
		{"ca", "abc", 3},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestSuggest: the closest candidate other than the word itself, when it
// is within a third of the word's length (at least one edit).
func TestSuggest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word       string
		candidates []string
		want       string
	}{
		{"inherit", []string{"inherits", "extends"}, "inherits"},
		{"enviroment", []string{"environment", "env"}, "environment"},
		{"badcfe", []string{"abcdef"}, ""}, // three transpositions: too far for six bytes
		{"ab", []string{"ab"}, ""},         // itself is no suggestion
		{"abc", []string{"abd", "abcd", "xbc"}, "abd"},
	}
	for _, tt := range tests {
		if got := suggest(tt.word, tt.candidates); got != tt.want {
			t.Errorf("suggest(%q, %q) = %q, want %q", tt.word, tt.candidates, got, tt.want)
		}
	}
}
