package resolve

import (
	"slices"
)

// Resolution is the outcome of [ResolveProfile].
type Resolution struct {
	// Profile is the flattened profile, nil when there are issues.
	Profile *Profile
	// Stack holds the per-id definitions in stack order; partial when
	// there are issues, empty when the selected id is unknown.
	Stack []*Profile
	// Layers holds every loaded definition of each stack id, stack order
	// first, load order second.
	Layers []Layer
	// Issues are the cycles and missing profiles, in traversal order,
	// and an [*InheritanceLimitError] last if there were too many.
	Issues []*Issue
}

// ResolveProfile collapses same-id definitions of layers (lowest
// precedence first), builds the inheritance stack of id depth-first and
// flattens it. Relative extension and skill paths are identified against
// project.
func ResolveProfile(layers []Layer, id, project string) *Resolution {
	res, _ := resolveProfile(layers, id, project)
	return res
}

// resolveProfile is [ResolveProfile], also returning the index in layers
// of each entry of the resolution's Layers.
func resolveProfile(layers []Layer, id, project string) (*Resolution, []int) {
	agents := layerAgents(layers)
	pf := profilePolicies(project, agents)
	defs := collapse(layers, pf, agents)
	res := &Resolution{}
	w := walker{defs: defs}
	ids := w.walk(id)
	res.Issues = w.issues
	byID := make(map[string][]int, len(ids))
	for _, sid := range ids {
		byID[sid] = nil
	}
	for i, l := range layers {
		if list, ok := byID[l.ID]; ok {
			byID[l.ID] = append(list, i)
		}
	}
	var idx []int
	for _, sid := range ids {
		res.Stack = append(res.Stack, defs[sid])
		for _, i := range byID[sid] {
			res.Layers = append(res.Layers, layers[i])
			idx = append(idx, i)
		}
	}
	if len(res.Issues) > 0 || len(res.Stack) == 0 {
		return res, idx
	}
	acc := profileObject(res.Stack[0]).Clone()
	for _, p := range res.Stack[1:] {
		acc = mergeInto(acc, profileObject(p), "", pf)
	}
	top := res.Stack[len(res.Stack)-1]
	if top.Template != nil && *top.Template {
		acc.Set("template", true)
	} else {
		acc.Delete("template")
	}
	res.Profile = profileFromObject(acc, agents)
	return res, idx
}

// layerAgents returns the ids of the agent blocks the layers' profiles
// have, in the order they first appear: the agents the profiles were
// parsed for, as far as they matter.
func layerAgents(layers []Layer) []string {
	var out []string
	for _, l := range layers {
		for _, a := range l.Profile.Controls.Agents {
			if !slices.Contains(out, a.Agent) {
				out = append(out, a.Agent)
			}
		}
	}
	return out
}

// collapse merges the definitions of each id in load order; inherits and
// the template flag come from the highest definition alone.
func collapse(layers []Layer, pf policyFunc, agents []string) map[string]*Profile {
	groups := make(map[string][]*Profile)
	for _, l := range layers {
		groups[l.ID] = append(groups[l.ID], l.Profile)
	}
	defs := make(map[string]*Profile, len(groups))
	for id, group := range groups {
		top := group[len(group)-1]
		if len(group) == 1 {
			defs[id] = top
			continue
		}
		acc := profileObject(group[0]).Clone()
		for _, p := range group[1:] {
			acc = mergeInto(acc, profileObject(p), "", pf)
		}
		acc.Set("inherits", inheritsValue(top))
		if top.Template != nil && *top.Template {
			acc.Set("template", true)
		} else {
			acc.Delete("template")
		}
		defs[id] = profileFromObject(acc, agents)
	}
	return defs
}

// Limits of the inheritance walk on broken graphs. A graph without cycles
// or missing profiles is walked in at most one step per profile and
// inherits entry. Upstream lists every problem once per path that reaches
// it, and a ladder of diamonds over a missing profile has exponentially
// many such paths; the walk lists them as upstream does until it has
// recorded maxWalkIssues issues or taken maxWalkExtraSteps steps beyond
// the size of the graph, then stops with an [InheritanceLimitError].
const (
	maxWalkIssues     = 1000
	maxWalkExtraSteps = 1 << 20
)

// walker builds an inheritance stack. The stack is the order in which
// profiles first appear when every path is expanded as upstream does
// (parents' stacks, then the profile, the first occurrence kept); the
// walker emits each profile once, at the end of its first walk, and walks
// a profile again only if its first walk recorded issues: a profile that
// reaches no cycle and no missing profile contributes nothing new on
// later paths, while one that does reports its problems again on each
// path, with that path in its cycle chains.
type walker struct {
	defs   map[string]*Profile
	issues []*Issue
	// path holds the profiles being walked, outermost first; onPath is
	// the same as a set.
	path   []string
	onPath map[string]bool
	// stack holds the emitted ids in order; emitted is the same as a set.
	stack   []string
	emitted map[string]bool
	// clean holds the profiles whose walk recorded no issue.
	clean map[string]bool
	// steps counts the profiles visited and the ids copied into cycle
	// chains; budget is the most it may reach.
	steps, budget int
	stopped       bool
}

// walk returns the inheritance stack of id, parents first, and records
// the issues found on the way in w.issues.
func (w *walker) walk(id string) []string {
	w.onPath = make(map[string]bool)
	w.emitted = make(map[string]bool)
	w.clean = make(map[string]bool)
	w.budget = maxWalkExtraSteps + 1
	for _, def := range w.defs {
		w.budget += 1 + len(def.Inherits)
	}
	w.visit(id)
	if w.stopped {
		err := &InheritanceLimitError{ID: id, Issues: len(w.issues)}
		w.issues = append(w.issues, &Issue{Pointer: "/profiles/" + id + "/inherits", Message: err.Error(), Err: err})
	}
	return w.stack
}

// visit walks id reached through w.path.
func (w *walker) visit(id string) {
	if w.steps++; w.steps > w.budget {
		w.stopped = true
		return
	}
	if w.onPath[id] {
		w.steps += len(w.path)
		err := &CycleError{Chain: append(slices.Clone(w.path), id)}
		w.report(&Issue{Pointer: "/profiles/" + id + "/inherits", Message: err.Error(), Err: err})
		return
	}
	def, ok := w.defs[id]
	if !ok {
		err := &NotFoundError{ID: id}
		w.report(&Issue{Pointer: "/profiles/" + id, Message: err.Error(), Err: err})
		return
	}
	if w.clean[id] {
		return
	}
	before := len(w.issues)
	w.path = append(w.path, id)
	w.onPath[id] = true
	for _, parent := range def.Inherits {
		if w.visit(parent); w.stopped {
			return
		}
	}
	w.path = w.path[:len(w.path)-1]
	delete(w.onPath, id)
	if !w.emitted[id] {
		w.emitted[id] = true
		w.stack = append(w.stack, id)
	}
	if len(w.issues) == before {
		w.clean[id] = true
	}
}

// report records an issue, or stops the walk if it holds maxWalkIssues.
func (w *walker) report(is *Issue) {
	if len(w.issues) == maxWalkIssues {
		w.stopped = true
		return
	}
	w.issues = append(w.issues, is)
}
