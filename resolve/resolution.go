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
	// Issues are the cycles and missing profiles, in traversal order.
	Issues []*Issue
}

// ResolveProfile collapses same-id definitions of layers (lowest
// precedence first), builds the inheritance stack of id depth-first and
// flattens it. Relative extension and skill paths are identified against
// project.
func ResolveProfile(layers []Layer, id, project string) *Resolution {
	pf := profilePolicies(project)
	defs := collapse(layers, pf)
	res := &Resolution{}
	w := walker{defs: defs}
	ids := dedupe(w.stack(id, nil))
	res.Issues = w.issues
	for _, sid := range ids {
		res.Stack = append(res.Stack, defs[sid])
		for _, l := range layers {
			if l.ID == sid {
				res.Layers = append(res.Layers, l)
			}
		}
	}
	if len(res.Issues) > 0 || len(res.Stack) == 0 {
		return res
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
	res.Profile = profileFromObject(acc)
	return res
}

// collapse merges the definitions of each id in load order; inherits and
// the template flag come from the highest definition alone.
func collapse(layers []Layer, pf policyFunc) map[string]*Profile {
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
		defs[id] = profileFromObject(acc)
	}
	return defs
}

type walker struct {
	defs   map[string]*Profile
	issues []*Issue
}

// stack returns the ids of id's inheritance stack, parents first.
func (w *walker) stack(id string, ancestry []string) []string {
	if slices.Contains(ancestry, id) {
		chain := append(slices.Clone(ancestry), id)
		err := &CycleError{Chain: chain}
		w.issues = append(w.issues, &Issue{Pointer: "/profiles/" + id + "/inherits", Message: err.Error(), Err: err})
		return nil
	}
	def, ok := w.defs[id]
	if !ok {
		err := &NotFoundError{ID: id}
		w.issues = append(w.issues, &Issue{Pointer: "/profiles/" + id, Message: err.Error(), Err: err})
		return nil
	}
	var ids []string
	next := append(slices.Clone(ancestry), id)
	for _, parent := range def.Inherits {
		ids = append(ids, w.stack(parent, next)...)
	}
	return dedupe(append(ids, id))
}

func dedupe(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
