package resolve

import (
	"fmt"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
)

// Load reads the settings of opts.Home and opts.Project, loads every
// configured profile source, selects and flattens the profile, and returns
// the run's [Result], in the order upstream's run does. The error is, in
// that order of checking, a [*SettingsError], an FS error from creating the
// conventional directories, a [*RemotePathError], a [*ProfilesError],
// [ErrNoProfile], a [*ResolveError], a [*TemplateError] or an
// [*AgentError]; an FS error also comes back when a settings file exists
// but cannot be read. Before reading anything, Load returns an
// [*OptionError] for options it cannot work with: nil Agents, a Home or
// Project that is not an absolute path. Load panics if fsys is nil.
func Load(fsys FS, opts Options) (*Result, error) {
	if fsys == nil {
		panic("resolve: nil FS")
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	loaded, err := opts.Cache.loadSettings(fsys, opts.Home, opts.Project, opts.Agents)
	if err != nil {
		return nil, err
	}
	if len(loaded.Issues) > 0 {
		return nil, &SettingsError{Issues: loaded.Issues}
	}
	settings := loaded.Settings
	if opts.CreateConventionalDirs {
		if err := createConventionalDirs(fsys, loaded.Files); err != nil {
			return nil, err
		}
	}
	sources, err := MaterializeSources(fsys, opts.Home, settings.ProfileSources)
	if err != nil {
		return nil, err
	}
	layers, issues := opts.Cache.loadProfiles(fsys, sources, opts.Agents)
	if len(issues) > 0 {
		return nil, &ProfilesError{Issues: issues}
	}
	id := opts.ProfileID
	if id == "" {
		id = settings.DefaultProfile
	}
	if id == "" {
		return nil, ErrNoProfile
	}
	res := opts.Cache.resolveProfile(layers, id, opts.Project)
	if len(res.Issues) > 0 {
		return nil, &ResolveError{ID: id, Issues: res.Issues}
	}
	if top := res.Stack[len(res.Stack)-1]; top.Template != nil && *top.Template {
		return nil, &TemplateError{ID: id}
	}
	agent := opts.AgentID
	if agent == "" {
		agent = settings.DefaultAgent
	}
	if agent == "" {
		agent = opts.Agents.Default()
	}
	if !opts.Agents.Has(agent) {
		return nil, &AgentError{Agent: agent, Known: opts.Agents.IDs()}
	}
	out := &Result{
		Home:           opts.Home,
		Project:        opts.Project,
		ProfileID:      id,
		AgentID:        agent,
		Settings:       settings,
		SettingsPaths:  loaded.Paths(),
		CacheDirectory: settings.Cache(opts.Home),
		Sources:        sources,
		Profile:        res.Profile,
		Stack:          res.Stack,
		Layers:         res.Layers,
	}
	// Both lists in one allocation, each clipped to its own part.
	lists := make([]string, 0, 2*len(res.Layers))
	out.ProfilePaths = lists[0:0:len(res.Layers)]
	out.ProfileFolders = lists[len(res.Layers):len(res.Layers):cap(lists)]
	for _, l := range res.Layers {
		out.ProfilePaths = append(out.ProfilePaths, l.ProfilePath)
		if l.ResourceRoot != "" {
			out.ProfileFolders = append(out.ProfileFolders, l.ResourceRoot)
		}
	}
	return out, nil
}

// createConventionalDirs creates, for each loaded settings file, the local
// source it declares at exactly <its directory>/profiles.
func createConventionalDirs(fsys FS, files []SettingsFile) error {
	for _, f := range files {
		dir := path.Dir(f.Path)
		for _, s := range f.Sources {
			if s.Remote() || !isJoined(s.Path, dir, "profiles") {
				continue
			}
			want := s.Path
			if err := vfs.MkdirAll(fsys, want, 0o755); err != nil {
				return fmt.Errorf("create profile source: %w", err)
			}
		}
	}
	return nil
}

// isJoined reports whether p is vfs.Join(dir, name) for a plain name,
// without making the join when dir is clean and absolute.
func isJoined(p, dir, name string) bool {
	switch {
	case !vfs.PlainRel(name):
	case dir == "/":
		return len(p) == 1+len(name) && p[0] == '/' && p[1:] == name
	// The general test below answers as this one on every name it takes:
	// mutants that send it other names (a one-byte or relative dir) are
	// equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY@16 CONDITIONALS_NEGATION@30
	case len(dir) > 1 && dir[0] == '/' && vfs.PlainRel(dir[1:]):
		return len(p) == len(dir)+1+len(name) && strings.HasPrefix(p, dir) && p[len(dir)] == '/' && p[len(dir)+1:] == name
	}
	return p == vfs.Join(dir, name)
}
