package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExample follows the README's guide to writing a fixture: its
// complete example, saved as hello.txtar, gets its expected files from
// update and then passes check and lint, with a pi and a Claude run.
func TestReadmeExample(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "Save this as `hello.txtar`:\n\n```\n")
	example, _, closed := strings.Cut(rest, "```\n")
	if !ok || !closed {
		t.Fatal("the README has no complete example saved as hello.txtar")
	}
	file := filepath.Join(t.TempDir(), "hello.txtar")
	if err := os.WriteFile(file, []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "update", file); code != 0 || !strings.Contains(out, "3 expected files written; 0 of 2 scenarios still fail") {
		t.Fatalf("vfsim update hello.txtar = %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, "check", file)
	if code != 0 || !strings.Contains(out, "PASS hello/claude-exits-2") || !strings.Contains(out, "PASS hello/pi-writes-settings") {
		t.Errorf("vfsim check hello.txtar = %d\n%s%s", code, out, errs)
	}
	if code, out, _ := runCLI(t, "lint", file); code != 0 || out != "no lint findings\n" {
		t.Errorf("vfsim lint hello.txtar = %d\n%s", code, out)
	}
}
