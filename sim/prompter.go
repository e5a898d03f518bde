package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/outfitter-go/vfsim/writeback"
)

// scriptedPrompter answers prompts from a scenario run's answers, keyed by
// the declared path with or without its trailing slash.
type scriptedPrompter map[string]string

// Prompt returns the scripted answer, or an error when there is none.
func (p scriptedPrompter) Prompt(_ context.Context, req writeback.PromptRequest) (writeback.Choice, error) {
	for _, k := range []string{req.Path, strings.TrimSuffix(req.Path, "/")} {
		if a, ok := p[k]; ok {
			return writeback.Choice(a), nil
		}
	}
	return "", fmt.Errorf("no scripted answer for prompt on %q", req.Path)
}
