package proptest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/vfs"
)

// Loc names one of the four places profiles can live in a [World].
type Loc string

// The profile locations of a world: the conventional local folders and one
// remote repository cache.
const (
	LocHome    Loc = "home"    // <home>/.outfitter/profiles
	LocProject Loc = "project" // <project>/.outfitter/profiles
	LocLocal   Loc = "local"   // <project>/.outfitter/local/profiles
	LocRemote  Loc = "remote"  // the cache checkout of github: acme/profiles
)

// Locs returns every location, in a fixed order.
func Locs() []Loc { return []Loc{LocHome, LocProject, LocLocal, LocRemote} }

// The remote repositories of a world, as settings name them.
const (
	RemoteProfiles = "acme/profiles" // the remote profile source (path: profiles)
	RemoteSettings = "acme/settings" // the remote settings repository (path: settings.yml)
)

// RepoCache returns the fixture-relative cache directory of a GitHub
// repository without a ref: <home>/.outfitter/cache/repos/<base64url of
// its git URL with an empty fragment>.
func RepoCache(repo string) string {
	enc := base64.RawURLEncoding.EncodeToString([]byte("git+https://github.com/" + repo + ".git#"))
	return "home/.outfitter/cache/repos/" + enc
}

// Dir returns the fixture-relative directory of a location.
func (l Loc) Dir() string {
	switch l {
	case LocHome:
		return "home/.outfitter/profiles"
	case LocProject:
		return "project/.outfitter/profiles"
	case LocLocal:
		return "project/.outfitter/local/profiles"
	}
	return RepoCache(RemoteProfiles) + "/profiles"
}

// Layer names a settings file of a [World], lowest precedence first.
type Layer string

// The settings layers.
const (
	LayerRemote  Layer = "remote"
	LayerUser    Layer = "user"
	LayerProject Layer = "project"
	LayerLocal   Layer = "project-local"
)

// File returns the fixture-relative path of the layer's settings file.
func (l Layer) File() string {
	switch l {
	case LayerUser:
		return "home/.outfitter/settings.yml"
	case LayerProject:
		return "project/.outfitter/settings.yml"
	case LayerLocal:
		return "project/.outfitter/local/settings.yml"
	}
	return RepoCache(RemoteSettings) + "/settings.yml"
}

// Settings is one settings file. Empty strings and false leave a key out.
type Settings struct {
	// DefaultProfile and DefaultAgent are default_profile and default_agent.
	DefaultProfile, DefaultAgent string
	// CacheDirectory writes cache_directory: ./cache (relative to the file).
	CacheDirectory bool
	// RemoteSettings declares remote_settings with the one remote settings
	// repository.
	RemoteSettings bool
	// DeclaresSources writes profile_sources (Sources, possibly empty).
	DeclaresSources bool
	// Sources are the profile_sources entries, lowest precedence first.
	Sources []SourceRef
	// Extra are further top-level entries (custom_settings,
	// profile_export, unknown keys), written last, in order.
	Extra []Entry
	// Text is how the file is spelled or broken.
	Text Text
}

// Entry is one YAML mapping entry written as "key: value", where Value is
// a YAML flow value (a plain scalar, a JSON string, [a, b] or {k: v}).
type Entry struct {
	Key, Value string
}

// SourceRef is one profile_sources entry.
type SourceRef struct {
	// Loc is the location the entry points at.
	Loc Loc
	// Only and Except are the entry's filters; nil leaves them out.
	Only, Except []string
}

// Controls are the launch controls a profile sets; empty strings are unset.
type Controls struct {
	// Model, Provider and SessionDir are the generic model, provider and
	// session_directory controls.
	Model, Provider, SessionDir string
	// PiModel is pi.model; ClaudeModel and ClaudeProvider are claude.model
	// and claude.provider.
	PiModel, ClaudeModel, ClaudeProvider string
	// Extra are further controls entries, written after the fields above,
	// in order. A world that uses the pi or claude key here leaves the
	// agent fields above empty, so no key is written twice.
	Extra []Entry
}

// Rule is one state_persistence entry.
type Rule struct {
	Key, Strategy string
}

// Profile is one profile definition.
type Profile struct {
	// Loc is where the definition lives.
	Loc Loc
	// Flat stores it as <loc>/<id>.yml instead of <loc>/<id>/profile.yml.
	Flat bool
	// ID is the profile id (also the folder or file name).
	ID string
	// Inherits lists the parents, lowest precedence first.
	Inherits []string
	// Top are further top-level entries (label, description, template,
	// profile_export, unknown keys), written after inherits, in order.
	Top []Entry
	// Controls are the profile's controls.
	Controls Controls
	// State is the state_persistence map, in order.
	State []Rule
	// Files are files below the profile folder (directory layout only),
	// such as cli_specific/pi/auth.json, relative to the folder.
	Files []File
	// Text is how the file is spelled or broken.
	Text Text
}

// File is one entry of the fixture, relative to its root (or to a profile
// folder in [Profile.Files]).
type File struct {
	// Path is the slash-separated relative path.
	Path string
	// Data is the content of a file.
	Data string
}

// Op is one agent op of a run. An edit_source op also carries the edited
// definition, so models can follow the edit.
type Op struct {
	fixtures.Op
	// Profile is the index in [World.Profiles] of the definition an
	// edit_source op rewrites.
	Profile int
	// Edited is the definition an edit_source op writes (its YAML is the
	// op's data).
	Edited *Profile
}

// Run is one launch of a world's scenario.
type Run struct {
	// Agent and Profile are --agent and --profile ("" for the defaults).
	Agent, Profile string
	// Strict and Interactive are --strict and an interactive session.
	Strict, Interactive bool
	// Answers maps declared state paths to prompt answers.
	Answers map[string]string
	// Args are the pass-through arguments.
	Args []string
	// Ops is what the agent does.
	Ops []Op
}

// World is a whole generated Outfitter machine: settings at every layer,
// profile definitions, native, cache and other files, and the runs of one
// scenario. It is a plain value, so a shrunk counterexample prints
// readably; [World.Txtar] and [World.Scenario] render it for the engine.
type World struct {
	// Name names the rendered fixture and scenario.
	Name string
	// User, Project and Local are the local settings files; nil means
	// absent. Remote is the cached remote settings file.
	User, Project, Local, Remote *Settings
	// Profiles are the profile definitions.
	Profiles []Profile
	// Files are other files of the machine (native and cache state,
	// decoys), relative to the fixture root.
	Files []File
	// Runs are the scenario's runs, in order.
	Runs []Run
	// Platform is the platform the scenario runs as ("" for Linux): see
	// [PlatformWorldGen].
	Platform vfs.Platform
}

// Layers returns the present settings files with their layers, lowest
// precedence first. The remote file is listed whenever it is present.
func (w World) Layers() []Layer {
	var out []Layer
	for _, l := range []Layer{LayerRemote, LayerUser, LayerProject, LayerLocal} {
		if w.Settings(l) != nil {
			out = append(out, l)
		}
	}
	return out
}

// Settings returns the settings file of a layer, or nil.
func (w World) Settings(l Layer) *Settings {
	switch l {
	case LayerUser:
		return w.User
	case LayerProject:
		return w.Project
	case LayerLocal:
		return w.Local
	}
	return w.Remote
}

// ProfileFile returns the fixture-relative YAML file of a definition.
func (p Profile) ProfileFile() string {
	if p.Flat {
		return p.Loc.Dir() + "/" + p.ID + ".yml"
	}
	return p.Folder() + "/profile.yml"
}

// Folder returns the fixture-relative folder of a directory-layout
// definition, or "" for a flat one.
func (p Profile) Folder() string {
	if p.Flat {
		return ""
	}
	return p.Loc.Dir() + "/" + p.ID
}

// Name returns the definition's entry name in its source directory.
func (p Profile) Name() string {
	if p.Flat {
		return p.ID + ".yml"
	}
	return p.ID
}

// YAML renders the definition's profile file.
func (p Profile) YAML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "id: %s\n", p.ID)
	if len(p.Inherits) > 0 {
		fmt.Fprintf(&b, "inherits: [%s]\n", strings.Join(p.Inherits, ", "))
	}
	writeEntries(&b, "", p.Top)
	c := p.Controls
	var lines []string
	add := func(indent, key, v string) {
		if v != "" {
			lines = append(lines, fmt.Sprintf("%s%s: %s", indent, key, v))
		}
	}
	add("  ", "model", c.Model)
	add("  ", "provider", c.Provider)
	add("  ", "session_directory", c.SessionDir)
	if c.PiModel != "" {
		lines = append(lines, "  pi:")
		add("    ", "model", c.PiModel)
	}
	if c.ClaudeModel != "" || c.ClaudeProvider != "" {
		lines = append(lines, "  claude:")
		add("    ", "model", c.ClaudeModel)
		add("    ", "provider", c.ClaudeProvider)
	}
	for _, e := range c.Extra {
		lines = append(lines, "  "+e.Key+": "+e.Value)
	}
	if len(lines) > 0 {
		b.WriteString("controls:\n" + strings.Join(lines, "\n") + "\n")
	}
	if len(p.State) > 0 {
		b.WriteString("state_persistence:\n")
		for _, r := range p.State {
			fmt.Fprintf(&b, "  %q: %s\n", r.Key, r.Strategy)
		}
	}
	return p.Text.apply(b.String())
}

// Dir returns the fixture-relative directory holding the layer's file.
func (l Layer) Dir() string { return path.Dir(l.File()) }

// YAML renders a settings file of the given layer (relative paths are
// written relative to the file's directory).
func (s *Settings) YAML(l Layer) string {
	var b strings.Builder
	if s.DefaultProfile != "" {
		fmt.Fprintf(&b, "default_profile: %s\n", s.DefaultProfile)
	}
	if s.DefaultAgent != "" {
		fmt.Fprintf(&b, "default_agent: %s\n", s.DefaultAgent)
	}
	if s.CacheDirectory {
		b.WriteString("cache_directory: ./cache\n")
	}
	if s.RemoteSettings {
		fmt.Fprintf(&b, "remote_settings:\n  - github: %s\n    path: settings.yml\n", RemoteSettings)
	}
	if s.DeclaresSources {
		if len(s.Sources) == 0 {
			b.WriteString("profile_sources: []\n")
		} else {
			b.WriteString("profile_sources:\n")
		}
		for _, src := range s.Sources {
			if src.Loc == LocRemote {
				fmt.Fprintf(&b, "  - github: %s\n    path: profiles\n", RemoteProfiles)
			} else {
				fmt.Fprintf(&b, "  - path: %s\n", relPath(l.Dir(), src.Loc.Dir()))
			}
			if src.Only != nil {
				fmt.Fprintf(&b, "    only: [%s]\n", strings.Join(src.Only, ", "))
			}
			if src.Except != nil {
				fmt.Fprintf(&b, "    except: [%s]\n", strings.Join(src.Except, ", "))
			}
		}
	}
	writeEntries(&b, "", s.Extra)
	if b.Len() == 0 {
		return s.Text.apply("{}\n")
	}
	return s.Text.apply(b.String())
}

// writeEntries writes mapping entries, one line each.
func writeEntries(b *strings.Builder, indent string, entries []Entry) {
	for _, e := range entries {
		fmt.Fprintf(b, "%s%s: %s\n", indent, e.Key, e.Value)
	}
}

// relPath returns the relative path from directory from to target, both
// clean slash-separated relative paths.
func relPath(from, target string) string {
	f, t := strings.Split(from, "/"), strings.Split(target, "/")
	i := 0
	for i < len(f) && i < len(t) && f[i] == t[i] {
		i++
	}
	parts := []string{"."}
	for range f[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[i:]...)
	if len(parts) > 1 && parts[1] == ".." {
		parts = parts[1:]
	}
	return strings.Join(parts, "/")
}

// FixtureFiles returns every file of the rendered fixture, sorted by path:
// README.md, the settings files, the profile files and folders' files, and
// the world's other files.
func (w World) FixtureFiles() []File {
	files := map[string]string{
		"README.md":     "Generated world " + w.Name + ".\n",
		"project/.keep": "",
	}
	for _, l := range w.Layers() {
		files[l.File()] = w.Settings(l).YAML(l)
	}
	for _, p := range w.Profiles {
		files[p.ProfileFile()] = p.YAML()
		if p.Flat {
			continue
		}
		for _, f := range p.Files {
			files[p.Folder()+"/"+f.Path] = f.Data
		}
	}
	for _, f := range w.Files {
		files[f.Path] = f.Data
	}
	out := make([]File, 0, len(files))
	for _, p := range slices.Sorted(maps.Keys(files)) {
		out = append(out, File{Path: p, Data: files[p]})
	}
	return out
}

// Txtar renders the world's fixture as a txtar archive for
// [fixtures.LoadTxtar]; the local profile folders always exist.
func (w World) Txtar() []byte {
	a := &txtar.Archive{}
	var comment strings.Builder
	comment.WriteString("# " + w.Name + ": a generated world (package proptest)\n")
	files := w.FixtureFiles()
	for _, loc := range []Loc{LocHome, LocProject, LocLocal} {
		if !slices.ContainsFunc(files, func(f File) bool { return strings.HasPrefix(f.Path, loc.Dir()+"/") }) {
			fmt.Fprintf(&comment, "mkdir %s\n", loc.Dir())
		}
	}
	a.Comment = []byte(comment.String())
	for _, f := range files {
		a.Files = append(a.Files, txtar.File{Name: f.Path, Data: []byte(f.Data)})
	}
	return txtar.Format(a)
}

// Scenario renders the world's runs as a scenario for [fixtures.ParseScenario].
func (w World) Scenario() *fixtures.Scenario {
	sc := &fixtures.Scenario{Name: w.Name, Fixture: w.Name, Platform: w.Platform, Runs: []fixtures.AgentRun{}}
	for _, r := range w.Runs {
		fr := fixtures.AgentRun{Agent: r.Agent, Profile: r.Profile, Strict: r.Strict, Interactive: r.Interactive, Answers: r.Answers, Args: r.Args}
		for _, op := range r.Ops {
			fr.Ops = append(fr.Ops, op.Op)
		}
		sc.Runs = append(sc.Runs, fr)
	}
	return sc
}

// ScenarioJSON renders [World.Scenario] as an indented scenario file.
func (w World) ScenarioJSON() []byte {
	data, err := json.MarshalIndent(w.Scenario(), "", "  ")
	if err != nil {
		panic(fmt.Sprintf("proptest: encoding a scenario: %v", err)) // plain values always encode
	}
	return append(data, '\n')
}

// Load renders the world and loads it back: the fixture and the scenario
// the engine runs, exactly what a counterexample file replays.
func (w World) Load() (*fixtures.Fixture, *fixtures.Scenario, error) {
	fx, err := fixtures.LoadTxtar(w.Txtar(), w.Name+".txtar")
	if err != nil {
		return nil, nil, fmt.Errorf("render world %s: %w", w.Name, err)
	}
	sc, err := fixtures.ParseScenario(w.ScenarioJSON(), w.Name+".json")
	if err != nil {
		return nil, nil, fmt.Errorf("render world %s: %w", w.Name, err)
	}
	return fx, sc, nil
}
