package composite_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/resolve"
)

// TestPlanLeavesTheResultAlone checks that planning, materializing and
// launching a run never change the resolve result it was given, with
// skills to rewrite (which the plan does in its own copy of the
// controls) and without (where the plan shares them).
func TestPlanLeavesTheResultAlone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, doc string }{
		{"no skills", "id: eng\nlabel: Eng\ncontrols:\n  model: m\n  args: [--a]\n  environment:\n    A: b\n  pi:\n    model: p\n"},
		{"no controls", "id: eng\n"},
		{"catalog skills", "id: eng\ncontrols:\n  model: m\n  skills:\n    - deploy\n  pi:\n    skills:\n      - review\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var res *resolve.Result
			var before string
			w := world{profiles: map[string]string{"eng": tc.doc}, edit: func(r *resolve.Result) {
				res, before = r, describe(r.Profile)
			}, files: map[string]string{}}
			for _, id := range []string{"deploy", "review"} {
				name, content := skill(id, "name: "+id+"\ndescription: the "+id+" skill")
				w.files[name] = content
			}
			_, r := w.mustPlan(t)
			if _, err := r.Materialize(); err != nil {
				t.Fatal(err)
			}
			if _, _, err := r.Launch(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, describe(res.Profile)); diff != "" {
				t.Errorf("the result's profile changed (-before +after):\n%s", diff)
			}
		})
	}
}

// describe renders a profile's controls, document and typed fields.
func describe(p *resolve.Profile) string {
	s := fmt.Sprintf("object %s\nskills %#v\nmodel %v\n", resolve.Stringify(p.Controls.Object, ""), p.Controls.Skills, p.Controls.Model)
	for _, a := range p.Controls.Agents {
		s += fmt.Sprintf("agent %s: object %s skills %#v\n", a.Agent, resolve.Stringify(a.Object, ""), a.Skills)
	}
	return s
}
