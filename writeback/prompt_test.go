package writeback_test

import (
	"context"
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
		got, err := p.Prompt(context.Background(), req)
		if err != nil || got != want {
			t.Errorf("Prompt = %q, %v; want %q", got, err, want)
		}
	}
	if want := text + text + text; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
	if _, err := p.Prompt(context.Background(), req); !errors.Is(err, io.ErrUnexpectedEOF) {
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

// TestLinePrompterContext gives up a prompt whose context ends before an
// answer, and the next prompt reads the answer that came late: no line
// is lost.
func TestLinePrompterContext(t *testing.T) {
	t.Parallel()
	r, w := io.Pipe()
	p := writeback.NewLinePrompter(r, io.Discard)
	req := writeback.PromptRequest{Agent: "pi", Path: "mcp.json"}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Prompt(ctx, req); !errors.Is(err, context.Canceled) {
		t.Fatalf("Prompt with a done context: %v, want context.Canceled", err)
	}
	go func() {
		io.WriteString(w, "persist\n")
		w.Close()
	}()
	if got, err := p.Prompt(context.Background(), req); err != nil || got != writeback.ChoicePersist {
		t.Errorf("next Prompt = %q, %v; want persist", got, err)
	}
	if _, err := p.Prompt(context.Background(), req); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Prompt at end of input: %v, want ErrUnexpectedEOF", err)
	}
}
