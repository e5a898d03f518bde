package resolve

import "errors"

// Load reads the settings of opts.Home and opts.Project, loads every
// configured profile source, selects and flattens the profile, and returns
// the run's [Result]. The error is one of [*SettingsError],
// [*RemotePathError], [*ProfilesError], [ErrNoProfile], [*ResolveError],
// [*TemplateError] or [*AgentError], in that order of checking, or an FS
// error. Load panics if fsys is nil.
func Load(fsys FS, opts Options) (*Result, error) {
	if fsys == nil {
		panic("resolve: nil FS")
	}
	return nil, errors.New("resolve: not implemented yet")
}
