package sim

import (
	"cmp"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
)

// ProfilesOptions selects the home and project of [ListProfiles] and
// [LintProfiles].
type ProfilesOptions struct {
	// Home and Project are absolute paths of the file system, required:
	// ListProfiles and LintProfiles fail with a *resolve.OptionError
	// naming them otherwise.
	Home, Project string
	// Registry holds the agents; nil means composite.DefaultRegistry.
	Registry *composite.Registry
	// All lists template profiles too (upstream's --all).
	All bool
}

// check reports a home or project directory that is not an absolute path.
func (o ProfilesOptions) check() error {
	if err := resolve.CheckDir("sim.ProfilesOptions.Home", o.Home, "the home directory, whose .outfitter/settings.yml is read (os.UserHomeDir() on the host)"); err != nil {
		return err
	}
	return resolve.CheckDir("sim.ProfilesOptions.Project", o.Project, "the project directory, whose .outfitter/settings.yml is read (the working directory on the host)")
}

func (o ProfilesOptions) registry() *composite.Registry {
	if o.Registry == nil {
		return composite.DefaultRegistry()
	}
	return o.Registry
}

// ListedProfile is one profile of [ListProfiles]: its highest-precedence
// definition.
type ListedProfile struct {
	// ID is the profile id.
	ID string
	// Label is its label, nil when it has none.
	Label *string
	// ProfilePath is the definition's file.
	ProfilePath string
	// Template reports a template profile.
	Template bool
}

// ProfileList is what `outfitter profile list` finds and prints.
type ProfileList struct {
	// Profiles are sorted by id.
	Profiles []ListedProfile
	// Messages are the lines it prints: an id a line, "(template)" after
	// a template's, or "No profiles found.".
	Messages []string
}

// ListError is a profile list that cannot be made: its message is
// upstream's, with every issue.
type ListError struct {
	// Settings reports invalid settings; otherwise the profiles are.
	Settings bool
	// Issues are the problems, in upstream's order.
	Issues []*resolve.Issue
}

// Error returns upstream's message.
func (e *ListError) Error() string {
	what := "profiles"
	if e.Settings {
		what = "settings"
	}
	parts := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		parts[i] = is.Error()
	}
	return "Cannot list profiles with invalid " + what + ": " + strings.Join(parts, "; ")
}

// ListProfiles is upstream's `outfitter profile list`: the settings (with
// the cached remote settings), every configured profile source loaded
// (a remote source that never synced is an issue here, as upstream's list
// loads it like any source), and for each id its highest-precedence
// definition, templates only with All. The error is a [*ListError], or an
// FS error for a settings file that cannot be read.
func ListProfiles(fsys resolve.FS, opts ProfilesOptions) (*ProfileList, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	agents := opts.registry().Agents()
	settings, err := resolve.LoadSettings(fsys, opts.Home, opts.Project, agents)
	if err != nil {
		return nil, err
	}
	if len(settings.Issues) > 0 {
		return nil, &ListError{Settings: true, Issues: settings.Issues}
	}
	var layers []resolve.Layer
	var issues []*resolve.Issue
	for _, s := range settings.Settings.ProfileSources {
		dir, err := resolve.SourceDirectory(opts.Home, s)
		if err != nil {
			return nil, err
		}
		l, is := resolve.LoadSource(fsys, resolve.Source{Path: dir, Only: s.Only, Except: s.Except}, agents)
		layers, issues = append(layers, l...), append(issues, is...)
	}
	if len(issues) > 0 {
		return nil, &ListError{Issues: issues}
	}
	byID := map[string]ListedProfile{}
	for _, l := range layers {
		byID[l.ID] = ListedProfile{ID: l.Profile.ID, Label: l.Profile.Label, ProfilePath: l.ProfilePath, Template: l.Profile.Template != nil && *l.Profile.Template}
	}
	out := &ProfileList{}
	for _, p := range byID {
		if opts.All || !p.Template {
			out.Profiles = append(out.Profiles, p)
		}
	}
	// localeCompare: letters before case, then the code points.
	slices.SortFunc(out.Profiles, func(a, b ListedProfile) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.ID), strings.ToLower(b.ID)), strings.Compare(a.ID, b.ID))
	})
	for _, p := range out.Profiles {
		line := p.ID
		if p.Template {
			line += " (template)"
		}
		out.Messages = append(out.Messages, line)
	}
	if len(out.Profiles) == 0 {
		out.Messages = []string{"No profiles found."}
	}
	return out, nil
}

// LintDiagnostic is one finding of [LintProfiles].
type LintDiagnostic struct {
	// Severity is "error" or "warning".
	Severity string `json:"severity"`
	// Path locates it: a settings file and pointer, a profile file, or
	// /profiles/<id>.
	Path string `json:"path"`
	// Message says what is wrong.
	Message string `json:"message"`
}

// String returns the line upstream prints: "<severity>: <path> <message>".
func (d LintDiagnostic) String() string { return d.Severity + ": " + d.Path + " " + d.Message }

// LintProfiles is upstream's `outfitter profile lint`, as a library
// function that reads fsys and writes nothing: settings problems (and
// nothing else when there are some), profiles that do not load,
// inheritance problems of every id, prompt includes of every definition
// that do not resolve (its generic entries, then each agent's block), and
// for every id that resolves the warnings of the default agent's adapter
// and its skill diagnostics, from planning the composite on a
// copy-on-write overlay of fsys (warnings, or an error that stops the
// planning). The exit code upstream gives is 1 when there is an error, or
// a warning under --strict; [LintExitCode] computes it.
func LintProfiles(fsys resolve.FS, opts ProfilesOptions) ([]LintDiagnostic, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	rfs := fsys
	registry := opts.registry()
	agents := registry.Agents()
	settings, err := resolve.LoadSettings(rfs, opts.Home, opts.Project, agents)
	if err != nil {
		return nil, err
	}
	var out []LintDiagnostic
	add := func(severity, path, message string) {
		out = append(out, LintDiagnostic{Severity: severity, Path: path, Message: message})
	}
	for _, is := range settings.Issues {
		add("error", is.File+"#"+is.Pointer, is.Message)
	}
	if len(out) > 0 {
		return out, nil
	}
	sources, err := resolve.MaterializeSources(rfs, opts.Home, settings.Settings.ProfileSources)
	if err != nil {
		return nil, err
	}
	layers, issues := resolve.LoadProfiles(rfs, sources, agents)
	for _, is := range issues {
		add("error", is.Path(), is.Message)
	}
	var ids []string
	for _, l := range layers {
		if !slices.Contains(ids, l.ID) {
			ids = append(ids, l.ID)
		}
	}
	resolved := map[string]*resolve.Resolution{}
	for _, id := range ids {
		r := resolve.ResolveProfile(layers, id, opts.Project)
		resolved[id] = r
		for _, is := range r.Issues {
			add("error", is.Path(), is.Message)
		}
	}
	for _, l := range layers {
		for _, d := range promptDiagnostics(rfs, l, opts, registry.IDs()) {
			add(d.Severity, d.Path, d.Message)
		}
	}
	for _, id := range ids {
		r := resolved[id]
		if len(r.Issues) > 0 || r.Profile == nil {
			continue
		}
		warnings, err := adapterWarnings(fsys, settings, sources, r, id, opts, registry)
		at := "/profiles/" + id
		for _, w := range warnings {
			add("warning", at, w)
		}
		if err != nil {
			add("error", at, err.Error())
		}
	}
	return out, nil
}

// LintExitCode is upstream's exit code of a lint: 1 when there is an
// error, or a warning and strict is set; else 0.
func LintExitCode(diags []LintDiagnostic, strict bool) int {
	for _, d := range diags {
		if d.Severity == "error" || strict {
			return 1
		}
	}
	return 0
}

// promptDiagnostics resolves the prompt includes of one definition: its
// generic entries, then those of each agent's block, each list on its
// own.
func promptDiagnostics(fsys resolve.FS, l resolve.Layer, opts ProfilesOptions, agents []string) []resolve.Diagnostic {
	if l.Profile == nil {
		return nil
	}
	lists := [][]resolve.PromptEntry{l.Profile.Controls.AppendSystemPrompt}
	for _, a := range agents {
		if b := l.Profile.Controls.Agent(a); b != nil {
			lists = append(lists, b.AppendSystemPrompt)
		}
	}
	var out []resolve.Diagnostic
	for _, entries := range lists {
		if len(entries) == 0 {
			continue
		}
		one := l
		p := *l.Profile
		p.Controls = resolve.Controls{AppendSystemPrompt: entries, Object: resolve.NewObject()}
		one.Profile = &p
		_, diags := resolve.AppendSystemPrompts(fsys, resolve.PromptIncludes{Layers: []resolve.Layer{one}, Home: opts.Home, Project: opts.Project}, "", nil)
		out = append(out, diags...)
	}
	return out
}

// adapterWarnings plans the composite of a resolved id for the default
// agent, prompt includes left out (they are linted on their own), on a
// copy-on-write overlay of fsys, and returns its warnings, or the error
// that stopped the planning.
func adapterWarnings(fsys resolve.FS, settings *resolve.LoadedSettings, sources []resolve.SourceDir, r *resolve.Resolution, id string, opts ProfilesOptions, registry *composite.Registry) ([]string, error) {
	res := &resolve.Result{
		Home: opts.Home, Project: opts.Project, ProfileID: id, AgentID: registry.IDs()[0],
		Settings: settings.Settings, SettingsPaths: settings.Paths(), CacheDirectory: settings.Settings.Cache(opts.Home), Sources: sources,
		Profile: withoutPrompts(r.Profile), Stack: r.Stack, ProfilePaths: []string{}, ProfileFolders: []string{},
	}
	for _, l := range r.Layers {
		l.Profile = withoutPrompts(l.Profile)
		res.Layers = append(res.Layers, l)
		res.ProfilePaths = append(res.ProfilePaths, l.ProfilePath)
		if l.ResourceRoot != "" {
			res.ProfileFolders = append(res.ProfileFolders, l.ResourceRoot)
		}
	}
	ov := overlayfs.New(fsys, overlayfs.Options{})
	if err := vfs.MkdirAll(ov, "/tmp", 0o777); err != nil {
		return nil, err
	}
	run, err := composite.Plan(ov, composite.Request{Result: res}, composite.Options{NoSweep: true, Registry: registry})
	if err != nil {
		return nil, err
	}
	return run.Warnings, nil
}

// withoutPrompts returns a copy of p without append_system_prompt entries.
func withoutPrompts(p *resolve.Profile) *resolve.Profile {
	if p == nil {
		return nil
	}
	c := *p
	c.Controls.AppendSystemPrompt = nil
	c.Controls.Agents = slices.Clone(c.Controls.Agents)
	for i := range c.Controls.Agents {
		c.Controls.Agents[i].AppendSystemPrompt = nil
	}
	return &c
}
