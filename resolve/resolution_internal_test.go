package resolve

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"pgregory.net/rapid"
)

// graph is an inheritance graph: each profile's id and inherits list, in
// load order.
type graph []node

type node struct {
	id       string
	inherits []string
}

// chain is p0 inheriting p1 inheriting ... p<n-1>, selected at p0.
func chain(n int) graph {
	g := make(graph, n)
	for i := range g {
		g[i].id = fmt.Sprintf("p%d", i)
		if i+1 < n {
			g[i].inherits = []string{fmt.Sprintf("p%d", i+1)}
		}
	}
	return g
}

// ladder is a ladder of diamonds of the given height: top inherits
// [q0, r0], and each q<i>, r<i> inherits [q<i+1>, r<i+1>] up to
// q<height>, r<height>. It has 2*height+3 profiles and 2^(height+1)
// paths from top to its last rung.
func ladder(height int) graph {
	g := graph{{id: "top", inherits: []string{"q0", "r0"}}}
	for i := 0; i <= height; i++ {
		var parents []string
		if i < height {
			parents = []string{fmt.Sprintf("q%d", i+1), fmt.Sprintf("r%d", i+1)}
		}
		g = append(g, node{fmt.Sprintf("q%d", i), parents}, node{fmt.Sprintf("r%d", i), parents})
	}
	return g
}

// size is the number of profiles plus the number of inherits entries.
func (g graph) size() int {
	n := len(g)
	for _, d := range g {
		n += len(d.inherits)
	}
	return n
}

// layers builds one parsed layer per node.
func (g graph) layers(tb vfstest.TB) []Layer {
	tb.Helper()
	out := make([]Layer, len(g))
	for i, d := range g {
		doc := "id: " + d.id + "\ninherits: [" + strings.Join(d.inherits, ", ") + "]\n"
		p, issue := ParseProfile([]byte(doc), d.id, "/src/"+d.id+".yml", internalAgents())
		if issue != nil {
			tb.Fatalf("ParseProfile %s: %v", d.id, issue)
		}
		out[i] = Layer{ID: p.ID, ProfilePath: "/src/" + d.id + ".yml", Profile: p, Layout: LayoutFlatFile}
	}
	return out
}

// defs is the collapsed definitions of g, as ResolveProfile builds them.
func (g graph) defs(tb vfstest.TB) map[string]*Profile {
	tb.Helper()
	return collapse(g.layers(tb), profilePolicies("/p", nil), nil)
}

// TestInheritanceWalkIsLinear checks that building the stack looks at each
// profile and each inherits entry at most once on graphs whose number of
// paths grows quadratically (a chain, through the ancestry of each
// profile) or exponentially (a ladder of diamonds).
func TestInheritanceWalkIsLinear(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		g    graph
		id   string
		want []string // the first ids of the stack
	}{
		{"chain of 1600", chain(1600), "p0", []string{"p1599", "p1598"}},
		{"ladder of height 40", ladder(40), "top", []string{"q40", "r40", "q39", "r39"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := walker{defs: tc.g.defs(t)}
			ids := w.walk(tc.id)
			if len(w.issues) > 0 {
				t.Fatalf("issues: %v", w.issues[0])
			}
			if len(ids) != len(tc.g) || !slices.Equal(ids[:len(tc.want)], tc.want) || ids[len(ids)-1] != tc.id {
				t.Fatalf("stack %v…, want %d ids starting %v", ids[:min(len(ids), 6)], len(tc.g), tc.want)
			}
			if limit := tc.g.size(); w.steps > limit {
				t.Errorf("the walk took %d steps, want at most %d (profiles plus inherits entries)", w.steps, limit)
			}
		})
	}
}

// referenceStack is upstream's resolveProfileStack written out directly:
// every path expanded, each level deduplicated keeping first occurrences.
// It takes time exponential in the number of diamonds.
func referenceStack(defs map[string]*Profile, id string, ancestry []string, issues *[]*Issue) []string {
	if slices.Contains(ancestry, id) {
		err := &CycleError{Chain: append(slices.Clone(ancestry), id)}
		*issues = append(*issues, &Issue{Pointer: "/profiles/" + id + "/inherits", Message: err.Error(), Err: err})
		return nil
	}
	def, ok := defs[id]
	if !ok {
		err := &NotFoundError{ID: id}
		*issues = append(*issues, &Issue{Pointer: "/profiles/" + id, Message: err.Error(), Err: err})
		return nil
	}
	var ids []string
	for _, parent := range def.Inherits {
		ids = append(ids, referenceStack(defs, parent, append(slices.Clone(ancestry), id), issues)...)
	}
	return referenceDedupe(append(ids, id))
}

func referenceDedupe(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// drawGraph draws up to eight profiles p0…p7 whose inherits lists name
// other profiles, themselves, or the missing m0 and m1; with dag set, a
// profile names only later profiles (and missing ones), so there is no
// cycle.
func drawGraph(t *rapid.T, dag bool) graph {
	n := rapid.IntRange(1, 8).Draw(t, "profiles")
	g := make(graph, n)
	for i := range g {
		g[i].id = fmt.Sprintf("p%d", i)
		first := 0
		if dag {
			first = i + 1
		}
		var names []string
		for j := first; j < n; j++ {
			names = append(names, fmt.Sprintf("p%d", j))
		}
		if rapid.Bool().Draw(t, fmt.Sprintf("p%d may name missing profiles", i)) {
			names = append(names, "m0", "m1")
		}
		if len(names) > 0 {
			g[i].inherits = rapid.SliceOfN(rapid.SampledFrom(names), 0, 4).Draw(t, fmt.Sprintf("p%d inherits", i))
		}
	}
	return g
}

// TestPropInheritanceWalkMatchesUpstream compares the walk with upstream's
// algorithm on random graphs: the same stack in the same order, the same
// issues in the same order with the same cycle chains. On graphs without
// cycles or missing profiles it also checks the step bound.
func TestPropInheritanceWalkMatchesUpstream(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		dag  bool
	}{{"dag", true}, {"any", false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rapid.Check(t, func(t *rapid.T) {
				g := drawGraph(t, tc.dag)
				id := rapid.SampledFrom(append(g.ids(), "m0")).Draw(t, "selected")
				defs := g.defs(t)
				var wantIssues []*Issue
				want := referenceDedupe(referenceStack(defs, id, nil, &wantIssues))
				w := walker{defs: defs}
				got := w.walk(id)
				if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("stack (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(issueRecords(wantIssues), issueRecords(w.issues), cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("issues (-want +got):\n%s", diff)
				}
				if len(wantIssues) == 0 && w.steps > g.size() {
					t.Fatalf("the walk took %d steps on a valid graph of size %d", w.steps, g.size())
				}
			})
		})
	}
}

// issueRecord is an issue's text and typed condition, for comparison.
type issueRecord struct {
	Text     string
	Chain    []string // of a CycleError
	NotFound string   // the id of a NotFoundError
}

func issueRecords(issues []*Issue) []issueRecord {
	out := make([]issueRecord, len(issues))
	for i, is := range issues {
		out[i].Text = is.Error()
		var cycle *CycleError
		var missing *NotFoundError
		switch {
		case errors.As(is, &cycle):
			out[i].Chain = cycle.Chain
		case errors.As(is, &missing):
			out[i].NotFound = missing.ID
		}
	}
	return out
}

func (g graph) ids() []string {
	ids := make([]string, len(g))
	for i, d := range g {
		ids[i] = d.id
	}
	return ids
}

// TestInheritanceWalkMatchesUpstreamOnBrokenLadders checks, against the
// reference, ladders whose every path reaches a missing profile or a
// cycle: each path reports it again.
func TestInheritanceWalkMatchesUpstreamOnBrokenLadders(t *testing.T) {
	t.Parallel()
	missing := ladder(5)
	missing[len(missing)-2].inherits = []string{"gone"} // q5
	missing[len(missing)-1].inherits = []string{"gone"} // r5
	cyclic := ladder(5)
	cyclic[len(cyclic)-1].inherits = []string{"q3"} // r5
	for _, tc := range []struct {
		name       string
		g          graph
		wantIssues int
	}{
		{"a missing profile under the last rung", missing, 64},
		{"the last rung inherits a rung above it", cyclic, 48},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			defs := tc.g.defs(t)
			var wantIssues []*Issue
			want := referenceDedupe(referenceStack(defs, "top", nil, &wantIssues))
			w := walker{defs: defs}
			got := w.walk("top")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stack (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(issueRecords(wantIssues), issueRecords(w.issues)); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
			if len(w.issues) != tc.wantIssues {
				t.Errorf("%d issues, want %d", len(w.issues), tc.wantIssues)
			}
		})
	}
}

// TestInheritanceWalkStops checks the two limits on broken graphs with
// exponentially many paths: the walk lists upstream's first issues, then
// stops with an InheritanceLimitError, in a bounded number of steps.
func TestInheritanceWalkStops(t *testing.T) {
	t.Parallel()
	missing := ladder(40)
	missing[len(missing)-1].inherits = []string{"gone"}
	// Each rung also inherits 4,000 valid leaves, walked again on every
	// path: the step budget runs out before the issue limit.
	wide := ladder(40)
	var leaves []string
	for i := range 4000 {
		leaves = append(leaves, fmt.Sprintf("leaf%d", i))
		wide = append(wide, node{id: leaves[i]})
	}
	for i := range wide {
		if strings.HasPrefix(wide[i].id, "q") {
			wide[i].inherits = append(slices.Clone(leaves), wide[i].inherits...)
		}
	}
	wide[len(ladder(40))-1].inherits = []string{"gone"}
	for _, tc := range []struct {
		name       string
		g          graph
		wantIssues int
	}{
		{"issue limit", missing, maxWalkIssues},
		{"step limit", wide, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := walker{defs: tc.g.defs(t)}
			w.walk("top")
			if len(w.issues) < 2 {
				t.Fatalf("issues: %v", issueRecords(w.issues))
			}
			listed, last := w.issues[:len(w.issues)-1], w.issues[len(w.issues)-1]
			for _, is := range listed {
				if is.Error() != "/profiles/gone Profile 'gone' was not found." {
					t.Fatalf("issue %q, want the missing profile", is.Error())
				}
			}
			if tc.wantIssues > 0 && len(listed) != tc.wantIssues || tc.wantIssues == 0 && len(listed) >= maxWalkIssues {
				t.Errorf("%d issues listed, want %d (0: fewer than the issue limit)", len(listed), tc.wantIssues)
			}
			var limit *InheritanceLimitError
			if !errors.As(last, &limit) || *limit != (InheritanceLimitError{ID: "top", Issues: len(listed)}) {
				t.Fatalf("last issue %v, want an InheritanceLimitError", last)
			}
			want := fmt.Sprintf("/profiles/top/inherits inheritance of profile 'top' has too many broken paths to list: stopped after %d issues", len(listed))
			if last.Error() != want {
				t.Errorf("last issue %q, want %q", last.Error(), want)
			}
			// The budget (one step per profile and inherits entry, and
			// maxWalkExtraSteps more), plus the step that found it spent.
			budget := tc.g.size() + maxWalkExtraSteps + 1
			if tc.wantIssues == 0 && w.steps != budget+1 || w.steps > budget+1 {
				t.Errorf("%d steps, want %d (at most, when the issue limit stops the walk)", w.steps, budget+1)
			}
		})
	}
}

// BenchmarkResolveInheritance resolves the two shapes whose number of
// paths outgrows their size, at several sizes: a chain of n profiles and a
// ladder of diamonds of height h (2h+3 profiles). Time per profile stays
// flat when resolution is linear in the size of the graph.
func BenchmarkResolveInheritance(b *testing.B) {
	type shape struct {
		name string
		g    graph
		id   string
	}
	var shapes []shape
	for _, n := range []int{100, 200, 400, 800, 1600} {
		shapes = append(shapes, shape{fmt.Sprintf("chain/n=%d", n), chain(n), "p0"})
	}
	for _, h := range []int{5, 10, 20, 40, 80} {
		shapes = append(shapes, shape{fmt.Sprintf("ladder/h=%d", h), ladder(h), "top"})
	}
	for _, s := range shapes {
		b.Run(s.name, func(b *testing.B) {
			layers := s.g.layers(b)
			b.ReportAllocs()
			for b.Loop() {
				if res := ResolveProfile(layers, s.id, "/p"); res.Profile == nil {
					b.Fatalf("issues: %v", res.Issues)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.g)), "ns/profile")
		})
	}
}
