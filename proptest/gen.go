package proptest

import (
	"math"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/vfs"
)

// The tiny alphabets of generated worlds: few ids and few paths, so that
// definitions, parents, sources and agent writes collide often and
// shrinking is fast.
var (
	// IDs are the profile ids definitions use; Parents adds one that is
	// never defined.
	IDs     = []string{"a", "b", "c"}
	Parents = []string{"a", "b", "c", "d"}

	// StateKeys are the state_persistence keys generated: the declared
	// keys of both adapters and the unknown pseudo-path.
	StateKeys = []string{
		"auth.json", "settings.json", "keybindings.json", "mcp.json", "models.json", "trust.json",
		"plugins/", "cache/", "sessions/", "tmp/", "utilities/", "bin/",
		"agents/", "projects/", "debug/", "unknown",
	}
	// Strategies are the five strategy names.
	Strategies = []string{"symlink", "discard", "warn", "error", "prompt"}

	// AgentPaths are the composite-relative paths agents act on: declared
	// files and directories, children of declared directories, undeclared
	// names, a generated file and a path under outfitter/.
	AgentPaths = []string{
		"auth.json", "settings.json", "keybindings.json", "mcp.json", "plugins", "plugins/x",
		"sessions", "sessions/x", "tmp/x", "bin/x", "agents/x", "projects/x",
		"u.txt", "scratch", "scratch/n.txt", "outfitter/o.txt", ".mcp.json", "unknown",
	}
	// MovablePaths are the paths rename ops move: never a declared path
	// itself, so a link is never moved under another name.
	MovablePaths = []string{"u.txt", "scratch", "scratch/n.txt", "plugins/x", "sessions/x"}

	// Answers are the prompt answers.
	Answers = []string{"persist", "discard", "always"}
)

// biasedLocs favours the home folder, which the user settings list most.
var biasedLocs = []Loc{LocHome, LocHome, LocHome, LocProject, LocLocal, LocRemote}

// cliFiles are the profile-owned state entries generated, relative to a
// profile folder; a directory entry is represented by a file inside it.
var cliFiles = []File{
	{Path: "cli_specific/pi/auth.json", Data: "{\"owned\":1}\n"},
	{Path: "cli_specific/pi/settings.json", Data: "{\"theme\":\"owned\"}\n"},
	{Path: "cli_specific/pi/keybindings.json", Data: "{\"app.owned\":\"ctrl+o\"}\n"},
	{Path: "cli_specific/pi/mcp.json", Data: ""},
	{Path: "cli_specific/pi/models.json", Data: "{\"providers\":{\"p\":{}}}\n"},
	{Path: "cli_specific/pi/plugins/p.txt", Data: "owned plugin\n"},
	{Path: "cli_specific/pi/sessions/s.txt", Data: "owned session\n"},
	{Path: "cli_specific/pi/.mcp.json", Data: "{\"mcpServers\":{\"s\":{\"command\":\"srv\"}}}\n"},
	{Path: "cli_specific/pi/notes.txt", Data: "not state\n"},
	{Path: "cli_specific/claude/settings.json", Data: "{\"owned\":true}\n"},
	{Path: "cli_specific/claude/agents/x.md", Data: "owned agent\n"},
	{Path: "cli_specific/claude/projects/p.txt", Data: "owned project\n"},
	{Path: "cli_specific/claude/notes.txt", Data: "not state\n"},
}

// machineFiles are the native, cache and decoy files generated.
var machineFiles = []File{
	{Path: "home/.pi/agent/auth.json", Data: "{\"token\":\"t\"}\n"},
	{Path: "home/.pi/agent/settings.json", Data: "{\"theme\":\"native\"}\n"},
	{Path: "home/.pi/agent/keybindings.json", Data: "{\"cycleThinkingLevel\":\"shift+tab\"}\n"},
	{Path: "home/.pi/agent/mcp.json", Data: ""},
	{Path: "home/.pi/agent/models.json", Data: "{\"providers\":{}}\n"},
	{Path: "home/.pi/agent/trust.json", Data: "   \n"},
	{Path: "home/.pi/agent/plugins/n.txt", Data: "native plugin\n"},
	{Path: "home/.pi/agent/sessions/n.txt", Data: "native session\n"},
	{Path: "home/.claude/settings.json", Data: "{\"native\":true}\n"},
	{Path: "home/.claude/agents/n.md", Data: "native agent\n"},
	{Path: "home/.outfitter/cache/utilities/tool", Data: "#!/bin/sh\n"},
	{Path: "project/.outfitter/local/cache/utilities/tool", Data: "#!/bin/sh\n"},
	{Path: "home/decoy.txt", Data: "decoy\n"},
}

// agentChoices are the values drawn for --agent and default_agent: the
// registered agents, and "" (the default) as often as two of them.
func agentChoices() []string { return append([]string{"", ""}, composite.DefaultRegistry().IDs()...) }

// SettingsGen generates one settings file of the given layer. The remote
// layer never declares sources or remote settings (only one level of
// remote settings exists), nor cache_directory (refused in synced
// settings).
func SettingsGen(l Layer) *rapid.Generator[*Settings] {
	return rapid.Custom(func(t *rapid.T) *Settings {
		s := &Settings{
			DefaultProfile: rapid.SampledFrom([]string{"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "a", "a", "b", "d"}).Draw(t, "default_profile"),
			DefaultAgent:   rapid.SampledFrom(agentChoices()).Draw(t, "default_agent"),
			CacheDirectory: oneIn(t, "cache_directory", 4),
		}
		if l == LayerUser {
			s.DefaultProfile = rapid.SampledFrom([]string{"a", "a", "a", "a", "a", "a", "a", "a", "a", "a", "b", "d", ""}).Draw(t, "user_default_profile")
		}
		if l == LayerRemote {
			// Synced settings may not set cache_directory (resolve's
			// rule of synced content): drawn, but never written, so
			// that the other draws stay where they were.
			s.CacheDirectory = false
			return s
		}
		s.RemoteSettings = oneIn(t, "remote_settings", 4)
		s.DeclaresSources = l == LayerUser || oneIn(t, "declares_profile_sources", 4)
		if s.DeclaresSources {
			s.Sources = rapid.SliceOfN(SourceRefGen(), 0, 2).Draw(t, "profile_sources")
			// Most lists name the home folder, where most worlds define
			// the default profile, so that most runs launch.
			if (l == LayerUser && !oneIn(t, "lists_home", 10)) || (l != LayerUser && !oneIn(t, "higher_lists_home", 3)) {
				s.Sources = append([]SourceRef{{Loc: LocHome}}, s.Sources...)
			}
		}
		return s
	})
}

// SourceRefGen generates a profile_sources entry, with only/except filters
// now and then.
func SourceRefGen() *rapid.Generator[SourceRef] {
	return rapid.Custom(func(t *rapid.T) SourceRef {
		r := SourceRef{Loc: rapid.SampledFrom(biasedLocs).Draw(t, "loc")}
		switch rapid.SampledFrom([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}).Draw(t, "filter") {
		case 8:
			r.Only = []string{rapid.SampledFrom(IDs).Draw(t, "only")}
		case 9:
			r.Except = []string{rapid.SampledFrom(IDs).Draw(t, "except")}
		}
		return r
	})
}

// ControlsGen generates controls for both agents.
func ControlsGen() *rapid.Generator[Controls] {
	return rapid.Custom(func(t *rapid.T) Controls {
		pick := func(label string, vals ...string) string {
			return rapid.SampledFrom(append([]string{"", ""}, vals...)).Draw(t, label)
		}
		return Controls{
			Model:          pick("model", "m1", "m2"),
			Provider:       pick("provider", "acme"),
			SessionDir:     pick("session_directory", "/fixture/home/sess"),
			PiModel:        pick("pi.model", "pm"),
			ClaudeModel:    pick("claude.model", "cm"),
			ClaudeProvider: pick("claude.provider", "", "acme"),
		}
	})
}

// ProfileGen generates one definition: location and layout, id, parents
// (cycles and missing parents happen), controls, a state_persistence map
// (valid or not for the agent that runs it) and profile-owned state.
func ProfileGen() *rapid.Generator[Profile] {
	return rapid.Custom(func(t *rapid.T) Profile {
		p := Profile{
			Loc:  rapid.SampledFrom(biasedLocs).Draw(t, "profile_loc"),
			Flat: oneIn(t, "flat", 4),
			ID:   rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "id"),
		}
		if oneIn(t, "has_parents", 4) {
			p.Inherits = rapid.SliceOfNDistinct(rapid.SampledFrom(Parents), 1, 2, rapid.ID[string]).Draw(t, "inherits")
		}
		p.Controls = ControlsGen().Draw(t, "controls")
		var rules []string
		if oneIn(t, "has_state_persistence", 2) {
			rules = rapid.SliceOfNDistinct(rapid.SampledFrom(StateKeys), 1, 2, rapid.ID[string]).Draw(t, "state_keys")
		}
		for _, k := range rules {
			p.State = append(p.State, Rule{Key: k, Strategy: rapid.SampledFrom(Strategies).Draw(t, "strategy")})
		}
		if !p.Flat {
			p.Files = rapid.SliceOfNDistinct(rapid.SampledFrom(cliFiles), 0, 3, func(f File) string { return f.Path }).Draw(t, "cli_specific")
			slices.SortFunc(p.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
		}
		return p
	})
}

// RunGen generates one run: agent, profile, --strict, interactivity with
// an answer for every prompt-capable path, and 0 to 6 agent ops. profiles
// are the world's definitions, which edit_source ops rewrite.
func RunGen(profiles []Profile) *rapid.Generator[Run] {
	return rapid.Custom(func(t *rapid.T) Run {
		// Selections lean on the ids the world defines, so that most runs
		// launch; any id can still be asked for.
		choices := []string{"", "", "", ""}
		for _, p := range profiles {
			choices = append(choices, p.ID)
		}
		if oneIn(t, "any_profile", 6) {
			choices = []string{"a", "b", "c"}
		}
		r := Run{
			Agent:       rapid.SampledFrom(agentChoices()).Draw(t, "agent"),
			Profile:     rapid.SampledFrom(choices).Draw(t, "profile"),
			Strict:      oneIn(t, "strict", 5),
			Interactive: oneIn(t, "interactive", 3),
		}
		if r.Interactive {
			r.Answers = map[string]string{}
			for _, k := range StateKeys {
				if k != "unknown" {
					r.Answers[k] = rapid.SampledFrom(Answers).Draw(t, "answer "+k)
				}
			}
		}
		n := rapid.IntRange(0, 6).Draw(t, "ops")
		for range n {
			op := OpGen(profiles).Draw(t, "op")
			r.Ops = append(r.Ops, op)
			if op.Op.Op == fixtures.OpExit {
				break
			}
		}
		return r
	})
}

// OpGen generates one agent op: writes, mkdirs, deletes and renames on the
// path alphabet (writes through links, links replaced by files or
// directories, unknown files and directories), edits of a profile source
// followed by a refresh, and an exit code.
func OpGen(profiles []Profile) *rapid.Generator[Op] {
	return rapid.Custom(func(t *rapid.T) Op {
		kinds := []fixtures.OpKind{
			fixtures.OpWrite, fixtures.OpWrite, fixtures.OpWrite, fixtures.OpMkdirAll, fixtures.OpRemove,
			fixtures.OpRemoveAll, fixtures.OpRename, fixtures.OpRefresh, fixtures.OpExit,
		}
		if len(profiles) > 0 {
			kinds = append(kinds, fixtures.OpEditSource)
		}
		kind := rapid.SampledFrom(kinds).Draw(t, "kind")
		op := Op{Op: fixtures.Op{Op: kind}}
		switch kind {
		case fixtures.OpWrite:
			op.Op.Path = rapid.SampledFrom(AgentPaths).Draw(t, "path")
			op.Op.Data = rapid.SampledFrom([]string{"v1\n", "v2\n", "{}\n"}).Draw(t, "data")
		case fixtures.OpMkdirAll, fixtures.OpRemove, fixtures.OpRemoveAll:
			op.Op.Path = rapid.SampledFrom(AgentPaths).Draw(t, "path")
		case fixtures.OpRename:
			op.Op.Path = rapid.SampledFrom(MovablePaths).Draw(t, "from")
			op.Op.To = rapid.SampledFrom(AgentPaths).Draw(t, "to")
		case fixtures.OpExit:
			op.Op.Code = rapid.IntRange(1, 3).Draw(t, "code")
		case fixtures.OpEditSource:
			i := rapid.IntRange(0, len(profiles)-1).Draw(t, "edited")
			p := profiles[i]
			p.Controls.Model = rapid.SampledFrom([]string{"e1", "e2"}).Draw(t, "edited_model")
			op.Profile, op.Edited = i, &p
			op.Op.Path = report.TokenFixture + "/" + p.ProfileFile()
			op.Op.Data = p.YAML()
		}
		return op
	})
}

// WorldGen generates a whole world: user settings (always present, so the
// first-run bootstrap never applies), optional project, project-local and
// remote settings, one to four definitions (no two at the same file), a
// few native and cache files, and one or two runs.
func WorldGen() *rapid.Generator[World] {
	return rapid.Custom(func(t *rapid.T) World {
		w := World{Name: "world"}
		drawSettings(t, &w)
		w.Profiles = rapid.SliceOfNDistinct(ProfileGen(), 1, 4, Profile.ProfileFile).Draw(t, "profiles")
		if !oneIn(t, "anchor", 10) {
			// Most worlds define the usual default profile in the home
			// folder, so that most runs launch.
			anchorDefault(&w)
		}
		if !oneIn(t, "sources_miss_profiles", 4) {
			coverProfiles(&w)
		}
		w.Files = rapid.SliceOfNDistinct(rapid.SampledFrom(machineFiles), 0, 4, func(f File) string { return f.Path }).Draw(t, "machine_files")
		slices.SortFunc(w.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
		runs := rapid.IntRange(1, 2).Draw(t, "runs")
		for range runs {
			w.Runs = append(w.Runs, RunGen(w.Profiles).Draw(t, "run"))
		}
		return w
	})
}

// PlatformWorldGen generates worlds that run as platform p. For Linux it
// is [WorldGen]. For macOS ([vfs.PlatformDarwin]) the world is WorldGen's
// with the agent's paths drawn in other spellings that APFS folds
// together: one op in two has its path (and a rename its destination)
// respelled, each letter's case drawn anew ("Sessions/X" for
// "sessions/x"), and the agent also writes an undeclared file and one
// below "sessions/" whose names are "café" in NFC or in NFD, so that the
// engine meets names that reach one entry under two normalizations. For
// Windows the paths are respelled in case only.
func PlatformWorldGen(p vfs.Platform) *rapid.Generator[World] {
	if p == "" || p == vfs.PlatformLinux {
		return WorldGen()
	}
	return rapid.Custom(func(t *rapid.T) World {
		w := WorldGen().Draw(t, "world")
		w.Platform = p
		for i := range w.Runs {
			ops := slices.Clone(w.Runs[i].Ops)
			if p == vfs.PlatformDarwin {
				for _, extra := range []string{"caf\u00e9.txt", "sessions/caf\u00e9"} {
					if oneIn(t, "normalization_write", 3) {
						name := extra
						if rapid.Bool().Draw(t, "nfd") {
							name = strings.ReplaceAll(name, "\u00e9", "e\u0301")
						}
						at := rapid.IntRange(0, len(ops)).Draw(t, "normalization_at")
						op := Op{Op: fixtures.Op{Op: fixtures.OpWrite, Path: name, Data: "n\n"}}
						ops = slices.Insert(ops, at, op)
					}
				}
			}
			for j := range ops {
				if ops[j].Op.Path == "" || ops[j].Op.Op == fixtures.OpEditSource || !rapid.Bool().Draw(t, "respell") {
					continue
				}
				ops[j].Op.Path = respell(t, ops[j].Op.Path)
				if ops[j].Op.To != "" {
					ops[j].Op.To = respell(t, ops[j].Op.To)
				}
			}
			w.Runs[i].Ops = ops
		}
		return w
	})
}

// respell draws each ASCII letter's case of name anew.
func respell(t *rapid.T, name string) string {
	b := []byte(name)
	for i, c := range b {
		if ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') && rapid.Bool().Draw(t, "upper") {
			b[i] = c ^ 0x20
		}
	}
	return string(b)
}

// drawSettings draws the settings of a world's layers: the user's
// always, the project's, the project-local and the remote ones now and
// then.
func drawSettings(t *rapid.T, w *World) {
	w.User = SettingsGen(LayerUser).Draw(t, "user_settings")
	if oneIn(t, "has_project_settings", 2) {
		w.Project = SettingsGen(LayerProject).Draw(t, "project_settings")
	}
	if oneIn(t, "has_local_settings", 2) {
		w.Local = SettingsGen(LayerLocal).Draw(t, "local_settings")
	}
	if oneIn(t, "has_remote_settings", 3) {
		w.Remote = SettingsGen(LayerRemote).Draw(t, "remote_settings")
	}
}

// anchorDefault makes the first definition the usual default profile, a
// in the home folder, and drops another definition at the same file.
func anchorDefault(w *World) {
	anchor := w.Profiles[0]
	anchor.ID, anchor.Loc = "a", LocHome
	rest := slices.DeleteFunc(w.Profiles[1:], func(p Profile) bool { return p.ProfileFile() == anchor.ProfileFile() })
	w.Profiles = append([]Profile{anchor}, rest...)
}

// oneIn draws an event of probability 1/n from a sampled choice (rapid's
// bias towards small integers does not skew it); it shrinks to false.
// Beyond twelve choices rapid's sampling favours the last one (one in 150
// comes out about one in 40), so a rarer event is drawn as two: one in a,
// the square root of n rounded up, then one in n/a rounded (one in 16 is
// one in 4 twice; one in 30, one in 6 then one in 5).
func oneIn(t *rapid.T, label string, n int) bool {
	if n > 12 {
		a := int(math.Ceil(math.Sqrt(float64(n))))
		return oneIn(t, label, a) && oneIn(t, label+" again", int(math.Round(float64(n)/float64(a))))
	}
	c := make([]bool, n)
	c[n-1] = true
	return rapid.SampledFrom(c).Draw(t, label)
}

// coverProfiles appends to the effective profile_sources list (the one of
// the highest layer that declares it) the locations of the world's
// definitions it does not list yet, in location order, so that most
// selections resolve.
func coverProfiles(w *World) {
	var top *Settings
	for _, s := range []*Settings{w.User, w.Project, w.Local} {
		if s != nil && s.DeclaresSources {
			top = s
		}
	}
	if top == nil {
		return
	}
	listed := map[Loc]bool{}
	for _, r := range top.Sources {
		listed[r.Loc] = true
	}
	for _, loc := range Locs() {
		if listed[loc] {
			continue
		}
		for _, p := range w.Profiles {
			if p.Loc == loc {
				top.Sources = append(top.Sources, SourceRef{Loc: loc})
				listed[loc] = true
				break
			}
		}
	}
}
