package proptest_test

// The models of this file compute what a run must do from the world
// description and the specs alone (composite-writeback §2, §4, §5, §6;
// resolve §2, §5, §7, §9); they share no code with the engine.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/vfs"
)

// decl is one declared state path of an adapter (spec §2.3, §2.4).
type decl struct {
	key     string
	def     string
	allowed []string
}

func (d decl) name() string { return strings.TrimSuffix(d.key, "/") }
func (d decl) dir() bool    { return strings.HasSuffix(d.key, "/") }

var (
	fileAll  = []string{"symlink", "warn", "error", "prompt"}
	dirAll   = []string{"symlink", "discard", "warn", "error", "prompt"}
	dirNoAsk = []string{"symlink", "discard", "warn", "error"}
	unknownS = []string{"discard", "warn", "error", "prompt"}
)

var declarations = map[string][]decl{
	"pi": {
		{"auth.json", "symlink", []string{"symlink", "error", "prompt"}},
		{"settings.json", "symlink", fileAll}, {"keybindings.json", "symlink", fileAll},
		{"mcp.json", "symlink", fileAll}, {"models.json", "symlink", fileAll}, {"trust.json", "symlink", fileAll},
		{"plugins/", "symlink", dirAll}, {"cache/", "symlink", dirNoAsk}, {"sessions/", "symlink", dirNoAsk},
		{"npm/", "symlink", dirNoAsk}, {"git/", "symlink", dirNoAsk}, {"tmp/", "symlink", []string{"symlink", "discard"}},
		{"utilities/", "symlink", dirNoAsk}, {"bin/", "symlink", dirNoAsk},
	},
	"claude": {
		{"settings.json", "symlink", fileAll},
		{"agents/", "symlink", dirAll}, {"skills/", "symlink", dirAll}, {"commands/", "symlink", dirAll},
		{"plugins/", "symlink", dirAll}, {"projects/", "symlink", dirNoAsk}, {"debug/", "symlink", dirNoAsk},
	},
}

// runModel is what the model expects of one run before the agent starts.
type runModel struct {
	agent string
	// launch is false when the run must fail before launching.
	launch bool
	// prelaunch are the adapter's warnings.
	prelaunch []string
	decls     []decl
	strategy  map[string]string // declared key → effective strategy
	unknown   string            // strategy of undeclared writes
	// source maps symlink and prompt keys to their durable source,
	// fixture-relative.
	source map[string]string
	// selected is the index of the highest-precedence definition of the
	// selected id.
	selected int
	profile  string
}

// model resolves run r of world w (spec resolve §2, §5, §7, §9 and
// composite-writeback §2).
func model(w proptest.World, r proptest.Run) runModel {
	m := runModel{selected: -1}
	var layers []proptest.Layer
	referenced := false
	for _, l := range []proptest.Layer{proptest.LayerUser, proptest.LayerProject, proptest.LayerLocal} {
		if s := w.Settings(l); s != nil && s.RemoteSettings {
			referenced = true
		}
	}
	for _, l := range w.Layers() {
		if l != proptest.LayerRemote || referenced {
			layers = append(layers, l)
		}
	}
	var defaultProfile, defaultAgent string
	cache := "home/.outfitter/cache"
	var sources []proptest.SourceRef
	for _, l := range layers {
		s := w.Settings(l)
		if s.DefaultProfile != "" {
			defaultProfile = s.DefaultProfile
		}
		if s.DefaultAgent != "" {
			defaultAgent = s.DefaultAgent
		}
		if s.CacheDirectory {
			cache = l.Dir() + "/cache"
		}
		if s.DeclaresSources {
			sources = s.Sources
		}
	}
	m.agent = first(r.Agent, defaultAgent, "pi")
	m.decls = declarations[m.agent]

	// The loaded list: sources in order, each source's entries by name.
	var loaded []int
	for _, src := range sources {
		var here []int
		for i, p := range w.Profiles {
			if p.Loc == src.Loc && (src.Only == nil || slices.Contains(src.Only, p.ID)) && !slices.Contains(src.Except, p.ID) {
				here = append(here, i)
			}
		}
		slices.SortStableFunc(here, func(a, b int) int { return strings.Compare(w.Profiles[a].Name(), w.Profiles[b].Name()) })
		loaded = append(loaded, here...)
	}
	defs := map[string][]int{}
	for _, i := range loaded {
		defs[w.Profiles[i].ID] = append(defs[w.Profiles[i].ID], i)
	}
	m.profile = first(r.Profile, defaultProfile)
	if m.profile == "" {
		return m
	}
	broken := false
	var walk func(id string, ancestry []string) []string
	walk = func(id string, ancestry []string) []string {
		if slices.Contains(ancestry, id) || len(defs[id]) == 0 {
			broken = true
			return nil
		}
		ds := defs[id]
		var out []string
		for _, parent := range w.Profiles[ds[len(ds)-1]].Inherits {
			out = append(out, walk(parent, append(slices.Clone(ancestry), id))...)
		}
		return uniq(append(out, id))
	}
	stack := walk(m.profile, nil)
	if broken {
		return m
	}
	ds := defs[m.profile]
	m.selected = ds[len(ds)-1]

	// Merged state_persistence and controls: stack order, definitions in
	// load order, later wins per key.
	overrides := map[string]string{}
	var c proptest.Controls
	var folders []string
	// A session_directory that only synced profiles declare is not used.
	ownSessions, syncedSessions := map[string]bool{}, map[string]bool{}
	for _, id := range stack {
		for _, i := range defs[id] {
			p := w.Profiles[i]
			for _, rule := range p.State {
				overrides[rule.Key] = rule.Strategy
			}
			c = mergeControls(c, p.Controls)
			if v := p.Controls.SessionDir; v != "" {
				if p.Loc == proptest.LocRemote {
					syncedSessions[v] = syncedSessions[v] || !ownSessions[v]
				} else {
					ownSessions[v], syncedSessions[v] = true, false
				}
			}
			if !p.Flat {
				folders = append(folders, p.Folder())
			}
		}
	}
	m.strategy = map[string]string{}
	for k := range overrides {
		if k != "unknown" && !slices.ContainsFunc(m.decls, func(d decl) bool { return d.key == k }) {
			return m
		}
	}
	for _, d := range append(slices.Clone(m.decls), decl{"unknown", "warn", unknownS}) {
		s := first(overrides[d.key], d.def)
		if !slices.Contains(d.allowed, s) {
			return m
		}
		m.strategy[d.key] = s
	}
	m.unknown = m.strategy["unknown"]
	delete(m.strategy, "unknown")
	if m.agent == "claude" {
		if c.Provider != "" {
			m.prelaunch = append(m.prelaunch, "claude adapter cannot translate requested control 'provider'.")
		}
		if c.ClaudeProvider != "" {
			m.prelaunch = append(m.prelaunch, "claude adapter cannot translate requested control 'claude.provider'.")
		}
	}
	if syncedSessions[c.SessionDir] {
		m.prelaunch = append(m.prelaunch, fmt.Sprintf("%s session_directory '%s' of a synced profile is not used: synced content does not choose where the agent writes.", m.agent, c.SessionDir))
		c.SessionDir = ""
	}
	if r.Strict && len(m.prelaunch) > 0 {
		return m
	}
	m.source = map[string]string{}
	for _, d := range m.decls {
		if s := m.strategy[d.key]; s == "symlink" || s == "prompt" {
			m.source[d.key] = sourceOf(w, m.agent, d, folders, cache, c)
		}
	}
	if m.agent == "pi" {
		m.strategy["keybindings.json"] = "discard"
		delete(m.source, "keybindings.json")
	}
	m.launch = true
	return m
}

// sourceOf is the durable source of a declared path (§2.7.3).
func sourceOf(w proptest.World, agent string, d decl, folders []string, cache string, c proptest.Controls) string {
	switch {
	case agent == "pi" && (d.key == "utilities/" || d.key == "bin/"):
		return cache + "/utilities"
	case agent == "claude" && d.key == "projects/" && c.SessionDir != "":
		return strings.TrimPrefix(c.SessionDir, "/fixture/")
	}
	for i := len(folders) - 1; i >= 0; i-- {
		owned := folders[i] + "/cli_specific/" + agent + "/" + d.name()
		for _, f := range w.FixtureFiles() {
			if f.Path == owned || strings.HasPrefix(f.Path, owned+"/") {
				// The agent never writes into a synced checkout: its
				// sources are state copies (resolve.SyncedState).
				if rest, ok := strings.CutPrefix(owned, "home/.outfitter/cache/"); ok && (strings.HasPrefix(rest, "repos/") || strings.HasPrefix(rest, "profiles/")) {
					return "home/.outfitter/state/" + rest
				}
				return owned
			}
		}
	}
	if agent == "pi" {
		return "home/.pi/agent/" + d.name()
	}
	return "home/.claude/" + d.name()
}

func mergeControls(lo, hi proptest.Controls) proptest.Controls {
	pick := func(a, b string) string { return first(b, a) }
	return proptest.Controls{
		Model: pick(lo.Model, hi.Model), Provider: pick(lo.Provider, hi.Provider), SessionDir: pick(lo.SessionDir, hi.SessionDir),
		PiModel: pick(lo.PiModel, hi.PiModel), ClaudeModel: pick(lo.ClaudeModel, hi.ClaudeModel),
		ClaudeProvider: pick(lo.ClaudeProvider, hi.ClaudeProvider),
	}
}

// issue is one classified change (§4.3).
type issue struct {
	path     string
	strategy string
	unknown  bool
}

// warning is an expected warning; a prefix warning ends with text the
// model does not predict (an error's own message).
type warning struct {
	text   string
	prefix bool
}

// postRun is what the model expects after the agent exited.
type postRun struct {
	warnings []warning // state warnings
	err      string    // expected error ("" for none)
	errPre   bool      // err is a prefix
	persist  []string  // keys persisted by a prompt answer
	always   []string  // keys whose always choice is recorded
}

// classify models detection and handling (§4.3-§4.6, §5.4) from the set of
// composite paths that changed while the agent ran.
func (m runModel) classify(w proptest.World, r proptest.Run, changed []string, end vfs.Tree) postRun {
	var issues []issue
	seen := map[string]bool{}
	for _, p := range changed {
		var is *issue
		if i := slices.IndexFunc(m.decls, func(d decl) bool { return p == d.name() || strings.HasPrefix(p, d.name()+"/") }); i >= 0 {
			d := m.decls[i]
			s := m.strategy[d.key]
			if s == "discard" || (s == "symlink" && p != d.name()) {
				continue
			}
			is = &issue{d.key, s, false}
		} else {
			if m.unknown == "discard" || p == "outfitter" || strings.HasPrefix(p, "outfitter/") {
				continue
			}
			is = &issue{p, m.unknown, true}
		}
		if !seen[is.path] {
			seen[is.path] = true
			issues = append(issues, *is)
		}
	}
	slices.SortFunc(issues, func(a, b issue) int { return collate(a.path, b.path) })
	var out postRun
	say := func(format string, args ...any) {
		out.warnings = append(out.warnings, warning{text: fmt.Sprintf(format, args...)})
	}
	for _, is := range issues {
		msg := fmt.Sprintf("%s wrote '%s' with state_persistence '%s' and it was not persisted.", m.agent, is.path, is.strategy)
		switch {
		case is.unknown:
			msg = fmt.Sprintf("%s wrote undeclared composite profile state '%s' and it was not persisted.", m.agent, is.path)
		case is.strategy == "symlink":
			msg = fmt.Sprintf("%s replaced symlinked state path '%s' and the change was not persisted.", m.agent, is.path)
		}
		switch {
		case is.strategy == "error":
			out.err = msg
			out.warnings = nil
			return out
		case is.strategy == "prompt" && is.unknown:
			say("%s", msg)
			say("state_persistence 'prompt' cannot persist undeclared writes; '%s' was reported instead.", is.path)
		case is.strategy == "prompt" && !r.Interactive:
			say("%s", msg)
			say("state_persistence prompt for '%s' skipped: non-interactive session.", is.path)
		case is.strategy == "prompt":
			answer := r.Answers[is.path]
			if answer == "discard" {
				continue
			}
			name := strings.TrimSuffix(is.path, "/")
			e, ok := end[name]
			wantType := vfs.TypeFile
			if strings.HasSuffix(is.path, "/") {
				wantType = vfs.TypeDir
			}
			if !ok || e.Type != wantType {
				out.warnings = append(out.warnings, warning{text: fmt.Sprintf("Could not persist state path '%s': ", is.path), prefix: true})
				continue
			}
			out.persist = append(out.persist, is.path)
			if answer == "always" {
				if w.Profiles[m.selected].Loc == proptest.LocRemote {
					say("Cannot record the always-persist choice for '%s' because profile '%s' is not a local profile file; the write was persisted once.", is.path, m.profile)
				} else {
					out.always = append(out.always, is.path)
				}
			}
		default:
			say("%s", msg)
		}
	}
	if r.Strict && len(out.warnings) > 0 {
		var texts []string
		for _, wn := range out.warnings {
			texts = append(texts, wn.text)
			out.errPre = out.errPre || wn.prefix
		}
		out.err = "Strict failed for " + m.agent + ": " + strings.Join(texts, "; ")
		out.warnings = nil
	}
	return out
}

// collate orders the tiny path alphabet as ICU's root collation does:
// punctuation, then digits, then letters, case-insensitively.
func collate(a, b string) int {
	weight := func(c byte) int {
		switch {
		case c == '_':
			return 1
		case c == '-':
			return 2
		case c == '.':
			return 3
		case c == '/':
			return 4
		case c >= '0' && c <= '9':
			return 10 + int(c-'0')
		case c >= 'A' && c <= 'Z':
			return 30 + int(c-'A')
		}
		return 30 + int(c-'a')
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if d := weight(a[i]) - weight(b[i]); d != 0 {
			return d
		}
	}
	return len(a) - len(b)
}

// changedPaths lists the composite paths whose entries differ between the
// launch and the agent's exit.
func changedPaths(atLaunch, end vfs.Tree) []string {
	return deltaPaths(vfs.Diff(atLaunch, end))
}

// advance applies a run's durable effects on the world description: the
// agent's source edits, then the recorded always choices.
func advance(w proptest.World, m runModel, ops []proptest.Op, post postRun) proptest.World {
	profiles := slices.Clone(w.Profiles)
	for _, op := range ops {
		if op.Edited != nil {
			profiles[op.Profile] = *op.Edited
		}
	}
	for _, key := range post.always {
		p := profiles[m.selected]
		p.State = slices.Clone(p.State)
		if i := slices.IndexFunc(p.State, func(r proptest.Rule) bool { return r.Key == key }); i >= 0 {
			p.State[i].Strategy = "symlink"
		} else {
			p.State = append(p.State, proptest.Rule{Key: key, Strategy: "symlink"})
		}
		profiles[m.selected] = p
	}
	w.Profiles = profiles
	return w
}

// touches reports whether an op acts on a declared path or below it.
func touches(ops []proptest.Op, name string, platform vfs.Platform) bool {
	name = vfs.FoldName(platform, name)
	for _, op := range ops {
		for _, p := range []string{op.Op.Path, op.Op.To} {
			if p = vfs.FoldName(platform, p); p == name || strings.HasPrefix(p, name+"/") {
				return true
			}
		}
	}
	return false
}

// defaultContent is what source creation writes for a missing file (§1.6).
func defaultContent(name string) string {
	switch path.Base(name) {
	case "mcp.json", "trust.json":
		return "{}\n"
	case "models.json":
		return "{\"providers\":{}}\n"
	}
	return ""
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func uniq(list []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func sortedUnique(list []string) []string {
	slices.Sort(list)
	return slices.Compact(list)
}
