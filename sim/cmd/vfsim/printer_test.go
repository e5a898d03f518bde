package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/outfitter-go/vfsim/sim"
)

// TestPrinterRoutesEvents: vfsim exec prints notices and the summary on
// standard output and warnings and messages on standard error, one line
// each (a final line ending is not doubled), and nothing for an event
// without text (a refresh).
func TestPrinterRoutesEvents(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	p := printer{stdout: &stdout, stderr: &stderr}
	for _, e := range []sim.Event{
		{Kind: sim.EventNotice, Text: "notice"},
		{Kind: sim.EventWarning, Text: "warning\n"},
		{Kind: sim.EventRefresh, Files: []string{"outfitter/profile.json"}},
		{Kind: sim.EventSummary, Text: "summary\n"},
		{Kind: sim.EventMessage, Text: "message"},
		{Kind: sim.EventNotice},
	} {
		p.Observe(context.Background(), e)
	}
	if got, want := stdout.String(), "notice\nsummary\n"; got != want {
		t.Errorf("standard output %q, want %q", got, want)
	}
	if got, want := stderr.String(), "warning\nmessage\n"; got != want {
		t.Errorf("standard error %q, want %q", got, want)
	}
}

// TestIsTerminal: neither a buffer nor a file that is not a terminal (the
// null device) counts as a terminal, so exec does not prompt on them.
func TestIsTerminal(t *testing.T) {
	t.Parallel()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for name, w := range map[string]any{"a buffer": &bytes.Buffer{}, "the null device": null} {
		if isTerminal(w) {
			t.Errorf("isTerminal(%s) = true, want false", name)
		}
	}
}
