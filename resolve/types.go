package resolve

import (
	"github.com/outfitter-go/vfsim/vfs"
)

// FS is what the resolver needs from a file system: stat, whole-file reads
// and sorted directory listings. [vfs.MemFS] and the OS backend satisfy it.
// Creating the conventional profile directories ([Options].CreateConventionalDirs)
// additionally needs [vfs.MkdirAllFS] or [vfs.MkdirFS], checked at run time.
type FS interface {
	vfs.StatFS
	vfs.ReadFileFS
	vfs.ReadDirFS
}

// Options selects what [Load] resolves. The zero value is not useful: Home
// and Project must be absolute, slash-separated paths inside the FS.
type Options struct {
	// Home is the home directory given to the resolver (upstream's
	// os.homedir()); settings live in Home/.outfitter. It is an absolute
	// path of the file system, required.
	Home string
	// Project is the project directory (upstream's working directory), an
	// absolute path of the file system, required. No upward search
	// happens.
	Project string
	// ProfileID is the explicitly selected profile (upstream's -p); empty
	// means "use the merged default_profile".
	ProfileID string
	// AgentID is the explicitly selected agent (upstream's --agent); empty
	// means "use the merged default_agent, else the default agent of
	// Agents".
	AgentID string
	// Agents are the agents the run may use (package composite's
	// registry gives them); they decide what default_agent and the agent
	// blocks of controls may say. It is required: Load fails with an
	// [*OptionError] naming it when it is nil.
	// composite.DefaultRegistry().Agents() gives pi and Claude.
	Agents *Agents
	// CreateConventionalDirs creates, as upstream's run does, every local
	// profile source that is exactly "profiles" next to the settings file
	// declaring it, before profiles are loaded.
	CreateConventionalDirs bool
	// Cache, when not nil, memoizes parsed and validated files across
	// calls (see [Cache]); nil parses every file anew.
	Cache *Cache
}

// Layout tells how a loaded profile was stored in its source.
type Layout string

// The two profile layouts.
const (
	// LayoutDirectory is a <source>/<id>/profile.yml folder; the folder is
	// the profile's resource root.
	LayoutDirectory Layout = "directory"
	// LayoutFlatFile is a <source>/<id>.yml or .yaml file without a
	// resource root.
	LayoutFlatFile Layout = "flat-file"
)

// Source is one entry of the settings key profile_sources. Exactly one of
// the local (Path only), uri (URI) and github (GitHub) shapes holds.
type Source struct {
	// Path is, for a local source, the absolute directory (resolved against
	// the declaring settings file's directory); for a remote source the
	// repository-relative subpath as written ("" when absent).
	Path string
	// URI is the repository URI of a uri source, verbatim.
	URI string
	// GitHub is the owner/repo of a github source.
	GitHub string
	// Ref is the branch, tag or commit of a remote source ("" when absent).
	Ref string
	// Only keeps just these profile ids when non-nil; an empty non-nil
	// slice keeps nothing.
	Only []string
	// Except drops these profile ids when non-nil.
	Except []string
}

// Remote reports whether the source is a uri or github source.
func (s Source) Remote() bool { return s.URI != "" || s.GitHub != "" }

// RemoteSettings is one entry of the settings key remote_settings: a
// settings file inside a synced repository.
type RemoteSettings struct {
	// URI is the repository URI (exclusive with GitHub).
	URI string
	// GitHub is the owner/repo shorthand (exclusive with URI).
	GitHub string
	// Ref is the branch, tag or commit ("" when absent).
	Ref string
	// Path is the repository-relative settings file path, as written.
	Path string
}

// Startup holds the settings key startup.
type Startup struct {
	// ASCIIArt is startup.ascii_art; nil means unset (effective true).
	ASCIIArt *bool
}

// Enterprise holds the settings key enterprise.
type Enterprise struct {
	// PrivateProfileCatalogs is enterprise.private_profile_catalogs; nil
	// means unset (effective false).
	PrivateProfileCatalogs *bool
}

// Settings is the merged settings record: the built-in defaults overlaid
// by remote, user, project and project-local files. Paths are absolute.
type Settings struct {
	// DefaultProfile is default_profile, "" when no file sets it.
	DefaultProfile string
	// DefaultAgent is default_agent, "" when no file sets it (effective:
	// the default agent of [Options].Agents).
	DefaultAgent string
	// CacheDirectory is the absolute cache_directory, "" when no file sets
	// it; [Settings.Cache] and [Result].CacheDirectory give the effective
	// value.
	CacheDirectory string
	// ProfileExport is profile_export, nil when unset (effective false).
	ProfileExport *bool
	// ProfileSources is the whole list of the highest file declaring
	// profile_sources, in precedence order (lowest first); never nil.
	ProfileSources []Source
	// RemoteSettings is the whole list of the highest file declaring
	// remote_settings; never nil.
	RemoteSettings []RemoteSettings
	// CustomSettings is the deep-merged custom_settings mapping; never nil.
	CustomSettings *Object
	// Startup is the shallow-merged startup mapping.
	Startup Startup
	// Enterprise is the shallow-merged enterprise mapping.
	Enterprise Enterprise
}

// Cache returns the effective cache directory of a user whose home is
// home: CacheDirectory, or home/.outfitter/cache when no file sets it.
func (s *Settings) Cache(home string) string {
	if s.CacheDirectory == "" {
		return vfs.Join(home, ".outfitter", "cache")
	}
	return s.CacheDirectory
}

// Reference is one entry of a skill's references list (or of a SKILL.md's
// references, scripts or assets): a file, relative to the root of the
// catalog or profile repository that declares it, or a repo_file,
// relative to the project.
type Reference struct {
	// Repo reports a repo_file entry; else it is a file entry.
	Repo bool
	// Path is the path as written.
	Path string
}

// Skill is one entry of a skills control: either a bare string (Value) or
// a mapping with an id and optional references.
type Skill struct {
	// Mapping reports an {id, references} entry; else it is a string.
	Mapping bool
	// Value is the string entry (skill id or path); "" for mappings.
	Value string
	// ID is the mapping's id; "" for string entries.
	ID string
	// References are the object entry's references, in order.
	References []Reference
}

// PromptKind tells how an append_system_prompt entry is given.
type PromptKind string

// The three prompt entry kinds.
const (
	PromptText     PromptKind = "text"
	PromptFile     PromptKind = "file"
	PromptRepoFile PromptKind = "repo_file"
)

// PromptEntry is one append_system_prompt entry: literal text, a file
// relative to the declaring layer's include root, or a file relative to the
// project directory.
type PromptEntry struct {
	Kind PromptKind
	// Value is the text or the path, as written.
	Value string
}

// EnvVar is one environment variable of a profile, in document order.
type EnvVar struct {
	Name, Value string
}

// Controls is a typed view of a controls mapping (or of an agent's
// block). Object is the source of truth: it keeps every key, known or not,
// in upstream's insertion order, with both spellings of session_directory,
// prompt_template, system_prompt and append_system_prompt; the typed fields
// are read from it. Pointer and slice fields are nil when the key is absent.
type Controls struct {
	Model              *string
	Provider           *string
	Thinking           *string
	SessionDirectory   *string
	PromptTemplate     *string
	SystemPrompt       *string
	Args               []string
	Extensions         []string
	Skills             []Skill
	AppendSystemPrompt []PromptEntry
	Environment        []EnvVar
	// DeepworkJobs is controls.deepwork.jobs (generic controls only).
	DeepworkJobs []string
	// Agents are the blocks of the known agents ([Options].Agents) that
	// the controls have, in the agents' order, nil when there are none
	// (generic controls only); [Controls.Agent] looks one up. A key of
	// controls that names no known agent is an ordinary control: it stays
	// in Object and nowhere else.
	Agents []AgentControls
	// Object is the whole mapping, never nil.
	Object *Object
}

// AgentControls is the typed view of one agent's controls block.
type AgentControls struct {
	// Agent is the agent id, the block's key in controls.
	Agent string
	Controls
}

// Agent returns the block of the agent id, nil when there is none.
func (c *Controls) Agent(id string) *Controls {
	for i := range c.Agents {
		if c.Agents[i].Agent == id {
			return &c.Agents[i].Controls
		}
	}
	return nil
}

// Profile is a parsed or merged profile document.
type Profile struct {
	ID          string
	Label       *string
	Description *string
	// Template is the template flag; a resolved profile keeps it only when
	// the selected definition is a template.
	Template *bool
	// Inherits lists the parents in declared order; never nil.
	Inherits      []string
	ProfileExport *bool
	// StatePersistence maps composite-relative state paths (or "unknown")
	// to a strategy string, in insertion order; nil when absent or empty.
	StatePersistence *Object
	// Controls is the typed view of the controls mapping.
	Controls Controls
}

// Layer is one loaded profile definition: one file in one source.
type Layer struct {
	// ID is the profile id (the YAML id or the folder/file slug).
	ID string
	// Source is the configured profile source, remote ones as written.
	Source Source
	// SourceRoot is the directory scanned (the materialised cache
	// directory for remote sources).
	SourceRoot string
	// FolderPath is the profile folder (directory layout) or SourceRoot.
	FolderPath string
	// ProfilePath is the profile YAML file.
	ProfilePath string
	// ResourceRoot is the profile folder for directory layouts, "" else.
	ResourceRoot string
	// Layout is how the profile is stored.
	Layout Layout
	// Profile is the parsed document.
	Profile *Profile
}

// SourceDir is a configured profile source and the directory it maps to.
type SourceDir struct {
	Source Source
	// Dir is the local directory (the cache directory for remote sources).
	Dir string
	// Synced is false for a remote source whose cache directory is missing.
	Synced bool
}

// Result is the resolution of one run (upstream's resolved bundle).
type Result struct {
	// Home and Project are the directories the resolver was given.
	Home, Project string
	// ProfileID is the selected profile id; AgentID the effective agent,
	// always one of [Options].Agents.
	ProfileID, AgentID string
	// Settings is the merged settings record.
	Settings Settings
	// SettingsPaths are the settings files loaded, lowest precedence first.
	SettingsPaths []string
	// CacheDirectory is Settings.CacheDirectory or Home/.outfitter/cache.
	CacheDirectory string
	// Sources are the configured profile sources in precedence order.
	Sources []SourceDir
	// Profile is the flattened profile.
	Profile *Profile
	// Stack holds the per-id definitions in stack order (parents first).
	Stack []*Profile
	// Layers holds, for each stack entry in order, every loaded definition
	// with that id in load order.
	Layers []Layer
	// ProfilePaths is the ProfilePath of each layer.
	ProfilePaths []string
	// ProfileFolders is the ResourceRoot of each directory-layout layer.
	ProfileFolders []string
}
