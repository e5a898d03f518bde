package main

import (
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/vfs"
)

// TestDescribeEntry pins how the durable changes of vfsim run and vfsim
// dry-run show an entry: a directory, a link with its target, a short text
// quoted whole, a long one cut after 60 bytes (never inside a character)
// and marked, and a binary file by size and hash.
func TestDescribeEntry(t *testing.T) {
	t.Parallel()
	text := func(s string) *string { return &s }
	size := int64(3)
	long := strings.Repeat("a", 59) + "éz" // é spans bytes 60 and 61
	tests := []struct {
		e    report.Entry
		want string
	}{
		{report.Entry{Type: vfs.TypeDir}, "(dir)"},
		{report.Entry{Type: vfs.TypeSymlink, Target: "<home>/.pi/agent/auth.json"}, "-> <home>/.pi/agent/auth.json"},
		{report.Entry{Type: vfs.TypeFile, Text: text("{}\n")}, `"{}\n"`},
		{report.Entry{Type: vfs.TypeFile, Text: text(strings.Repeat("b", 60))}, `"` + strings.Repeat("b", 60) + `"`},
		{report.Entry{Type: vfs.TypeFile, Text: text(strings.Repeat("b", 61))}, `"` + strings.Repeat("b", 60) + `…"`},
		{report.Entry{Type: vfs.TypeFile, Text: text(long)}, `"` + strings.Repeat("a", 59) + `…"`},
		{report.Entry{Type: vfs.TypeFile, Size: &size, SHA256: "0123abcd"}, "(3 bytes, sha256 0123abcd)"},
	}
	for _, tt := range tests {
		if got := describeEntry(tt.e); got != tt.want {
			t.Errorf("describeEntry(%+v) = %s, want %s", tt.e, got, tt.want)
		}
	}
}
