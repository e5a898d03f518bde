package writeback

import (
	"bufio"
	"context"
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
// answer lines until one parses, like upstream's readline prompt. Lines
// are read by one goroutine, started by the first prompt and ending at
// the end of the input (a prompter on a terminal that is never closed
// keeps it waiting), so that a prompt given up when its context is done
// loses no line: the next prompt reads it. It is not safe for concurrent
// use.
type LinePrompter struct {
	in    io.Reader
	out   io.Writer
	lines chan string
	err   error // why the input ended; read once lines is closed
}

// NewLinePrompter returns a prompter that asks on out and reads from in.
func NewLinePrompter(in io.Reader, out io.Writer) *LinePrompter {
	return &LinePrompter{in: in, out: out}
}

// read starts the reader once and returns its lines; the channel is
// closed at the end of the input, with p.err set.
func (p *LinePrompter) read() <-chan string {
	if p.lines == nil {
		p.lines = make(chan string)
		go func() {
			sc := bufio.NewScanner(p.in)
			for sc.Scan() {
				p.lines <- sc.Text()
			}
			p.err = sc.Err()
			if p.err == nil {
				p.err = io.ErrUnexpectedEOF
			}
			close(p.lines)
		}()
	}
	return p.lines
}

// Prompt asks until an answer parses. The end of the input, or a failure
// to read or write, is an error; so is ctx ending before an answer, with
// ctx's error.
func (p *LinePrompter) Prompt(ctx context.Context, req PromptRequest) (Choice, error) {
	lines := p.read()
	for {
		if _, err := io.WriteString(p.out, PromptText(req)); err != nil {
			return "", fmt.Errorf("prompt: %w", err)
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("prompt: %w", ctx.Err())
		case text, ok := <-lines:
			if !ok {
				return "", fmt.Errorf("prompt: %w", p.err)
			}
			if c, ok := ParseChoice(text); ok {
				return c, nil
			}
		}
	}
}
