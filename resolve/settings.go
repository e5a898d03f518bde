package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/outfitter-go/vfsim/vfs"
)

// SettingsScope names where a settings file sits in the precedence order.
type SettingsScope string

// The settings scopes, lowest precedence first.
const (
	ScopeRemote       SettingsScope = "remote"
	ScopeUser         SettingsScope = "user"
	ScopeProject      SettingsScope = "project"
	ScopeProjectLocal SettingsScope = "project-local"
)

// SettingsFile is one settings file that loaded without problems.
type SettingsFile struct {
	// Path is the file's absolute path.
	Path  string
	Scope SettingsScope
	// Sources is the file's own profile_sources (nil when it declares
	// none), with local paths made absolute.
	Sources []Source
	// Keys are the top-level keys the file sets, in document order, so
	// that a tool can say which file set a setting (the highest file
	// setting a scalar wins) and notice keys no schema knows.
	Keys []string
}

// LoadedSettings is the outcome of [LoadSettings].
type LoadedSettings struct {
	// Settings is the merge of Files over the built-in defaults.
	Settings Settings
	// Files are the files that loaded, lowest precedence first.
	Files []SettingsFile
	// Issues are every problem found, in upstream's order; a file with a
	// problem contributes nothing.
	Issues []*Issue
}

// Paths returns the paths of the loaded files in precedence order.
func (l *LoadedSettings) Paths() []string {
	paths := make([]string, len(l.Files))
	for i, f := range l.Files {
		paths[i] = f.Path
	}
	return paths
}

// fileSettings is one converted settings file; nil fields are absent.
type fileSettings struct {
	file           SettingsFile
	defaultProfile *string
	defaultAgent   *string
	cacheDirectory *string
	profileExport  *bool
	profileSources []Source
	hasSources     bool
	remoteSettings []RemoteSettings
	hasRemote      bool
	customSettings *Object
	startup        *Startup
	enterprise     *Enterprise
}

// UserSettingsPath returns home/.outfitter/settings.yml.
func UserSettingsPath(home string) string { return vfs.Join(home, ".outfitter", "settings.yml") }

// LoadSettings loads the user, project and project-local settings files
// and, when they are valid and declare remote_settings, the cached remote
// settings files below them, and merges the lot. Missing files are skipped.
// Problems with the files' contents are returned as issues; the error is
// for a file that exists but cannot be read (a directory, say). agents
// are the agents default_agent may name.
func LoadSettings(fsys FS, home, project string, agents *Agents) (*LoadedSettings, error) {
	return (*Cache)(nil).loadSettings(fsys, home, project, agents)
}

// LoadSettingsWith is [LoadSettings] with the remote settings read
// chosen by the caller: remote returns, from the remote_settings entries
// the local files declare, those whose cached files are read (none: the
// local files only), as upstream's sync reloads the settings with the
// entries that synced; a nil remote reads every declared entry, as
// LoadSettings does.
func LoadSettingsWith(fsys FS, home, project string, agents *Agents, remote func(declared []RemoteSettings) []RemoteSettings) (*LoadedSettings, error) {
	return (*Cache)(nil).loadSettingsWith(fsys, home, project, agents, remote)
}

func (c *Cache) loadSettings(fsys FS, home, project string, agents *Agents) (*LoadedSettings, error) {
	return c.loadSettingsWith(fsys, home, project, agents, nil)
}

// loadSettingsWith loads the settings; remote, when not nil, chooses the
// remote settings entries read.
func (c *Cache) loadSettingsWith(fsys FS, home, project string, agents *Agents, remote func([]RemoteSettings) []RemoteSettings) (*LoadedSettings, error) {
	locals := []struct {
		path  string
		scope SettingsScope
	}{
		{UserSettingsPath(home), ScopeUser},
		{vfs.Join(project, ".outfitter", "settings.yml"), ScopeProject},
		{vfs.Join(project, ".outfitter", "local", "settings.yml"), ScopeProjectLocal},
	}
	var stack []*fileSettings
	var localIssues []*Issue
	for _, l := range locals {
		f, issues, err := c.loadSettingsFile(fsys, l.path, l.scope, agents)
		if err != nil {
			return nil, err
		}
		localIssues = append(localIssues, issues...)
		if f != nil {
			stack = append(stack, f)
		}
	}
	merged := mergeSettings(stack)
	refs := merged.RemoteSettings
	if remote != nil && len(localIssues) == 0 {
		refs = remote(slices.Clone(refs))
	}
	if len(localIssues) > 0 || len(refs) == 0 {
		return &LoadedSettings{Settings: merged, Files: files(stack), Issues: localIssues}, nil
	}
	var pathIssues, fileIssues []*Issue
	var remotes []*fileSettings
	for i, ref := range refs {
		p, err := remoteSettingsPath(fsys, home, ref)
		if err != nil {
			pathIssues = append(pathIssues, &Issue{
				File:    fmt.Sprintf("remote_settings[%d]", i),
				Pointer: fmt.Sprintf("/remote_settings/%d/path", i),
				Message: err.Error(),
				Err:     err,
			})
			continue
		}
		f, issues, err := c.loadSettingsFile(fsys, p, ScopeRemote, agents)
		if err != nil {
			return nil, err
		}
		if f != nil && len(issues) == 0 {
			issues = syncedSettingsIssues(fsys, f, ref.CacheDir(home))
		}
		fileIssues = append(fileIssues, issues...)
		if f != nil && len(issues) == 0 {
			remotes = append(remotes, f)
		}
	}
	stack = append(remotes, stack...)
	return &LoadedSettings{
		Settings: mergeSettings(stack),
		Files:    files(stack),
		Issues:   append(pathIssues, fileIssues...),
	}, nil
}

// syncedSettingsIssues applies the rule of synced content to a remote
// settings file, which arrived by sync into checkout: it may not set
// cache_directory (where pi's downloaded tools and the extension caches
// are written), and a local profile source it declares must lie in its
// own checkout, links resolved.
func syncedSettingsIssues(fsys FS, f *fileSettings, checkout string) []*Issue {
	var issues []*Issue
	name := f.file.Path
	if f.cacheDirectory != nil {
		issues = append(issues, &Issue{File: name, Pointer: "/cache_directory", Message: fmt.Sprintf(
			"cache_directory '%s' is set by a synced remote settings file; synced settings may not choose where the machine writes (set it in a local settings file).", Quote(*f.cacheDirectory))})
	}
	for i, s := range f.profileSources {
		if s.Remote() {
			continue
		}
		if err := Confine(fsys, s.Path, checkout); err != nil {
			issues = append(issues, &Issue{File: name, Pointer: fmt.Sprintf("/profile_sources/%d/path", i), Err: err, Message: fmt.Sprintf(
				"Profile source '%s' of a synced remote settings file must stay inside its repository: %s", Quote(s.Path), err)})
		}
	}
	return issues
}

func files(stack []*fileSettings) []SettingsFile {
	out := make([]SettingsFile, len(stack))
	for i, f := range stack {
		out[i] = f.file
	}
	return out
}

// RemoteSettingsPath returns the cached file of a remote settings entry:
// its path inside the entry's repository cache, or, for the default path
// settings.yml when that file is absent, .outfitter/settings.yml when it
// exists. An unsafe path gives a [*RemotePathError].
func RemoteSettingsPath(fsys FS, home string, ref RemoteSettings) (string, error) {
	return remoteSettingsPath(fsys, home, ref)
}

// remoteSettingsPath locates the cached file of a remote settings entry.
func remoteSettingsPath(fsys FS, home string, ref RemoteSettings) (string, error) {
	repo := repoCacheDir(home, repoURI(ref.URI, ref.GitHub), ref.Ref)
	candidate, err := repoSubpath(repo, ref.Path)
	if err != nil {
		return "", err
	}
	if ref.Path != "settings.yml" || exists(fsys, candidate) {
		return candidate, nil
	}
	if fallback := vfs.Join(repo, ".outfitter", "settings.yml"); exists(fsys, fallback) {
		return fallback, nil
	}
	return candidate, nil
}

func exists(fsys FS, name string) bool {
	_, err := vfs.Stat(fsys, name)
	return err == nil
}

// loadSettingsFile reads, parses, validates and converts one file. A
// missing file (one that does not stat) yields nothing; an unreadable one
// an error. The file is stat'ed only when reading it fails.
func (c *Cache) loadSettingsFile(fsys FS, name string, scope SettingsScope, agents *Agents) (*fileSettings, []*Issue, error) {
	data, err := ReadDocument(fsys, name)
	if _, ok := err.(*DocumentSizeError); ok {
		return nil, []*Issue{yamlIssue(yamlSize(err), name, name)}, nil
	}
	if err != nil {
		// Only a file that stats is unreadable; any other is missing.
		if errors.Is(err, fs.ErrNotExist) || !exists(fsys, name) {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("read settings: %w", err)
	}
	f, issues := c.settingsFile(data, name, scope, agents)
	return f, issues, nil
}

// parseSettingsDoc parses and validates a settings document.
func parseSettingsDoc(data []byte, name string, agents *Agents) (*Object, []*Issue) {
	doc, err := parseYAML(data)
	if err != nil {
		return nil, []*Issue{yamlIssue(err, name, name)}
	}
	if issues := agents.schemaSet().validate(settingsSchema, doc, name); len(issues) > 0 {
		return nil, issues
	}
	return doc.(*Object), nil
}

// convertSettings builds the record of a validated settings document.
func convertSettings(doc *Object, name string, scope SettingsScope) *fileSettings {
	dir := path.Dir(name)
	f := &fileSettings{file: SettingsFile{Path: name, Scope: scope, Keys: doc.Keys()}}
	f.defaultProfile = stringField(doc, "default_profile")
	f.defaultAgent = stringField(doc, "default_agent")
	if c := stringField(doc, "cache_directory"); c != nil {
		abs := absolute(dir, *c)
		f.cacheDirectory = &abs
	}
	f.profileExport = boolField(doc, "profile_export")
	if list, ok := doc.Value("profile_sources").([]any); ok {
		f.hasSources = true
		f.profileSources = make([]Source, 0, len(list))
		for _, e := range list {
			f.profileSources = append(f.profileSources, convertSource(e.(*Object), dir))
		}
		f.file.Sources = f.profileSources
	}
	if list, ok := doc.Value("remote_settings").([]any); ok {
		f.hasRemote = true
		f.remoteSettings = make([]RemoteSettings, 0, len(list))
		for _, e := range list {
			o := e.(*Object)
			f.remoteSettings = append(f.remoteSettings, RemoteSettings{
				URI: str(o, "uri"), GitHub: str(o, "github"), Ref: str(o, "ref"), Path: str(o, "path"),
			})
		}
	}
	if o, ok := doc.Value("custom_settings").(*Object); ok {
		f.customSettings = o
	}
	if o, ok := doc.Value("startup").(*Object); ok {
		f.startup = &Startup{ASCIIArt: boolField(o, "ascii_art")}
	}
	if o, ok := doc.Value("enterprise").(*Object); ok {
		f.enterprise = &Enterprise{PrivateProfileCatalogs: boolField(o, "private_profile_catalogs")}
	}
	return f
}

func convertSource(o *Object, dir string) Source {
	s := Source{URI: str(o, "uri"), GitHub: str(o, "github"), Ref: str(o, "ref"), Path: str(o, "path")}
	if !s.Remote() {
		s.Path = absolute(dir, s.Path)
	}
	s.Only = stringList(o, "only")
	s.Except = stringList(o, "except")
	return s
}

// absolute resolves p against dir lexically, like Node's path.resolve.
func absolute(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return vfs.Join(dir, p)
}

func str(o *Object, key string) string {
	s, _ := o.Value(key).(string)
	return s
}

func stringField(o *Object, key string) *string {
	if s, ok := o.Value(key).(string); ok {
		return &s
	}
	return nil
}

func boolField(o *Object, key string) *bool {
	if b, ok := o.Value(key).(bool); ok {
		return &b
	}
	return nil
}

func stringList(o *Object, key string) []string {
	list, ok := o.Value(key).([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// mergeSettings merges converted files, lowest precedence first, over the
// built-in defaults. The result shares nothing mutable with the files, which
// may come from a [Cache].
func mergeSettings(stack []*fileSettings) Settings {
	s := Settings{
		ProfileSources: []Source{},
		RemoteSettings: []RemoteSettings{},
		CustomSettings: NewObject(),
	}
	for _, f := range stack {
		if f.defaultProfile != nil {
			s.DefaultProfile = *f.defaultProfile
		}
		if f.defaultAgent != nil {
			s.DefaultAgent = *f.defaultAgent
		}
		if f.cacheDirectory != nil {
			s.CacheDirectory = *f.cacheDirectory
		}
		if f.profileExport != nil {
			s.ProfileExport = ptrTo(*f.profileExport)
		}
		if f.hasSources {
			s.ProfileSources = cloneSources(f.profileSources)
		}
		if f.hasRemote {
			s.RemoteSettings = slices.Clone(f.remoteSettings)
		}
		if f.customSettings != nil {
			s.CustomSettings = mergeInto(s.CustomSettings, f.customSettings, "", nil)
		}
		// Absent sub-keys are "no opinion" here; upstream erases the lower
		// value instead (see the package documentation).
		if f.startup != nil && f.startup.ASCIIArt != nil {
			s.Startup.ASCIIArt = ptrTo(*f.startup.ASCIIArt)
		}
		if f.enterprise != nil && f.enterprise.PrivateProfileCatalogs != nil {
			s.Enterprise.PrivateProfileCatalogs = ptrTo(*f.enterprise.PrivateProfileCatalogs)
		}
	}
	return s
}

// cloneSources copies sources with their filter lists; never nil.
func cloneSources(in []Source) []Source {
	out := make([]Source, len(in))
	for i, s := range in {
		s.Only = slices.Clone(s.Only)
		s.Except = slices.Clone(s.Except)
		out[i] = s
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }
