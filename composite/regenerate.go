package composite

import "github.com/outfitter-go/vfsim/resolve"

// Regenerate re-plans the generated files of a planned run from a fresh
// resolution, as upstream's live refresh does (§5.2): the same adapter and
// the same root, template rendering included, but catalog skills are not
// resolved again and the fresh plan's warnings and state paths are
// dropped. Nothing is written; the caller writes the files (see
// writeback.Refresh).
func (r *Run) Regenerate(res *resolve.Result) ([]File, error) {
	if res == nil {
		panic("composite: Regenerate needs a resolve result")
	}
	in := *r.Input
	in.Home, in.Project, in.Cache = res.Home, res.Project, res.CacheDirectory
	in.ProfileFolders, in.ProfilePaths = res.ProfileFolders, res.ProfilePaths
	in.Profile, in.Layers = res.Profile, res.Layers
	in.Settings, in.SettingsPaths = res.Settings, res.SettingsPaths
	c, _, err := r.Adapter.Compose(&in)
	if err != nil {
		return nil, err
	}
	if err := renderTemplates(c, &in); err != nil {
		return nil, err
	}
	return c.Files, nil
}
