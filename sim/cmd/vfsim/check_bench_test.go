package main

import (
	"io"
	"testing"
)

// BenchmarkCheck runs vfsim check on the built-in catalog in process: the
// catalog loaded, every scenario run with a fresh cache and reported, as
// the command does after the process has started.
func BenchmarkCheck(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"check"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("vfsim check exited with %d", code)
		}
	}
}
