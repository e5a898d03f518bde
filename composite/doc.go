// Package composite plans and materializes Outfitter's composite profile:
// the temporary configuration directory one agent CLI runs against, built
// from a [resolve.Result] on any vfs file system.
//
// # Plan, write, launch
//
// [Plan] follows upstream's run order: sweep stale roots ([Sweep]), look
// the resolved agent up in the [Registry], create the root ([CreateRoot],
// named <temp>/outfitter-<profile>-<agent>-XXXXXX with an injected random
// source), copy catalog skills into it, let the adapter compose the
// [Composite] (generated [File]s and declared [StatePath]s), render
// template markers, and build the adapter's [LaunchPlan]. Nothing else is
// written until [Run.Materialize], which calls [Write]: files first, then
// state paths. [Run.Launch] returns the final plan, completed by a
// [LaunchFinisher] adapter (pi writes its launch extension into the root
// for an interactive launch), so call it after the baseline snapshot, as
// upstream does. [Run.Cleanup] removes the root without following links
// unless --debug was passed through.
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
