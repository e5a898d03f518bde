package proptest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/fixtures"
)

// The alphabets of [UpstreamWorldGen]: what upstream Outfitter reads beyond
// the state paths the classic worlds draw.
var (
	// SkillIDs are the ids of catalog skills a world may define (in skills
	// directories, with a SKILL.md); GhostSkill is a valid id no world
	// defines.
	SkillIDs   = []string{"review", "lint-fix", "deploy-check"}
	GhostSkill = "ghost-skill"

	// JobNames are DeepWork job names a world may define (a job.yml in a
	// jobs folder); GhostJob is never defined.
	JobNames = []string{"job_a", "job_b"}
	GhostJob = "job_zz"

	// Extensions are the extension sources profiles draw: npm packages
	// (same package, other versions), a relative path, git sources in
	// several spellings (a pre-seeded cache checkout stands for each) and
	// a bare resource name.
	Extensions = []string{
		"npm:pi-subagents@2", "npm:pi-subagents@3", "npm:@acme/tools@1", "./ext/local-ext",
		"github:acme/pi-ext#v1", "git+https://github.com/acme/pi-ext.git", "https://github.com/acme/other-ext",
		"plain-ext",
	}

	// UpstreamStateKeys are the state_persistence keys: every path either
	// adapter declares, the unknown pseudo-path and an undeclared name.
	UpstreamStateKeys = []string{
		"auth.json", "settings.json", "keybindings.json", "mcp.json", "models.json", "trust.json",
		"plugins/", "cache/", "sessions/", "npm/", "git/", "tmp/", "utilities/", "bin/",
		"agents/", "skills/", "commands/", "projects/", "debug/", "unknown", "custom.json",
	}

	// UpstreamAgentPaths are the composite-relative paths agents of
	// [UpstreamWorldGen] write: declared files, children of declared
	// directories of both adapters, undeclared names, a generated file and
	// a path under outfitter/.
	UpstreamAgentPaths = []string{
		"auth.json", "settings.json", "keybindings.json", "mcp.json", "models.json", "trust.json", ".mcp.json",
		"plugins/x", "sessions/x", "cache/x", "tmp/x", "npm/x", "git/x", "bin/x", "utilities/x",
		"agents/x.md", "skills/x", "commands/x.md", "projects/x", "debug/x",
		"u.txt", "outfitter/o.txt",
	}
)

// commonStateKeys are the state_persistence keys both adapters declare.
var commonStateKeys = []string{"settings.json", "plugins/", "unknown"}

// stateKeyGen draws a state_persistence key: one both adapters declare
// most of the time, so that most maps are valid for the agent that runs
// them, and one in twenty any of [UpstreamStateKeys].
func stateKeyGen() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		if oneIn(t, "any_state_key", 20) {
			return rapid.SampledFrom(UpstreamStateKeys).Draw(t, "any_key")
		}
		return rapid.SampledFrom(commonStateKeys).Draw(t, "common_key")
	})
}

// strategyFor draws a strategy for a state key: one the adapters allow for
// it most of the time, any strategy now and then.
func strategyFor(t *rapid.T, key string) string {
	if oneIn(t, "any_strategy", 16) {
		return rapid.SampledFrom(Strategies).Draw(t, "strategy")
	}
	// prompt, the strategy with the most behaviour, is drawn most.
	allowed := []string{"symlink", "warn", "error", "prompt", "prompt", "prompt"} // declared files
	switch key {
	case "unknown":
		allowed = []string{"discard", "warn", "error", "prompt"}
	case "auth.json":
		allowed = []string{"symlink", "error", "prompt", "prompt"}
	case "tmp/":
		allowed = []string{"symlink", "discard"}
	case "plugins/", "agents/", "skills/", "commands/":
		allowed = []string{"symlink", "discard", "warn", "error", "prompt", "prompt", "prompt"}
	case "cache/", "sessions/", "npm/", "git/", "utilities/", "bin/", "projects/", "debug/":
		allowed = []string{"symlink", "discard", "warn", "error"}
	}
	return rapid.SampledFrom(allowed).Draw(t, "allowed_strategy")
}

// safeTemplates are control strings with Outfitter template markers (and
// one without) that render in every world, wherever they land in a
// generated file; riskyTemplates can fail to render (a custom setting or
// default profile the world may lack, an unknown variable, a malformed
// tag, an unknown filter) or are spelled unusually (a literal "[[", a loop
// over a mapping).
var (
	safeTemplates = []string{
		"Review carefully.",
		"Agent [[= outfitter.agent ]] runs [[= outfitter.profile.id ]]",
		"[[% if outfitter.agent == 'pi' %]]pi mode[[% else %]]other mode[[% endif %]]",
		"Root [[= outfitter.project.root ]]",
		"Upper [[= outfitter.agent | upcase ]]",
		"Joined [[= outfitter.profile.id | append: '-x' ]]",
		"[[%- if true -%]] trimmed [[%- endif -%]]",
	}
	riskyTemplates = []string{
		"Team [[= outfitter.custom_settings.team ]]",
		"Default [[= outfitter.settings.default_profile ]]",
		"Missing [[= outfitter.nothing.here ]]",
		"[[% for k in outfitter.custom_settings %]][[= k ]],[[% endfor %]]",
		"Literal [[ not a tag ]] here",
		"Broken [[= outfitter.agent",
		"[[% if outfitter.agent == 'pi' %]]never closed",
		"Filter [[= outfitter.agent | nosuchfilter ]]",
	}
)

// template draws a control string: one in twelve a risky one.
func template(t *rapid.T, label string) string {
	if oneIn(t, label+" risky", 12) {
		return rapid.SampledFrom(riskyTemplates).Draw(t, label+" risky_template")
	}
	return rapid.SampledFrom(safeTemplates).Draw(t, label+" template")
}

// skillDoc returns a SKILL.md for a catalog skill: valid (most often), a
// name that differs from the directory, an invalid name, no frontmatter,
// or a reference to a document (a file name with a space among them).
// In a world where sloppy is false every SKILL.md is valid; sloppy
// worlds (about one in twenty) write an invalid one one time in three.
func skillDoc(t *rapid.T, id string, sloppy bool) string {
	kinds := []string{"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ref", "ref_space"}
	if sloppy && oneIn(t, "invalid_skill_doc "+id, 3) {
		kinds = []string{"mismatch", "badname", "nofront"}
	}
	switch rapid.SampledFrom(kinds).Draw(t, "skill_doc "+id) {
	case "ref":
		return "---\nname: " + id + "\ndescription: Skill " + id + ".\nreferences:\n  - file: docs/ref.md\n---\nUse " + id + ".\n"
	case "ref_space":
		return "---\nname: " + id + "\ndescription: Skill " + id + ".\nreferences:\n  - file: \"docs/team guide.md\"\n---\nUse " + id + ".\n"
	case "mismatch":
		return "---\nname: other-name\ndescription: Mismatched.\n---\nBody.\n"
	case "badname":
		return "---\nname: Bad_Name\n---\nBody.\n"
	case "nofront":
		return "# " + id + "\nNo frontmatter.\n"
	}
	return "---\nname: " + id + "\ndescription: Skill " + id + ".\n---\nUse " + id + ".\n"
}

// mcpFragments are cli_specific/pi/.mcp.json contents: servers that
// collide, arrays with identities, a template, and invalid documents.
var mcpFragments = []string{
	"{\"mcpServers\":{\"s\":{\"command\":\"srv\"}}}\n",
	"{\"mcpServers\":{\"s\":{\"command\":\"other\",\"args\":[\"--x\"]},\"t\":{\"command\":\"t\"}},\"metadata\":{\"labels\":[{\"identity\":\"l\",\"value\":1},{\"value\":{\"n\":1}}]}}\n",
	"{\"metadata\":{\"labels\":[{\"identity\":\"l\",\"value\":2}],\"owner\":\"[[= outfitter.profile.id ]]\"}}\n",
	"[1, 2]\n",
	"{\"mcpServers\": \n",
}

// keybindings are pi keybindings.json contents (native or profile-owned):
// the legacy id, reserved keys in several spellings, values that are
// dropped, and invalid documents.
var keybindings = []string{
	"{\"cycleThinkingLevel\":\"shift+tab\"}\n",
	"{\"cycleThinkingLevel\":[\"shift+tab\",\"alt+x\"],\"app.thinking.cycle\":[\"Shift+Tab\",\"alt+t\"],\"app.model.select\":\"shift+ctrl+t\",\"custom.mode\":\"shift+tab\"}\n",
	"{\"app.x\":5,\"app.y\":[\"a\",1],\"app.z\":\"ctrl+k\"}\n",
	"[]\n",
	"{\"app.x\":\n",
}

// fileDoc draws one of docs, whose first n are valid: one time in twenty
// one of the others. (A weighted list would not do: rapid's sampling of
// more than twelve choices favours the last one.)
func fileDoc(t *rapid.T, label string, docs []string, n int) string {
	if oneIn(t, label+" invalid", 20) {
		return rapid.SampledFrom(docs[n:]).Draw(t, label+" invalid_doc")
	}
	return rapid.SampledFrom(docs[:n]).Draw(t, label)
}

// piSettings are pi settings.json contents with packages that profile
// extensions may duplicate.
var piSettings = []string{
	"{\"packages\":[\"npm:pi-subagents\",{\"source\":\"npm:kept-package\"},\"github:acme/pi-ext\"],\"theme\":\"dark\"}\n",
	"{\"theme\":\"native\"}\n",
	"{\"packages\":[\"npm:other\"]}\n",
}

// referenceRoots are the fixture-relative roots skill references are
// resolved under: the project, the home and project sources, and the
// checkout of the remote source.
var referenceRoots = []string{"project", "project/.outfitter", "project/.outfitter/local", "home", "home/.outfitter", RepoCache(RemoteProfiles)}

// Prompt include files a world may carry, relative to the fixture root.
var promptFiles = []File{
	{Path: "home/.outfitter/prompts/base.md", Data: "Base include from home.\n"},
	{Path: "project/.outfitter/prompts/team.md", Data: "Team include from the project.\n"},
	{Path: "project/docs/guide.md", Data: "Repository guide.\n"},
	{Path: "project/docs/ref.md", Data: "Reference document.\n"},
	{Path: "home/docs/ref.md", Data: "Home reference document.\n"},
	{Path: "home/.outfitter/prompts/my notes.md", Data: "Notes with a space in the name.\n"},
	{Path: "project/docs/team guide.md", Data: "Guide with a space in the name.\n"},
}

// appendPrompts are append_system_prompt entries (YAML flow values).
var appendPrompts = []string{
	`"Be concise."`, `{file: prompts/base.md}`, `{file: .outfitter/prompts/team.md}`, `{repo_file: docs/guide.md}`,
	`{repo_file: docs/missing.md}`, `{file: prompts/missing.md}`, `./prompts/raw.md`, `docs/guide.md`,
	`"Agent [[= outfitter.agent ]]"`, `{file: "prompts/my notes.md"}`, `{repo_file: "docs/team guide.md"}`,
}

// skillEntries are skills entries (YAML flow values): catalog ids and an
// id object; referencingSkillEntries are id objects with references (one
// to a file name with a space); oddSkillEntries are a valid id no catalog
// holds, paths, and an invalid id.
var (
	skillEntries            = []string{"review", "lint-fix", "deploy-check", "{id: review}"}
	referencingSkillEntries = []string{"{id: lint-fix, references: [{file: docs/ref.md}]}", `{id: deploy-check, references: [{file: "docs/team guide.md"}]}`}
	oddSkillEntries         = []string{GhostSkill, "./skills/local-skill", "skills/review", "Not_An_Id", "{id: " + GhostSkill + "}"}
)

// skillEntryGen draws a skills entry: one in sixteen an odd one, one in
// twelve of the others with references.
func skillEntryGen() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		switch {
		case oneIn(t, "odd_skill_entry", 16):
			return rapid.SampledFrom(oddSkillEntries).Draw(t, "odd_entry")
		case oneIn(t, "referencing_skill_entry", 12):
			return rapid.SampledFrom(referencingSkillEntries).Draw(t, "referencing_entry")
		}
		return rapid.SampledFrom(skillEntries).Draw(t, "entry")
	})
}

// UpstreamWorldGen generates worlds for the differential campaign against
// upstream Outfitter: the settings, profiles and state of [WorldGen],
// plus everything else upstream reads (catalog skills and SKILL.md files,
// DeepWork jobs, prompt includes, Liquid templates, keybindings, MCP
// fragments, local and git extensions with pre-seeded cache checkouts,
// claude session directories, custom settings, camelCase and snake_case
// control keys and unknown keys in drawn orders) and runs with
// pass-through arguments and scripted prompt answers. Its runs use only
// the ops the oracle's driver plays (no refresh, edit_source, signal or
// in-run checks). It also draws what users who make mistakes and spell
// things unusually write (see widen): YAML spellings and values, unusual
// ids and file names, deep (5-12 levels) and wide (20-40 profiles)
// inheritance, malformed templates, and in about one world in sixteen one
// mistake (a broken file, a schema violation, a refused id, a cycle). The
// classic properties keep [WorldGen], whose models do not know these
// features.
func UpstreamWorldGen() *rapid.Generator[World] {
	return rapid.Custom(func(t *rapid.T) World {
		w := World{Name: "world"}
		drawSettings(t, &w)
		sloppy := oneIn(t, "sloppy_skill_docs", 20)
		w.Profiles = rapid.SliceOfNDistinct(upstreamProfileGen(sloppy), 1, 4, Profile.ProfileFile).Draw(t, "profiles")
		if !oneIn(t, "anchor", 20) {
			anchorDefault(&w)
		}
		// The first definition, usually the default profile, prompts for
		// one path both agents declare now and then.
		if first := &w.Profiles[0]; oneIn(t, "first_prompts", 3) {
			key := rapid.SampledFrom([]string{"settings.json", "plugins/"}).Draw(t, "first_prompt_key")
			first.State = append(slices.DeleteFunc(slices.Clone(first.State), func(r Rule) bool { return r.Key == key }), Rule{Key: key, Strategy: "prompt"})
		}
		defined := map[string]bool{}
		for _, p := range w.Profiles {
			defined[p.ID] = true
		}
		for _, l := range w.Layers() {
			s := w.Settings(l)
			s.Extra = settingsExtras(t, l)
			// The classic settings often name a default profile the world
			// does not define; most of these worlds name a defined one,
			// so that most runs launch.
			if !defined[s.DefaultProfile] && (s.DefaultProfile != "" || l == LayerUser) && !oneIn(t, "keep_undefined_default "+string(l), 30) {
				s.DefaultProfile = w.Profiles[0].ID
			}
		}
		// Most parents are defined somewhere in the world.
		for i := range w.Profiles {
			p := &w.Profiles[i]
			if len(p.Inherits) > 0 && !oneIn(t, "keep_undefined_parents", 30) {
				p.Inherits = slices.DeleteFunc(slices.Clone(p.Inherits), func(id string) bool { return !defined[id] || id == p.ID })
			}
		}
		// only/except filters hide a profile the runs select now and
		// then; most of these worlds drop them.
		for _, l := range w.Layers() {
			s := w.Settings(l)
			if len(s.Sources) > 0 && !oneIn(t, "keep_source_filters "+string(l), 8) {
				s.Sources = slices.Clone(s.Sources)
				for i := range s.Sources {
					s.Sources[i].Only, s.Sources[i].Except = nil, nil
				}
			}
		}
		widen(t, &w)
		if !oneIn(t, "sources_miss_profiles", 50) {
			coverProfiles(&w)
		}
		files := map[string]string{}
		for _, f := range rapid.SliceOfNDistinct(rapid.SampledFrom(machineFiles), 0, 4, func(f File) string { return f.Path }).Draw(t, "machine_files") {
			files[f.Path] = f.Data
		}
		if oneIn(t, "native_keybindings", 3) {
			files["home/.pi/agent/keybindings.json"] = fileDoc(t, "native_keybindings_doc", keybindings, 3)
		}
		if oneIn(t, "native_pi_settings", 3) {
			files["home/.pi/agent/settings.json"] = rapid.SampledFrom(piSettings).Draw(t, "native_pi_settings_doc")
		}
		// Catalog skills outside profile folders: project-local, project,
		// and the catalog roots of the home and remote sources.
		roots := []string{"project/.outfitter/local/skills", "project/.outfitter/skills", "home/.outfitter/skills", RepoCache(RemoteProfiles) + "/skills"}
		for _, id := range SkillIDs {
			if oneIn(t, "uncatalogued "+id, 20) {
				continue
			}
			in := rapid.SliceOfNDistinct(rapid.SampledFrom(roots), 1, 2, rapid.ID[string]).Draw(t, "skill_roots "+id)
			// Most catalogued skills are in the home catalog, which most
			// worlds' sources list, so that most selections resolve.
			if !slices.Contains(in, roots[2]) && !oneIn(t, "only_elsewhere "+id, 10) {
				in = append(in, roots[2])
			}
			for _, r := range in {
				files[r+"/"+id+"/SKILL.md"] = skillDoc(t, id, sloppy)
			}
		}
		// Shared DeepWork job roots next to the sources.
		jobRoots := []string{"home/.outfitter/deepwork/jobs", "project/.outfitter/deepwork/jobs", "project/.outfitter/local/deepwork/jobs", "home/.outfitter/profiles/.outfitter/deepwork/jobs"}
		for _, job := range JobNames {
			for _, r := range rapid.SliceOfNDistinct(rapid.SampledFrom(jobRoots), 0, 1, rapid.ID[string]).Draw(t, "job_roots "+job) {
				files[r+"/"+job+"/job.yml"] = "name: " + job + "\n"
			}
		}
		for _, f := range rapid.SliceOfNDistinct(rapid.SampledFrom(promptFiles), 0, len(promptFiles), func(f File) string { return f.Path }).Draw(t, "prompt_files") {
			files[f.Path] = f.Data
		}
		// The documents skills reference are found most of the time: a
		// reference is resolved under the root of the source the skill
		// comes from, and each root holds them.
		if !oneIn(t, "references_missing", 16) {
			for _, root := range referenceRoots {
				for _, doc := range []string{"docs/ref.md", "docs/team guide.md"} {
					if _, ok := files[root+"/"+doc]; !ok {
						files[root+"/"+doc] = "Reference " + doc + " under " + root + ".\n"
					}
				}
			}
		}
		if oneIn(t, "local_extension", 2) {
			files["project/ext/local-ext/index.ts"] = "export default {};\n"
		}
		// Every git extension a profile names has a checkout in every
		// cache directory the settings can select, so nothing is cloned.
		for _, src := range gitExtensions(w.Profiles) {
			for _, c := range cacheDirs(w) {
				files[c+"/extensions/git/"+GitCacheKey(src)+"/index.ts"] = "// " + src + "\n"
			}
		}
		for _, p := range slices.Sorted(maps.Keys(files)) {
			w.Files = append(w.Files, File{Path: p, Data: files[p]})
		}
		runs := rapid.IntRange(1, 2).Draw(t, "runs")
		for range runs {
			w.Runs = append(w.Runs, upstreamRunGen(w.Profiles).Draw(t, "run"))
		}
		return w
	})
}

// GitCacheKey returns the name of a git extension's cache checkout under
// <cache>/extensions/git: the first 16 hex digits of the SHA-256 of the
// source as written.
func GitCacheKey(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:])[:16]
}

// isGitExtension reports whether upstream caches an extension source as
// a git checkout.
func isGitExtension(src string) bool {
	for _, p := range []string{"github:", "git+", "git:", "https://", "http://", "ssh://", "git@"} {
		if strings.HasPrefix(src, p) {
			return true
		}
	}
	return false
}

// gitExtensions returns the git extension sources the profiles name.
func gitExtensions(profiles []Profile) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range profiles {
		for _, e := range p.Controls.Extra {
			for _, src := range Extensions {
				if isGitExtension(src) && !seen[src] && strings.Contains(e.Value, jsonString(src)) {
					seen[src] = true
					out = append(out, src)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// cacheDirs returns every fixture-relative cache directory a world's
// settings can select: the default and each layer's ./cache.
func cacheDirs(w World) []string {
	out := []string{"home/.outfitter/cache"}
	for _, l := range w.Layers() {
		if w.Settings(l).CacheDirectory {
			out = append(out, l.Dir()+"/cache")
		}
	}
	return out
}

// jsonString returns s as a JSON string, which is also a YAML flow scalar.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // <abs-sessions> stays a token the exporter finds
	if err := enc.Encode(s); err != nil {
		panic(fmt.Sprintf("proptest: encoding %q: %v", s, err)) // strings always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// flowList renders YAML flow list items.
func flowList(items []string) string { return "[" + strings.Join(items, ", ") + "]" }

// settingsExtras draws the further entries of a settings file:
// custom_settings (which templates read) and profile_export.
func settingsExtras(t *rapid.T, l Layer) []Entry {
	var out []Entry
	if oneIn(t, "custom_settings "+string(l), 3) {
		out = append(out, Entry{"custom_settings", rapid.SampledFrom([]string{"{team: platform, level: 2}", "{team: " + string(l) + "}", "{nested: {deep: true}}"}).Draw(t, "custom_settings_value")})
	}
	if oneIn(t, "settings_profile_export "+string(l), 8) {
		out = append(out, Entry{"profile_export", rapid.SampledFrom([]string{"true", "false"}).Draw(t, "settings_profile_export_value")})
	}
	return out
}

// upstreamProfileGen draws a definition with everything upstream reads:
// top-level keys, controls of every kind in drawn order (both spellings of
// the aliased keys, unknown keys, agent blocks), state_persistence over
// both adapters' paths, and profile-owned files (state, MCP fragments,
// keybindings, skills, DeepWork jobs).
// sloppy lets its SKILL.md files be invalid (see [skillDoc]).
func upstreamProfileGen(sloppy bool) *rapid.Generator[Profile] {
	return rapid.Custom(func(t *rapid.T) Profile {
		p := Profile{
			Loc:  rapid.SampledFrom(biasedLocs).Draw(t, "profile_loc"),
			Flat: oneIn(t, "flat", 4),
			ID:   rapid.SampledFrom(IDs).Draw(t, "id"),
		}
		if oneIn(t, "has_parents", 4) {
			p.Inherits = rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "b", "c", "c", "d"}), 1, 2, rapid.ID[string]).Draw(t, "inherits")
		}
		p.Top = topEntries(t, p.ID)
		p.Controls.Extra = controlEntries(t, p.ID)
		if oneIn(t, "has_state_persistence", 2) {
			for _, k := range rapid.SliceOfNDistinct(stateKeyGen(), 1, 2, rapid.ID[string]).Draw(t, "state_keys") {
				p.State = append(p.State, Rule{Key: k, Strategy: strategyFor(t, k)})
			}
		}
		if !p.Flat {
			files := map[string]string{}
			for _, f := range rapid.SliceOfNDistinct(rapid.SampledFrom(cliFiles), 0, 3, func(f File) string { return f.Path }).Draw(t, "cli_specific") {
				files[f.Path] = f.Data
			}
			if oneIn(t, "mcp_fragment", 3) {
				files["cli_specific/pi/.mcp.json"] = fileDoc(t, "mcp_fragment_doc", mcpFragments, 3)
			}
			if oneIn(t, "owned_keybindings", 5) {
				files["cli_specific/pi/keybindings.json"] = fileDoc(t, "owned_keybindings_doc", keybindings, 3)
			}
			if oneIn(t, "owned_pi_settings", 5) {
				files["cli_specific/pi/settings.json"] = rapid.SampledFrom(piSettings).Draw(t, "owned_pi_settings_doc")
			}
			for _, dir := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"skills", "cli_specific/pi/skills"}), 0, 2, rapid.ID[string]).Draw(t, "folder_skill_dirs") {
				id := rapid.SampledFrom(append(slices.Clone(SkillIDs), "local-skill")).Draw(t, "folder_skill")
				files[dir+"/"+id+"/SKILL.md"] = skillDoc(t, id, sloppy)
			}
			for _, dir := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"deepwork/jobs", "cli_specific/pi/deepwork/jobs"}), 0, 1, rapid.ID[string]).Draw(t, "folder_job_dirs") {
				job := rapid.SampledFrom(JobNames).Draw(t, "folder_job")
				files[dir+"/"+job+"/job.yml"] = "name: " + job + "\n"
			}
			for _, k := range slices.Sorted(maps.Keys(files)) {
				p.Files = append(p.Files, File{Path: k, Data: files[k]})
			}
		}
		return p
	})
}

// topEntries draws the top-level keys of a definition besides id and
// inherits.
func topEntries(t *rapid.T, id string) []Entry {
	var out []Entry
	if oneIn(t, "label", 2) {
		out = append(out, Entry{"label", jsonString(rapid.SampledFrom([]string{"Profile " + id, "Layer " + id + " label"}).Draw(t, "label_value"))})
	}
	if oneIn(t, "description", 4) {
		out = append(out, Entry{"description", jsonString("About " + id + ".")})
	}
	if oneIn(t, "template", 300) {
		out = append(out, Entry{"template", "true"})
	}
	if oneIn(t, "profile_export", 8) {
		out = append(out, Entry{"profile_export", rapid.SampledFrom([]string{"true", "false"}).Draw(t, "profile_export_value")})
	}
	if oneIn(t, "unknown_top", 8) {
		out = append(out, Entry{"owner", "platform-team"})
	}
	if len(out) > 1 {
		out = permute(t, "top_order", out)
	}
	return out
}

// permute draws an order of entries.
func permute(t *rapid.T, label string, in []Entry) []Entry {
	rest := slices.Clone(in)
	out := make([]Entry, 0, len(in))
	for len(rest) > 0 {
		i := rapid.IntRange(0, len(rest)-1).Draw(t, label)
		out = append(out, rest[i])
		rest = slices.Delete(rest, i, i+1)
	}
	return out
}

// aliased draws the spelling of an aliased control: the snake_case key,
// the camelCase key, or both (with different values).
// scope prefixes the draws' labels ("" or "pi.").
func aliased(t *rapid.T, scope, snake, camel string, value func(label string) string) []Entry {
	switch rapid.SampledFrom([]string{"snake", "snake", "snake", "camel", "both", "both-reversed"}).Draw(t, "spelling "+scope+snake) {
	case "camel":
		return []Entry{{camel, value(scope + camel)}}
	case "both":
		return []Entry{{snake, value(scope + snake)}, {camel, value(scope + camel)}}
	case "both-reversed":
		return []Entry{{camel, value(scope + camel)}, {snake, value(scope + snake)}}
	}
	return []Entry{{snake, value(scope + snake)}}
}

// sessionDirs are session_directory values: relative to the working
// directory in several spellings, and absolute in the capture sandbox
// (the token <abs-sessions> is replaced when a world is exported).
var sessionDirs = []string{"./sessions/s1", "sessions/s2", "../shared-sessions", AbsSessions + "/s3"}

// AbsSessions stands for an absolute directory outside the fixture in
// session_directory values; an exporter replaces it by a directory of the
// machine that captures the world.
const AbsSessions = "<abs-sessions>"

// controlEntries draws the controls of a definition, in a drawn order.
func controlEntries(t *rapid.T, id string) []Entry {
	var out []Entry
	str := func(label string, vals ...string) string { return jsonString(rapid.SampledFrom(vals).Draw(t, label)) }
	if oneIn(t, "model", 2) {
		out = append(out, Entry{"model", str("model_value", "m1", "m2")})
	}
	if oneIn(t, "provider", 4) {
		out = append(out, Entry{"provider", str("provider_value", "acme", "other")})
	}
	if oneIn(t, "thinking", 4) {
		out = append(out, Entry{"thinking", str("thinking_value", "low", "high")})
	}
	if oneIn(t, "environment", 3) {
		out = append(out, Entry{"environment", environment(t, id)})
	}
	if oneIn(t, "args", 4) {
		out = append(out, Entry{"args", flowList([]string{jsonString("--flag-" + id)})})
	}
	if oneIn(t, "session_directory", 4) {
		out = append(out, aliased(t, "", "session_directory", "sessionDirectory", func(l string) string { return str(l, sessionDirs...) })...)
	}
	if oneIn(t, "extensions", 3) {
		out = append(out, Entry{"extensions", extensions(t, "extensions")})
	}
	if oneIn(t, "skills", 3) {
		out = append(out, Entry{"skills", skills(t, "skills")})
	}
	if oneIn(t, "prompt_template", 5) {
		out = append(out, aliased(t, "", "prompt_template", "promptTemplate", func(l string) string { return str(l, "tpl-"+id, "review {{project.name}}") })...)
	}
	if oneIn(t, "system_prompt", 3) {
		out = append(out, aliased(t, "", "system_prompt", "systemPrompt", func(l string) string { return jsonString(template(t, l)) })...)
	}
	if oneIn(t, "append_system_prompt", 3) {
		out = append(out, aliased(t, "", "append_system_prompt", "appendSystemPrompt", func(l string) string { return appendPrompt(t, l) })...)
	}
	if oneIn(t, "deepwork", 4) {
		jobs := rapid.SliceOfNDistinct(rapid.SampledFrom(append(slices.Clone(JobNames), GhostJob)), 1, 2, rapid.ID[string]).Draw(t, "deepwork_jobs")
		out = append(out, Entry{"deepwork", "{jobs: " + flowList(jobs) + "}"})
	}
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"temperature", "review_mode", "custom_list", "reasoning", "allow_external_deepwork_jobs"}), 0, 2, rapid.ID[string]).Draw(t, "unknown_controls") {
		v := map[string]string{"temperature": "0.2", "review_mode": "strict", "custom_list": "[a, b]", "reasoning": "{depth: 2}", "allow_external_deepwork_jobs": "true"}[k]
		out = append(out, Entry{k, v})
	}
	if oneIn(t, "pi_block", 3) {
		out = append(out, Entry{"pi", agentBlock(t, "pi", id)})
	}
	if oneIn(t, "claude_block", 3) {
		out = append(out, Entry{"claude", agentBlock(t, "claude", id)})
	}
	if len(out) > 1 {
		out = permute(t, "controls_order", out)
	}
	return out
}

// environment draws an environment mapping.
func environment(t *rapid.T, id string) string {
	var kv []string
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"SHARED", "ONLY_" + strings.ToUpper(id), "TEMPLATED", "DEEPWORK_ADDITIONAL_JOBS_FOLDERS"}), 1, 3, rapid.ID[string]).Draw(t, "env_keys") {
		v := jsonString(id)
		switch k {
		case "TEMPLATED":
			v = jsonString(template(t, "env"))
		case "DEEPWORK_ADDITIONAL_JOBS_FOLDERS":
			v = jsonString("/opt/jobs")
		}
		kv = append(kv, k+": "+v)
	}
	return "{" + strings.Join(kv, ", ") + "}"
}

// extensions draws an extensions list.
func extensions(t *rapid.T, label string) string {
	var items []string
	for _, e := range rapid.SliceOfNDistinct(rapid.SampledFrom(Extensions), 1, 3, rapid.ID[string]).Draw(t, label) {
		items = append(items, jsonString(e))
	}
	return flowList(items)
}

// skills draws a skills list.
func skills(t *rapid.T, label string) string {
	return flowList(rapid.SliceOfNDistinct(skillEntryGen(), 1, 3, rapid.ID[string]).Draw(t, label))
}

// appendPrompt draws an append_system_prompt value: one entry or a list.
func appendPrompt(t *rapid.T, label string) string {
	if oneIn(t, label+" single", 3) {
		return rapid.SampledFrom(appendPrompts).Draw(t, label+" entry")
	}
	return flowList(rapid.SliceOfNDistinct(rapid.SampledFrom(appendPrompts), 1, 3, rapid.ID[string]).Draw(t, label+" entries"))
}

// agentBlock draws a pi: or claude: block as a YAML flow mapping.
func agentBlock(t *rapid.T, agent, id string) string {
	var out []Entry
	str := func(label string, vals ...string) string { return jsonString(rapid.SampledFrom(vals).Draw(t, label)) }
	if oneIn(t, agent+".model", 2) {
		out = append(out, Entry{"model", str(agent+".model_value", agent+"-m")})
	}
	if oneIn(t, agent+".provider", 5) {
		out = append(out, Entry{"provider", str(agent+".provider_value", agent+"-provider")})
	}
	if oneIn(t, agent+".thinking", 5) {
		out = append(out, Entry{"thinking", str(agent+".thinking_value", "medium")})
	}
	if oneIn(t, agent+".environment", 4) {
		out = append(out, Entry{"environment", "{" + strings.ToUpper(agent) + "_ONLY: " + jsonString(id) + "}"})
	}
	if oneIn(t, agent+".args", 4) {
		out = append(out, Entry{"args", flowList([]string{jsonString("--" + agent + "-flag")})})
	}
	if oneIn(t, agent+".extensions", 4) {
		out = append(out, Entry{"extensions", extensions(t, agent+".extensions_value")})
	}
	if oneIn(t, agent+".skills", 4) {
		out = append(out, Entry{"skills", skills(t, agent+".skills_value")})
	}
	if oneIn(t, agent+".session_directory", 5) {
		out = append(out, aliased(t, agent+".", "session_directory", "sessionDirectory", func(l string) string { return str(l, sessionDirs...) })...)
	}
	if oneIn(t, agent+".system_prompt", 5) {
		out = append(out, aliased(t, agent+".", "system_prompt", "systemPrompt", func(l string) string { return jsonString(template(t, l)) })...)
	}
	if oneIn(t, agent+".append_system_prompt", 5) {
		out = append(out, aliased(t, agent+".", "append_system_prompt", "appendSystemPrompt", func(l string) string { return appendPrompt(t, l) })...)
	}
	if agent == "pi" && oneIn(t, "pi.allow_external_deepwork_jobs", 4) {
		out = append(out, Entry{rapid.SampledFrom([]string{"allow_external_deepwork_jobs", "allowExternalDeepWorkJobs"}).Draw(t, "pi.allow_spelling"), "true"})
	}
	if oneIn(t, agent+".unknown", 5) {
		out = append(out, Entry{rapid.SampledFrom([]string{"temperature", "review_mode", "deepwork"}).Draw(t, agent+".unknown_key"), "{level: 1}"})
	}
	if len(out) > 1 {
		out = permute(t, agent+".order", out)
	}
	kv := make([]string, len(out))
	for i, e := range out {
		kv[i] = e.Key + ": " + e.Value
	}
	return "{" + strings.Join(kv, ", ") + "}"
}

// upstreamRunGen draws a run: agent, profile, --strict, interactivity
// with an answer for every declared state path, a few pass-through
// arguments, and agent ops that the oracle's driver plays.
func upstreamRunGen(profiles []Profile) *rapid.Generator[Run] {
	return rapid.Custom(func(t *rapid.T) Run {
		choices := []string{"", "", "", ""}
		for _, p := range profiles {
			choices = append(choices, p.ID)
		}
		if oneIn(t, "any_profile", 50) {
			choices = IDs
		}
		// Writes aim at the state paths the definitions configure now and
		// then, prompted ones most, so that their strategies (and prompt
		// answers) apply; worlds that prompt are mostly interactive.
		var targets, prompted []string
		for _, p := range profiles {
			for _, r := range p.State {
				target := r.Key
				switch {
				case r.Key == "unknown" || r.Key == "custom.json":
					target = "u.txt"
				case strings.HasSuffix(r.Key, "/"):
					target = r.Key + "x"
				}
				targets = append(targets, target)
				if r.Strategy == "prompt" {
					prompted = append(prompted, target)
				}
			}
		}
		prompts := len(prompted) > 0
		interactive := oneIn(t, "interactive", 3)
		if prompts {
			interactive = !oneIn(t, "prompting_not_interactive", 3)
		}
		r := Run{
			Agent:       rapid.SampledFrom([]string{"", "", "pi", "claude"}).Draw(t, "agent"),
			Profile:     rapid.SampledFrom(choices).Draw(t, "profile"),
			Strict:      oneIn(t, "strict", 40),
			Interactive: interactive,
		}
		if r.Interactive {
			r.Answers = map[string]string{}
			for _, k := range UpstreamStateKeys {
				if k != "unknown" {
					r.Answers[k] = rapid.SampledFrom([]string{"persist", "discard", "always", "always"}).Draw(t, "answer "+k)
				}
			}
		}
		if oneIn(t, "pass_through", 4) {
			r.Args = rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"--verbose", "--print", "--debug", "--mode=json", "--", "extra"}), 1, 2, rapid.ID[string]).Draw(t, "args")
		}
		if prompts && oneIn(t, "write_prompted", 2) {
			p := rapid.SampledFrom(prompted).Draw(t, "prompted_path")
			if dir := path.Dir(p); dir != "." {
				r.Ops = append(r.Ops, Op{Op: fixtures.Op{Op: fixtures.OpMkdirAll, Path: dir}})
			}
			r.Ops = append(r.Ops, Op{Op: fixtures.Op{Op: fixtures.OpWrite, Path: p, Data: "prompted\n"}})
		}
		n := rapid.IntRange(0, 4).Draw(t, "actions")
		for range n {
			ops := upstreamActionGen(targets).Draw(t, "action")
			r.Ops = append(r.Ops, ops...)
			if ops[len(ops)-1].Op.Op == fixtures.OpExit {
				break
			}
		}
		return r
	})
}

// upstreamActionGen draws one agent action as ops that rarely fail on a
// real file system: a write (after creating the parent of a nested path),
// a recursive removal, a file moved after it is written, a link, or an
// exit code.
func upstreamActionGen(targets []string) *rapid.Generator[[]Op] {
	return rapid.Custom(func(t *rapid.T) []Op {
		op := func(o fixtures.Op) Op { return Op{Op: o} }
		data := func() string { return rapid.SampledFrom([]string{"v1\n", "v2\n", "{}\n"}).Draw(t, "data") }
		kinds := []string{"write", "write", "write", "write", "remove_all", "rename", "symlink", "exit"}
		if len(targets) > 0 {
			kinds = append(kinds, "state", "state", "state")
		}
		switch kind := rapid.SampledFrom(kinds).Draw(t, "action_kind"); kind {
		case "write", "state":
			p := rapid.SampledFrom(UpstreamAgentPaths).Draw(t, "path")
			if kind == "state" {
				p = rapid.SampledFrom(targets).Draw(t, "state_path")
			}
			var ops []Op
			if dir := path.Dir(p); dir != "." {
				ops = append(ops, op(fixtures.Op{Op: fixtures.OpMkdirAll, Path: dir}))
			}
			return append(ops, op(fixtures.Op{Op: fixtures.OpWrite, Path: p, Data: data()}))
		case "remove_all":
			return []Op{op(fixtures.Op{Op: fixtures.OpRemoveAll, Path: rapid.SampledFrom(append([]string{"plugins", "sessions", "agents", "projects", "keybindings.json"}, UpstreamAgentPaths...)).Draw(t, "path")})}
		case "rename":
			to := rapid.SampledFrom([]string{"moved.txt", "sessions/moved.txt", "agents/moved.md"}).Draw(t, "to")
			ops := []Op{op(fixtures.Op{Op: fixtures.OpWrite, Path: "scratch.txt", Data: data()})}
			if dir := path.Dir(to); dir != "." {
				ops = append(ops, op(fixtures.Op{Op: fixtures.OpMkdirAll, Path: dir}))
			}
			return append(ops, op(fixtures.Op{Op: fixtures.OpRename, Path: "scratch.txt", To: to}))
		case "symlink":
			return []Op{op(fixtures.Op{Op: fixtures.OpSymlink, Path: rapid.SampledFrom([]string{"link.json", "linkdir"}).Draw(t, "link"), Target: rapid.SampledFrom([]string{"settings.json", "plugins", "outfitter/profile.json"}).Draw(t, "target")})}
		}
		return []Op{op(fixtures.Op{Op: fixtures.OpExit, Code: rapid.IntRange(1, 3).Draw(t, "code")})}
	})
}
