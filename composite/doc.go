// Package composite plans and materializes Outfitter's composite profile:
// the temporary configuration directory one agent CLI runs against, built
// from a [resolve.Result] on any vfs file system.
//
// # Plan, write, launch
//
// [Plan] follows upstream's run order: sweep stale roots ([Sweep]), pick
// the [Adapter] ([Lookup]), create the root ([CreateRoot], named
// <temp>/outfitter-<profile>-<agent>-XXXXXX with an injected random
// source), copy catalog skills into it, let the adapter compose the
// [Composite] (generated [File]s and declared [StatePath]s), render
// template markers, and build the adapter's [LaunchPlan]. Nothing else is
// written until [Run.Materialize], which calls [Write]: files first, then
// state paths. [Run.Launch] returns the final plan; for an interactive pi
// launch it writes the launch extension into the root, so call it after the
// baseline snapshot, as upstream does. [Run.Cleanup] removes the root
// without following links unless --debug was passed through.
//
// # Adapters
//
// [Pi] and [Claude] implement [Adapter]: their [Declaration]s with default
// and allowed [Strategy] values, the durable source of each state path
// (the highest-precedence profile folder's cli_specific/<agent>/<path>,
// else the native directory; pi's utilities/ and bin/ always share
// <cache>/utilities; Claude's projects/ follows session_directory), the
// generated files and the command line. A third agent is one more type
// implementing [Adapter] and one line in the registry.
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
