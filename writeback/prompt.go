package writeback

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// PromptText returns the question upstream's terminal prompt prints,
// verbatim, trailing space included.
func PromptText(req PromptRequest) string {
	dest := req.SourcePath
	if dest == "" {
		dest = "its durable source"
	}
	return fmt.Sprintf("%s wrote state path '%s' (state_persistence 'prompt'). [p]ersist to %s / [d]iscard / [a]lways persist for this profile: ", req.Agent, req.Path, dest)
}

// ParseChoice reads a terminal answer: trimmed and case-insensitive, "p"
// or "persist", "d" or "discard", "a" or "always". It reports false for
// anything else.
func ParseChoice(answer string) (Choice, bool) {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "p", "persist":
		return ChoicePersist, true
	case "d", "discard":
		return ChoiceDiscard, true
	case "a", "always":
		return ChoiceAlways, true
	}
	return "", false
}

// LinePrompter is a terminal [Prompter]: it writes [PromptText] and reads
// answer lines until one parses, like upstream's readline prompt. It is
// not safe for concurrent use.
type LinePrompter struct {
	in  *bufio.Scanner
	out io.Writer
}

// NewLinePrompter returns a prompter that asks on out and reads from in.
func NewLinePrompter(in io.Reader, out io.Writer) *LinePrompter {
	return &LinePrompter{in: bufio.NewScanner(in), out: out}
}

// Prompt asks until an answer parses. The end of the input, or a failure
// to read or write, is an error.
func (p *LinePrompter) Prompt(req PromptRequest) (Choice, error) {
	for {
		if _, err := io.WriteString(p.out, PromptText(req)); err != nil {
			return "", fmt.Errorf("prompt: %w", err)
		}
		if !p.in.Scan() {
			if err := p.in.Err(); err != nil {
				return "", fmt.Errorf("prompt: %w", err)
			}
			return "", fmt.Errorf("prompt: %w", io.ErrUnexpectedEOF)
		}
		if c, ok := ParseChoice(p.in.Text()); ok {
			return c, nil
		}
	}
}
