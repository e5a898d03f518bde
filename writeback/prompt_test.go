package writeback_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/writeback"
)

func TestLinePrompter(t *testing.T) {
	t.Parallel()
	req := writeback.PromptRequest{Agent: "pi", Path: "mcp.json", SourcePath: "/home/u/.pi/agent/mcp.json"}
	text := "pi wrote state path 'mcp.json' (state_persistence 'prompt'). [p]ersist to /home/u/.pi/agent/mcp.json / [d]iscard / [a]lways persist for this profile: "
	var out strings.Builder
	p := writeback.NewLinePrompter(strings.NewReader("maybe\n  ALWAYS \nd\n"), &out)
	for _, want := range []writeback.Choice{writeback.ChoiceAlways, writeback.ChoiceDiscard} {
		got, err := p.Prompt(req)
		if err != nil || got != want {
			t.Errorf("Prompt = %q, %v; want %q", got, err, want)
		}
	}
	if want := text + text + text; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
	if _, err := p.Prompt(req); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Prompt at end of input: %v, want ErrUnexpectedEOF", err)
	}
	if got := writeback.PromptText(writeback.PromptRequest{Agent: "claude", Path: "agents/"}); !strings.Contains(got, "[p]ersist to its durable source /") {
		t.Errorf("PromptText without a source = %q", got)
	}
	for _, in := range []string{"p", "persist", " P "} {
		if c, ok := writeback.ParseChoice(in); !ok || c != writeback.ChoicePersist {
			t.Errorf("ParseChoice(%q) = %q, %v", in, c, ok)
		}
	}
}
