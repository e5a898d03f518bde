// Package resolve is a port of the legacy Outfitter settings and profile
// resolver: it reads settings layers and profile sources through a [vfs]
// file system and produces the flattened profile of a run.
//
// Nothing here touches the real disk or the process environment: the home
// and project directories are given in [Options], and every file is read
// through the [FS] passed to [Load].
//
// # Settings
//
// [LoadSettings] reads, lowest precedence first, the cached remote settings
// files named by remote_settings (one level, under
// <home>/.outfitter/cache/repos/<base64url of uri#ref>), then
// <home>/.outfitter/settings.yml, <project>/.outfitter/settings.yml and
// <project>/.outfitter/local/settings.yml. Missing files are skipped.
// Scalars take the highest defined value, profile_sources and
// remote_settings are replaced as whole lists, custom_settings is deep
// merged (an explicit null overrides), and relative paths resolve against
// the declaring file's directory. The result is a [Settings] value with
// absolute paths.
//
// YAML is decoded with the YAML 1.2 core schema ("yes" stays a string);
// duplicate keys and several documents are errors, and aliases are held to
// upstream's budget (an anchor used about a hundred times, fewer when it
// holds aliases itself) with upstream's "Excessive alias count" message. Documents are checked
// against embedded JSON Schemas (draft 2020-12), compiled once per [Agents]
// set and reused for every document, by a validator of the keywords they
// and agent blocks may use that evaluates them as the JSON Schema library
// santhosh-tekuri/jsonschema/v6 does (the tests hold the two to the same
// issues); the library is not linked into programs, since its package
// initialization alone cost every process several milliseconds. Every problem is an [Issue] with a file,
// a JSON pointer and a message: settings files report all their problems,
// profiles only the first, as upstream does. Validator messages use
// upstream's vocabulary but are not promised word for word; files and
// pointers are.
//
// # Profiles
//
// [MaterializeSources] maps each profile source to a directory (remote
// ones to the repository cache, see [SourceDirectory]); [LoadProfiles]
// scans them: <id>/profile.yml folders and <id>.yml or <id>.yaml flat
// files, in sorted order, filtered by only and except. Unsynced remote
// sources are skipped silently.
//
// [ResolveProfile] collapses same-id definitions (inherits and template
// from the highest one), walks the inheritance stack depth first, reports
// every cycle ([CycleError]) and missing profile ([NotFoundError]) in
// traversal order, and flattens the stack with upstream's path policies:
// args prepended, append_system_prompt prepended as lists, extensions and
// skills deduplicated by resource identity ([ExtensionIdentity],
// [SkillIdentity]), DeepWork jobs appended uniquely, objects deep merged
// and other arrays replaced.
//
// # Agents
//
// The resolver knows the agents it is given ([Options].Agents, an
// [Agents] set that package composite builds from its adapters): the
// first is the default agent, default_agent must name one of them, and
// each one's controls block (controls.<id>) is checked against the
// common agent controls and the agent's own block schema, gets the
// camelCase twins and merges like the generic controls. Any other key of
// controls is an ordinary control, kept as written. [Load] selects the
// run's agent among them.
//
// [Load] runs the whole pipeline with upstream's error messages and order
// ([SettingsError], [RemotePathError], [ProfilesError], [ErrNoProfile],
// [ResolveError], [TemplateError], [AgentError]) and returns a [Result].
// [Profile.GeneratedJSON] renders the composite's outfitter/profile.json
// byte for byte as upstream does, and [Result.AppendSystemPrompts] resolves
// prompt includes.
//
// # Documents
//
// Profile controls are kept as an [Object], an ordered mapping with the
// key order of a JavaScript object, so that merging and [Stringify]
// reproduce upstream's output exactly, including both spellings of
// session_directory, prompt_template, system_prompt and
// append_system_prompt: as upstream's loader does, the camelCase spelling
// (sessionDirectory, …) is set from the snake_case key alone, so a
// camelCase-only key is dropped and with both the snake_case value wins.
// [Controls] gives a typed view of the same data.
//
// # Deviations from upstream
//
// Where upstream depends on its process environment or has an accident
// that no output depends on, the port differs on purpose:
//
//   - Relative extension and skill paths ("./ext") are identified against
//     the run's project directory, not the process working directory.
//   - The include root of a profile under <home>/.outfitter is found with
//     the home given to the resolver, not the operating system's home.
//   - A higher settings file with "startup: {}" or "enterprise: {}" keeps
//     the lower ascii_art and private_profile_catalogs values; upstream
//     erases them by copying an undefined value. No resolver output
//     depends on these keys.
//   - The inheritance walk costs time linear in the number of profiles
//     and inherits entries: it walks a profile once unless that walk
//     found a cycle or a missing profile, which upstream reports again on
//     every path that reaches it. On a broken graph with very many such
//     paths the walk stops after 1,000 issues (or about a million steps
//     beyond the graph's size) and adds an [InheritanceLimitError];
//     upstream would list them all, exponentially many in the number of
//     diamonds. Stacks and issues are otherwise upstream's, in order.
//   - A YAML file over 16 MiB, or whose aliases would copy more than
//     2^20 values (upstream's aliases share one value, these are copied),
//     is refused with a [YAMLSizeError]; upstream has no size limit.
//   - Credentials in repository URIs are redacted with Go's URL
//     serialisation, which differs from WHATWG's only in corner cases.
//
// Every other quirk the specification lists is reproduced: the highest
// same-id definition alone supplies inherits and template, empty lists
// cannot clear inherited args, a non-string id is replaced by the slug, a
// dangling link fails its whole source, any YAML file in a source is a
// profile, the remote settings.yml fallback applies to exactly
// "settings.yml", and home equal to project loads the settings file twice.
//
// # Synced content
//
// What arrives by sync is held to one rule, which upstream does not
// have (a deliberate deviation): a checkout under home/.outfitter/cache
// ([SyncedCheckout]) and everything lying in it, whoever declared it,
// reads only inside the checkout, links resolved ([Confine]), and, through
// repo_file, inside the project; a synced settings file sets no
// cache_directory and declares no local profile source outside its
// checkout (issues); a synced profile's include root is found inside its
// checkout; a path a synced profile declares for the agent to read (a
// skill, an extension) is passed on only when it lies inside its
// checkout or the project, and its session_directory is not used; and
// the agent's writes to a synced profile's state sources go to their
// copies under home/.outfitter/state ([SyncedState]). Every document is
// read through [ReadDocument], never more than [MaxDocumentBytes]+1
// bytes of it, and names in messages are quoted ([Quote]).
//
// # Concurrency
//
// The functions of this package are safe for concurrent use on distinct
// values; a [Result] and the [Object] values inside it must not be
// modified concurrently.
package resolve
