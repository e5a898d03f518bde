package composite

import (
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
)

// TestRenderTemplatesShareOneEnvironment checks that the files of a
// composite render against one environment, as upstream's render against
// one context object: a counter that increment writes in one file goes on
// in the next, and a file without markers is left alone.
func TestRenderTemplatesShareOneEnvironment(t *testing.T) {
	t.Parallel()
	c := &Composite{Files: []File{
		{RelativePath: "a.md", Content: "[[% increment n %]][[% increment n %]]"},
		{RelativePath: "plain.md", Content: "no marker here: [ [= and [[ x ]]"},
		{RelativePath: "b.md", Content: "[[% increment n %]]/[[= outfitter.agent ]]"},
	}}
	in := &Input{Agent: "pi", Settings: resolve.Settings{}, SettingsPaths: []string{"/home/u/.outfitter/settings.yml"}}
	if err := renderTemplates(c, in); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"01", "no marker here: [ [= and [[ x ]]", "2/pi"} {
		if got := c.Files[i].Content; got != want {
			t.Errorf("%s: %q, want %q", c.Files[i].RelativePath, got, want)
		}
	}
	if got := c.Files[1].SourceInputs; len(got) != 0 {
		t.Errorf("a file without markers gained inputs %q", got)
	}
}
