package writeback_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestHandleNamesTheOptionLeftOut: Handle without the agent's id fails
// before it handles anything, and an "always" answer without the
// declarations or the profile fails naming the one left out, where
// before messages named an agent with an empty name and the answer was
// warned about as if the adapter did not allow symlink for the path.
func TestHandleNamesTheOptionLeftOut(t *testing.T) {
	t.Parallel()
	always := map[string]writeback.Choice{"mcp.json": writeback.ChoiceAlways, "plugins/": writeback.ChoiceDiscard}
	decls := []composite.Declaration{{Key: "mcp.json", Allowed: []composite.Strategy{composite.StrategySymlink}}}
	profile := writeback.Profile{ID: "default", File: home + "/.outfitter/profiles/default.yml"}
	tests := []struct {
		name      string
		opts      writeback.Options
		option    string
		persisted bool // the answer's write persisted before the failure
	}{
		{"no agent", writeback.Options{Interactive: true, Declarations: decls, Profile: profile}, "writeback.Options.Agent", false},
		{"no declarations", writeback.Options{Agent: "pi", Interactive: true, Profile: profile}, "writeback.Options.Declarations", true},
		{"no profile", writeback.Options{Agent: "pi", Interactive: true, Declarations: decls}, "writeback.Options.Profile", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys, paths, issues := promptRun(t)
			tc.opts.Prompter = answers(always, new([]writeback.PromptRequest))
			r, err := writeback.Handle(context.Background(), fsys, root, paths, issues, tc.opts)
			oe, ok := errors.AsType[*resolve.OptionError](err)
			if !ok || oe.Option != tc.option || !strings.Contains(err.Error(), "give ") {
				t.Fatalf("Handle = %v, want an *OptionError naming %s", err, tc.option)
			}
			if got := len(r.Writes) == 1 && r.Writes[0].Kind == writeback.WritePersist; got != tc.persisted {
				t.Errorf("writes %v, want the persist made: %v", r.Writes, tc.persisted)
			}
			for _, w := range r.Writes {
				if w.Kind == writeback.WriteRecord {
					t.Errorf("recorded %v without the option", w)
				}
			}
		})
	}
}
