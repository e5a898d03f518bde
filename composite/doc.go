// Package composite plans and materializes Outfitter's composite profile:
// the temporary configuration directory one agent CLI runs against, built
// from a [resolve.Result] on any vfs file system.
//
// # Plan, write, launch
//
// [Plan] follows upstream's run order: sweep stale roots ([Sweep]), look
// the resolved agent up in the [Registry], create the root ([CreateRoot],
// named <temp>/outfitter-<profile>-<agent>-XXXXXX with an injected random
// source), resolve catalog skills into it (see below), let the adapter
// compose the [Composite] (generated [File]s and declared [StatePath]s),
// render template markers, and build the adapter's [LaunchPlan]. Nothing
// else is written until [Run.Materialize], which calls [Write]: files
// first, then state paths, then the system prompt export. [Run.Launch]
// returns the final plan, completed by a [LaunchFinisher] adapter (pi
// writes its launch extension into the root for an interactive launch),
// so call it after the baseline snapshot, as upstream does. [Run.Cleanup]
// removes the root without following links unless --debug was passed
// through; then the root is kept even when Plan fails, and
// [Options].Notify gets the notice that names it as soon as it exists,
// as upstream prints it before a --strict failure.
//
// # Catalog skills
//
// Skill ids in the skills controls (generic and every agent's block) are
// looked up in the catalog roots (the project's local and shared skills,
// each layer's bundled skills, each source's skills) and become
// generated skills below <root>/outfitter/skills: a copy of the skill
// (links copied as links, never followed) with the files its SKILL.md
// names in references, scripts and assets, and those an {id, references}
// entry adds, copied beside it with their modes. Every SKILL.md problem,
// a reference that is missing, special or whose real path leaves its
// root, a directory reference holding such a path or a link cycle, a
// destination claimed twice, an id selected with two reference sets or an
// {id} entry no catalog has fails the run with a [*SkillsError] listing
// them all, in upstream's words; a catalog root that cannot be listed
// fails with a [*SkillsDirectoryError]. Pass-through ids and shadowed
// ids are warnings. Unlike upstream, nothing is ever written through a
// link while a skill is generated (a linked catalog skill with files to
// copy is copied, not written into; a section the skill ships as a link
// is refused), and a reference glob's extglob groups are literal; globs
// combining "**" and ".." may match otherwise where Node's walk depends
// on the order of directory listings.
//
// # System prompt export
//
// With profile_export (the profile's, else the settings'), the prompt
// controls of the registry's [PromptExporter] (pi) are rendered into
// generated-system-prompt.md beside the owning profile (or
// <id>.generated-system-prompt.md beside a flat one), named in the launch
// environment as [ExportEnv], and rendered again by [Run.Export] on each
// live refresh. A cache-backed or ownerless profile is skipped with a
// message (not a warning: --strict ignores it). The path is decided at
// planning, so that one leaving the profile's folder fails the run
// ([*ExportError]) before anything durable is written; upstream throws it
// after the composite is written. Unlike upstream, a link at the export
// path is written through only when it leads inside the folder.
//
// # Deviations from upstream
//
// Where upstream writes through a link into the user's files, or words an
// error with a JavaScript library's own text, the package differs on
// purpose (the README lists every deviation with the number of oracle
// worlds it shows in):
//
//   - A catalog skill that is a symbolic link and has references, scripts
//     or assets to copy is copied into the composite. Upstream copies the
//     link and then writes the copies through it, into the linked
//     checkout: a durable write into a tree the run has no business
//     changing. A linked skill with nothing to copy stays a link, as
//     upstream leaves it.
//   - A SKILL.md whose frontmatter is not valid YAML fails the run at the
//     same point and with the same words as upstream's up to
//     "YAMLParseError: ", naming the same file; what follows is the
//     message of go.yaml.in/yaml/v3, not of the JavaScript yaml library,
//     whose diagnostics would mean porting its parser.
//   - A reference glob's extglob groups are literal, and a link at the
//     system prompt export path is written through only when it leads
//     inside the profile's folder (see above).
//
// # Agents
//
// The [Registry] is the one place that knows which agents exist:
// [DefaultRegistry] holds [Pi], the default agent, and [Claude]. It tells
// the resolver which agents there are ([Registry.Agents]): what
// default_agent and --agent may name, which keys of controls are agent
// blocks and what those blocks accept. The agent is chosen once, by the
// resolver; [Plan] looks the result's agent up.
//
// An [Adapter] gives its [Declaration]s with default and allowed
// [Strategy] values, plans its composite and builds its command line from
// what [Input] offers every agent: the [Controls] merged for it, the
// declared state paths with their durable sources ([Input.StatePaths]:
// the highest-precedence profile folder's cli_specific/<agent>/<path>,
// else what the adapter says, such as the native directory), the
// generated profile and plugin files, the unsupported-control warnings and
// the layered prompts. What only some agents have are optional
// interfaces: extra keys of their controls block ([BlockSchemaAdapter]),
// a launch step that writes into the root ([LaunchFinisher]) and an
// install hint ([InstallHinter]). A third agent is one more type
// implementing [Adapter] and one line in the registry, or a [Registry] of
// one's own ([NewRegistry]).
//
// # Durable side
//
// Planning never writes outside the root. Materialization creates missing
// sources with their defaults ([EnsureSource]) and links to them; on a file
// system without symbolic links it copies instead and returns upstream's
// warning. Paths that would leave the root are refused with an
// [*EscapeError]; file system failures are [*WriteError]s that wrap the
// cause.
//
// Every write that lands outside the root survives a power cut once it
// returns: a source's default content and the blank-source reset, the
// system prompt export and pi's settings written through a state path's
// link go through [vfs.ReplaceFile] (synced before and after its rename),
// and new source directories are made with [vfs.MkdirAllSynced]. Writes
// inside the root are temporary by design and never synced: a power cut
// may lose them, and the next run builds the composite again.
//
// A blank source that another live session's agent is using is not reset
// (a deviation: upstream resets it). The agent writes its state through
// the link, truncating the file and then writing it, and sim holds a
// shared lock of each durable file a state link leads to while the agent
// runs ([vfs.SharedLockFS]); the blank-source reset of [EnsureSource]
// tries the exclusive lock of the file under the lock of its
// replacements, and a file in use is left as it is, with a warning,
// since a reset then would rename a new file over the one the agent is
// writing and lose what it writes. On a file system without shared locks
// the reset is upstream's.
//
// # Links in profile folders
//
// A profile-owned source (cli_specific/<agent>/<path>) is where the
// agent's writes through its state link land, so where it really leads
// matters:
//
//   - In a synced profile source (a uri or github repository, loaded from
//     its checkout in the cache), a source whose real path leaves the
//     checkout is refused at planning with a [*SourceLinkError] naming
//     the link and its target: a repository's author never decides where
//     the agent writes on this machine. Links that stay inside the
//     checkout are followed.
//   - In a local profile source the links are the user's own, and are
//     followed wherever they lead, as upstream follows them (a
//     dotfiles-managed cli_specific/pi/settings.json, say).
//   - Either way, the blank-source reset of [EnsureSource] (a blank
//     mcp.json, models.json or trust.json made valid JSON) never writes
//     through a link whose real path leaves the profile folder the source
//     was found in ([StatePath].Folder): such a source is left blank and a
//     warning says why. Native and cache sources are reset as upstream
//     resets them.
//
// # Assets
//
// Outfitter's own files (the bundled skill and the pi launch extension)
// come from [Options].Assets, defaulting to small embedded stand-ins
// ([DefaultAssets]). The layout depends on their presence only.
package composite
