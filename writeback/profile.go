package writeback

import "github.com/outfitter-go/vfsim/resolve"

// SelectedProfile locates the definition a prompt's [ChoiceAlways] answer
// is recorded in: the highest-precedence definition of the selected
// profile id of res, as upstream picks it (the last loaded definition
// with that id); its File is empty when there is none (the bootstrap
// profile of a first-run onboarding).
func SelectedProfile(res *resolve.Result) Profile {
	p := Profile{ID: res.ProfileID}
	for i := len(res.Layers) - 1; i >= 0; i-- {
		l := res.Layers[i]
		if l.ID != res.ProfileID {
			continue
		}
		p.File = l.ProfilePath
		p.Remote = l.Synced(res.Home)
		break
	}
	return p
}
