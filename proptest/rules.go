package proptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
)

// Divergent is an upstream behaviour that vfsim does not follow (yet), as
// the differential campaign against the oracle finds it: its name (the
// ledger's word for it), where upstream implements it, what upstream does
// and what vfsim does, and the test that recognizes a divergence it
// explains.
type Divergent struct {
	// Name is the rule's ledger name.
	Name string
	// Where is the upstream source that implements it (file:line under
	// code/cli/src of the oracle).
	Where string
	// What says what upstream does and what vfsim does instead.
	What string
	// Deviation says that vfsim departs from the rule on purpose, as a
	// deliberate deviation documented in the package doc and the README's
	// list of deviations, with the reason. A divergence of such a rule is
	// explained; one of any other rule is open: a behaviour of upstream
	// that vfsim should follow and does not.
	Deviation bool
	// explains reports whether the rule explains a divergence of a world.
	explains func(x *explainer, d Divergence) bool
	// fails reports whether the rule explains a run's error divergence
	// that makes the run go differently from then on: every other
	// divergence of the run, and the durable ones no other rule explains,
	// follow from it.
	fails func(x *explainer, d Divergence) bool
	// ownsDurable says that the durable divergences the rule explains
	// come from it whatever else happened in the runs.
	ownsDurable bool
}

// Explanation is what the known rules make of a world's divergences.
type Explanation struct {
	// Rules counts, per rule, the divergences it explains.
	Rules map[string]int
	// Unexplained are the divergences no rule explains.
	Unexplained []Divergence
}

// RuleNames returns the explaining rules, sorted.
func (e Explanation) RuleNames() []string { return slices.Sorted(maps.Keys(e.Rules)) }

// explainer holds a world, vfsim's report and the divergences while they
// are explained.
type explainer struct {
	w    *CorpusWorld
	rep  *sim.Report
	divs []Divergence
}

// stateWrite matches the warnings of the post-run classification, which a
// strict failure before the launch never lists.
var stateWrite = regexp.MustCompile(`composite profile state|state path|with state_persistence|state_persistence (prompt|'prompt')|always-persist|Could not persist`)

// prelaunch returns the warnings of a run before the launch: all of them
// but the post-run classification's.
func prelaunch(warnings []string) []string {
	var out []string
	for _, w := range warnings {
		if !stateWrite.MatchString(w) {
			out = append(out, w)
		}
	}
	return out
}

// strictRule explains a run that failed strict on one side only: the
// rule of the first warning that differs between the failure's messages
// and the other side's warnings before the launch.
func (x *explainer) strictRule(d Divergence) string {
	up, ours := unquote(d.Upstream), unquote(d.Ours)
	var upList, ourList []string
	pu, po := strictPrefix.FindString(up), strictPrefix.FindString(ours)
	switch {
	case pu != "" && po != "":
		// Both failed strict, one before the launch and one after it:
		// the messages before the launch tell.
		upList = prelaunch(splitMessages(up[len(pu):]))
		ourList = prelaunch(splitMessages(ours[len(po):]))
	case pu != "" && d.Ours == "":
		upList = splitMessages(up[len(pu):])
		ourList = prelaunch(x.rep.Runs[d.Run].Warnings)
	case po != "" && d.Upstream == "":
		cr := x.w.Capture.Runs[d.Run]
		if cr.Result == nil {
			return ""
		}
		upList = prelaunch(cr.Result.Warnings)
		ourList = splitMessages(ours[len(po):])
	default:
		return ""
	}
	for _, w := range compareWarnings(d.Run, upList, ourList) {
		w.Field = "strict"
		for _, r := range rules {
			if r.explains != nil && r.explains(x, w) {
				return r.Name
			}
		}
	}
	return ""
}

var strictPrefix = regexp.MustCompile(`^Strict failed for [a-z]+: `)

// continuation matches the parts of a message that follow a "; " inside
// it (the raw prompt entry and skill pass-through warnings hold one).
var continuation = regexp.MustCompile(`^(use \{ file:|passing it through)`)

// splitMessages splits the list of an error that joins messages with
// "; ", keeping together the messages that hold "; " themselves.
func splitMessages(s string) []string {
	var out []string
	for _, part := range strings.Split(s, "; ") {
		if len(out) > 0 && continuation.MatchString(part) {
			out[len(out)-1] += "; " + part
			continue
		}
		out = append(out, part)
	}
	return out
}

// message returns the message of a warnings divergence (either side).
func message(d Divergence) string {
	v := d.Upstream
	if v == "" {
		v = d.Ours
	}
	var s string
	if json.Unmarshal([]byte(v), &s) != nil {
		return v
	}
	return s
}

// kinds of warning messages, by the rule that owns them.
var warningKinds = []struct {
	rule string
	re   *regexp.Regexp
}{
	{"skill-passthrough-warning", regexp.MustCompile(`does not resolve in any skills directory; passing it through`)},
	{"skill-shadowing-warning", regexp.MustCompile(`^Skill ID '.*' is supplied by .* and shadows`)},
}

// warningRule names the rule that owns a warning message, or "".
func warningRule(msg string) string {
	for _, k := range warningKinds {
		if k.re.MatchString(msg) {
			return k.rule
		}
	}
	return ""
}

// orderRule names the rule whose messages two lists (of the same
// messages) hold in different orders, or "".
func orderRule(up, ours []string) string {
	for _, k := range warningKinds {
		filter := func(l []string) []string {
			var out []string
			for _, m := range l {
				if k.re.MatchString(m) {
					out = append(out, m)
				}
			}
			return out
		}
		if !slices.Equal(filter(up), filter(ours)) {
			return k.rule
		}
	}
	return ""
}

func decodeList(s string) []string {
	var l []string
	_ = json.Unmarshal([]byte(s), &l)
	return l
}

// isWarnings reports whether a divergence compares warning messages: of
// the warnings field, or of the messages of a strict failure.
func isWarnings(d Divergence) bool {
	return d.Field == "warnings" || d.Field == "strict" || d.Field == "skills"
}

// rules are the known rules, tried in order: the first that explains a
// divergence names it.
var rules = []Divergent{
	{
		Name:  "synced-content",
		Where: "settings/SettingsLoader.ts (remote settings merged like local ones), profiles/ProfileLoader.ts (cached sources loaded like local ones)",
		What: "Upstream treats what arrives by sync (remote profile sources, remote settings and what they " +
			"declare) like the user's own files: a synced settings file may set cache_directory and declare " +
			"profile sources anywhere, and synced profiles may link or include files outside their checkout. " +
			"vfsim refuses such a run before anything is written, naming the file and the rule, and leaves out, " +
			"with a warning, a synced profile's prompt include outside its checkout (a relative file include " +
			"resolves inside the checkout, where upstream resolves it against home/.outfitter), looks for a skill " +
			"reference a synced profile brings in under the checkout's include root only (upstream: home/.outfitter), " +
			"and does not use " +
			"a synced profile's session_directory (Claude's projects/ keeps its own source, pi gets no " +
			"--session-dir) (a deliberate " +
			"deviation, resolve's package doc and the README: what arrives by sync stays inside its checkout).",
		Deviation:   true,
		ownsDurable: true,
		explains: func(x *explainer, d Divergence) bool {
			if syncedInclude(d) || syncedSession(d) || x.sessionFollows(d) ||
				isWarnings(d) && x.syncedReference(message(d)) {
				return true
			}
			// A refused run wrote nothing durable: every durable
			// divergence of its world follows from the refusal.
			if d.Run < 0 && slices.ContainsFunc(x.divs, func(o Divergence) bool { return x.syncedFailure(o) }) {
				return true
			}
			// The prompt an include left out of a synced profile gave.
			return d.Field == "args" && d.Key == "--append-system-prompt" &&
				slices.ContainsFunc(x.divs, func(o Divergence) bool { return o.Run == d.Run && syncedInclude(o) })
		},
		fails: func(x *explainer, d Divergence) bool { return x.syncedFailure(d) },
	},
	{
		Name:  "synced-state",
		Where: "compositeProfile/StatePersistence.ts (profile-owned sources used where the profile folder holds them)",
		What: "A profile-owned state source (<folder>/cli_specific/<agent>/<key>) of a profile that arrived by sync " +
			"is, upstream, the file in the cache checkout: the agent writes into the checkout, and every later " +
			"sync fails on the local changes. vfsim links the state path to its state copy under " +
			"home/.outfitter/state (the same path as below home/.outfitter/cache), made from the checkout's copy " +
			"the first time, and never writes into the checkout (a deliberate deviation, resolve's package doc).",
		Deviation:   true,
		ownsDurable: true,
		explains: func(x *explainer, d Divergence) bool {
			switch d.Field {
			case "composite":
				up, ours := unquote(d.Upstream), unquote(d.Ours)
				return strings.HasSuffix(d.Key, "/target") && strings.Contains(up, "<home>/.outfitter/cache/") &&
					ours == strings.Replace(up, "<home>/.outfitter/cache/", "<home>/.outfitter/state/", 1)
			case "durable":
				return d.Key == "home/.outfitter/state" || strings.HasPrefix(d.Key, "home/.outfitter/state ") ||
					strings.HasPrefix(d.Key, "home/.outfitter/state/") ||
					strings.HasPrefix(d.Key, "home/.outfitter/cache/") && strings.Contains(d.Key, "/cli_specific/")
			}
			return false
		},
	},
	{
		Name:  "skill-link-materialization",
		Where: "skills/SkillResolution.ts:200 (cpSync of a linked catalog skill copies the link), :204-:213 (the copies written through it)",
		What: "A catalog skill that is a symbolic link and has references, scripts or assets to copy: upstream " +
			"copies the link into the composite and writes the copies through it, into the linked checkout. " +
			"vfsim never writes through a link: it copies the skill into the composite instead and leaves the " +
			"checkout as it was (a deliberate deviation, composite's package doc).",
		Deviation:   true,
		ownsDurable: true,
		explains: func(x *explainer, d Divergence) bool {
			for _, link := range x.linkedSkills() {
				switch {
				case d.Field == "composite" && (d.Key == link.composite+"/type" || strings.HasPrefix(d.Key, link.composite+"/")):
					return true
				case d.Field == "durable" && link.durable != "" && strings.HasPrefix(d.Key, link.durable+"/"):
					return true
				}
			}
			return false
		},
	},
	{
		Name:  "skill-passthrough-warning",
		Where: "skills/SkillResolution.ts:131 (resolveUncataloguedEntry; the warning at :152), skills/ProfileSkillResolution.ts:53 (one resolution per scope)",
		What: "A valid skill id that no catalog holds passes through as a path source with the warning \"Skill " +
			"'<id>' does not resolve in any skills directory; passing it through as a path source.\" for every " +
			"entry of every control scope that names it (skills, pi.skills, claude.skills: twice for an id in " +
			"two scopes), before the adapter's warnings. vfsim warns once per id.",
		explains: warningKind("skill-passthrough-warning"),
	},
	{
		Name:  "skill-shadowing-warning",
		Where: "skills/ProfileSkillResolution.ts:130 (createShadowedSkillDiagnostics), skills/SkillCatalog.ts:45 (discoverSkillCatalog)",
		What: "When a selected skill id is supplied by several catalog roots, upstream warns \"Skill ID '<id>' is " +
			"supplied by <origin> ('<dir>') and shadows '<other dir>'.\" for each shadowed copy. vfsim does not.",
		explains: warningKind("skill-shadowing-warning"),
	},
	{
		Name:  "skill-md-validation",
		Where: "skills/SkillResolution.ts:170 (resolveCatalogSkill), skills/SkillDocument.ts:39 (parseSkillDocument)",
		What: "Upstream validates the SKILL.md of every selected catalog skill (frontmatter, name, references) " +
			"and fails the run with \"Cannot resolve profile skills: <SKILL.md> <message>\" before anything " +
			"is written. vfsim does not validate catalog skills and launches.",
		fails: func(x *explainer, d Divergence) bool {
			return d.Field == "error" && strings.HasPrefix(unquote(d.Upstream), "Cannot resolve profile skills:") && !strings.HasPrefix(unquote(d.Ours), "Cannot resolve profile skills:")
		},
		explains: func(x *explainer, d Divergence) bool {
			return d.Field == "skills" && d.Key == "missing" && strings.Contains(message(d), "SKILL.md")
		},
	},
	{
		Name:  "skill-error-scope",
		Where: "skills/SkillResolution.ts:118, :138, :151 (path: controls.skills/<id> for every scope)",
		What: "Skill resolution diagnostics name every entry controls.skills/<id>, whichever control scope " +
			"(skills, pi.skills, claude.skills) selected it. vfsim names the scope (controls.pi.skills/<id>).",
	},
	{
		Name:  "pi-skill-path-resolution",
		Where: "agents/pi/PiSkillSources.ts:25 (resolveProfileSkillSource), :45 (shared skill roots), :8 (deduplication)",
		What: "A relative skill path (skills/review) is resolved against each layer's shared skill roots " +
			"(dirname(sourceRoot), sourceRoot, the profile folder) when a SKILL.md is there, and the --skill list " +
			"is deduplicated by exact string after resolution. vfsim passes such paths through as written (and so " +
			"keeps the folder's discovered copy as a second --skill).",
		explains: func(x *explainer, d Divergence) bool {
			return d.Field == "args" && d.Key == "--skill" && relativeSkill.MatchString(d.Ours)
		},
	},
	{
		Name:  "skill-reference-materialization",
		Where: "skills/SkillResolution.ts:202 (resolveCatalogSkill: copies the materializations), :227 (planSkillMaterializations)",
		What: "A catalog skill's SKILL.md references (and scripts, assets), plus references a profile adds to " +
			"an {id, references} selection, are copied into the generated outfitter/skills/<id>/references/ " +
			"(resp. scripts/, assets/). vfsim copies the skill directory only.",
		explains: func(x *explainer, d Divergence) bool {
			return d.Field == "composite" && skillSection.MatchString(d.Key)
		},
	},
	{
		Name:  "system-prompt-export",
		Where: "prompts/SystemPromptExport.ts:24 (exportSystemPromptIfEnabled), cli/commands/RunCommand.ts:112",
		What: "With profile_export (profile or settings) upstream writes generated-system-prompt.md (or " +
			"<id>.generated-system-prompt.md) next to the selected local profile and sets " +
			"OUTFITTER_SYSTEM_PROMPT_EXPORT_PATH. vfsim does the same (composite's planExport); a difference " +
			"of the path, the variable or the content shows here.",
		ownsDurable: true,
		explains: func(x *explainer, d Divergence) bool {
			return (d.Field == "env" && d.Key == "OUTFITTER_SYSTEM_PROMPT_EXPORT_PATH") ||
				(d.Field == "durable" && strings.Contains(d.Key, "generated-system-prompt.md"))
		},
	},
	{
		Name:  "yaml-error-text",
		Where: "validation/YamlDocument.ts:23 (parseYamlDocument: String(YAMLParseError))",
		What: "A YAML document the yaml library cannot parse fails the run with that library's message " +
			"after \"YAMLParseError: \". The twin (internal/jsstack) gives the library's text, line, column " +
			"and caret for the errors it locates (duplicate keys, a second document, an unquoted \": \", an " +
			"unclosed quote or flow collection, a tab or a dedented key); any other is worded by " +
			"go.yaml.in/yaml/v3, the run failing at the same point and naming the same file (a deliberate " +
			"deviation; the normalization covers a SKILL.md frontmatter).",
		Deviation: true,
	},
	{
		Name:  "quoted-control-characters",
		Where: "cli/commands/RunCommand.ts (the run's error printed as String(error))",
		What: "A run's error whose text holds control characters (a carriage return of a CRLF file quoted " +
			"in a YAML error's context, a name from a synced repository) is printed by upstream as it is; " +
			"vfsim quotes each line that holds one (resolve.QuoteText, sim.QuotedError), so a terminal " +
			"does not act on them (a deliberate deviation, docs/security.md).",
		Deviation: true,
		explains: func(x *explainer, d Divergence) bool {
			if d.Field != "error" {
				return false
			}
			up, ours := unquote(d.Upstream), unquote(d.Ours)
			return up != ours && resolve.QuoteText(up) == ours
		},
	},
	{
		Name:  "always-answer-yaml",
		Where: "compositeProfile/StatePersistence.ts:170 (recordProfileStatePersistenceOverride)",
		What: "The \"always\" prompt answer re-serializes the whole profile YAML with the yaml library " +
			"(parseDocument, setIn, toString): flow collections re-spaced ({A: \"x\"} becomes { A: \"x\" }), " +
			"quoting normalized, long strings folded at 80 columns. vfsim edits the one state_persistence " +
			"line and keeps the rest of the file byte for byte, replaced atomically; the rule explains two texts " +
			"of the same document only (a deliberate deviation, " +
			"writeback's package doc: the user's formatting and comments are theirs).",
		Deviation:   true,
		ownsDurable: true,
		explains: func(x *explainer, d Divergence) bool {
			return d.Field == "durable" && strings.Contains(d.Key, ".y") && strings.Contains(d.Key, " changed/text") &&
				sameYAML(unquote(d.Upstream), unquote(d.Ours))
		},
	},
}

// syncedRefusal reports whether d is a run vfsim refused by the rule of
// synced content.
func syncedRefusal(d Divergence) bool {
	ours := unquote(d.Ours)
	return d.Field == "error" &&
		(strings.Contains(ours, "synced remote settings file") || strings.Contains(ours, "synced repository") ||
			strings.Contains(ours, "synced profile repository"))
}

// syncedFailure reports whether d is a run's error that the rule of
// synced content explains: a refusal, or a skill reference of a synced
// profile that vfsim looked for inside the checkout only (see
// [explainer.syncedReference]) failing the run.
func (x *explainer) syncedFailure(d Divergence) bool {
	return syncedRefusal(d) || d.Field == "error" && d.Upstream == "" && x.syncedReference(unquote(d.Ours))
}

// syncedReferenceProblem is vfsim's problem of a skill reference it did
// not find at a root inside a cache checkout, with the reference's path.
var syncedReferenceProblem = regexp.MustCompile(`Reference file '([^']*)' was not found under '<home>/\.outfitter/cache/[^']*'\.`)

// syncedReference reports whether msg is vfsim's problem of a skill
// reference that a synced profile brought in, looked for under the
// checkout's include root, and that the world holds where upstream looks
// for it: upstream's inferProfileIncludeSourceRoot (PromptIncludes.ts)
// walks up from the checkout to home/.outfitter, outside the checkout.
// Every reference the message names must be such a one.
func (x *explainer) syncedReference(msg string) bool {
	found := syncedReferenceProblem.FindAllStringSubmatch(msg, -1)
	for _, m := range found {
		if !x.holds("home/.outfitter/" + m[1]) {
			return false
		}
	}
	return len(found) > 0
}

// holds reports whether the world's fixture has a file or a directory at
// the fixture-relative path name.
func (x *explainer) holds(name string) bool {
	name = path.Clean(name)
	for f := range x.w.Files {
		if f == name || strings.HasPrefix(f, name+"/") {
			return true
		}
	}
	return false
}

// syncedIncludeWarning is the warning of a prompt include of a profile
// in a checkout that vfsim does not read: outside the checkout, or not
// found at the checkout's include root (upstream resolves it against
// home/.outfitter, outside the checkout).
var syncedIncludeWarning = regexp.MustCompile(`Prompt (file|repo_file) include '.*' (was not found\.|of a synced profile is not read: .*) \(<home>/\.outfitter/cache/`)

// syncedInclude reports whether d is the warning of a synced profile's
// include that vfsim does not read.
func syncedInclude(d Divergence) bool {
	return isWarnings(d) && syncedIncludeWarning.MatchString(message(d))
}

// syncedSession reports whether d is the warning of a synced profile's
// session_directory that vfsim does not use.
func syncedSession(d Divergence) bool {
	return isWarnings(d) && strings.Contains(message(d), syncedSessionWarning)
}

// syncedSessionWarning is the end of the warning of a synced profile's
// session_directory that vfsim does not use.
const syncedSessionWarning = "of a synced profile is not used: synced content does not choose where the agent writes"

// sessionFollows reports whether d follows from a synced profile's
// session_directory that vfsim did not use in a run of the world: pi's
// --session-dir missing, Claude's projects/ linked to another source, and
// the durable directories either source made.
func (x *explainer) sessionFollows(d Divergence) bool {
	// The warning is in the run's report (it is a divergence too unless
	// upstream's warnings of the run were not compared).
	inRun := func(run int) bool {
		if run < 0 || run >= len(x.rep.Runs) {
			return false
		}
		return slices.ContainsFunc(x.rep.Runs[run].Warnings, func(w string) bool { return strings.Contains(w, syncedSessionWarning) })
	}
	switch {
	case d.Field == "args" && d.Key == "--session-dir", d.Field == "composite" && d.Key == "projects/target":
		return inRun(d.Run)
	case d.Field != "durable":
		return false
	}
	key, _, _ := strings.Cut(d.Key, " ") // the fixture path, then the change
	for _, o := range x.divs {
		if o.Field != "composite" || o.Key != "projects/target" || !inRun(o.Run) {
			continue
		}
		for _, t := range []string{unquote(o.Upstream), unquote(o.Ours)} {
			t = strings.NewReplacer("<home>", "home", "<project>", "project").Replace(t)
			if !strings.HasPrefix(t, "home/") && !strings.HasPrefix(t, "project/") {
				t = vfs.Join("project", t)
			}
			if key == t || strings.HasPrefix(t, key+"/") || strings.HasPrefix(key, t+"/") {
				return true
			}
		}
	}
	return false
}

// sameYAML reports whether two YAML texts hold the same data as
// upstream's yaml library reads them: the texts of one document as two
// printers wrote it.
func sameYAML(a, b string) bool {
	x, errA := jsstack.ParseYAML([]byte(a))
	y, errB := jsstack.ParseYAML([]byte(b))
	if errA != nil || errB != nil {
		return false
	}
	return string(jsstack.Stringify(x, "")) == string(jsstack.Stringify(y, ""))
}

// skillSection matches a materialized section of a generated skill.
var skillSection = regexp.MustCompile(`^outfitter/skills/[a-z0-9-]+/(references|scripts|assets)(/|$)`)

// relativeSkill matches a --skill list that holds a relative skill path.
var relativeSkill = regexp.MustCompile(`"(\./)?skills/`)

// warningKind returns a matcher of the warning divergences (and strict
// messages) of a rule: a missing or extra message of the rule's kind, or
// an order difference among its messages.
func warningKind(rule string) func(x *explainer, d Divergence) bool {
	return func(x *explainer, d Divergence) bool {
		if !isWarnings(d) {
			return false
		}
		if d.Key == "order" {
			return orderRule(decodeList(d.Upstream), decodeList(d.Ours)) == rule
		}
		return warningRule(message(d)) == rule
	}
}

func unquote(s string) string {
	var out string
	if json.Unmarshal([]byte(s), &out) != nil {
		return s
	}
	return out
}

// listErrors are the errors that join a list of messages with "; ", by
// the field their messages are compared as.
var listErrors = []struct {
	field  string
	prefix *regexp.Regexp
}{
	{"strict", regexp.MustCompile(`^Strict failed for [a-z]+: `)},
	{"skills", regexp.MustCompile(`^Cannot resolve profile skills: `)},
}

// expand breaks two errors that list messages the same way (a strict
// failure, skill resolution errors) down into their messages, compared as
// warnings (field "strict" or "skills"); other divergences are kept.
func expand(divs []Divergence) []Divergence {
	launched := map[int]bool{}
	for _, d := range divs {
		if d.Field == "launched" {
			launched[d.Run] = true
		}
	}
	var out []Divergence
next:
	for _, d := range divs {
		up, ours := unquote(d.Upstream), unquote(d.Ours)
		// A failure before the launch on one side only is a failure
		// that changes the run (see explainer.strictRule), not a list.
		if d.Field == "error" && d.Upstream != "" && d.Ours != "" && !launched[d.Run] {
			for _, l := range listErrors {
				pu, po := l.prefix.FindString(up), l.prefix.FindString(ours)
				if pu != "" && pu == po {
					for _, s := range compareWarnings(d.Run, splitMessages(up[len(pu):]), splitMessages(ours[len(po):])) {
						s.Field = l.field
						out = append(out, s)
					}
					continue next
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// pairings are the rules that explain a missing message together with an
// extra one that says the same once normalized.
var pairings = []struct {
	rule      string
	normalize func(string) string
}{
	{"skill-error-scope", func(s string) string { return skillScope.ReplaceAllString(s, "controls.skills/") }},
	{"yaml-error-text", func(s string) string { return yamlError.ReplaceAllString(s, "${1}<YAML error>") }},
	// A skill reference of a synced profile missing at both roots: vfsim
	// names the checkout's include root, upstream home/.outfitter.
	{"synced-content", func(s string) string { return syncedRoot.ReplaceAllString(s, "$1 under '<home>/.outfitter'") }},
}

var (
	skillScope = regexp.MustCompile(`controls\.(pi|claude)\.skills/`)
	yamlError  = regexp.MustCompile(`(?s)(SKILL\.md frontmatter is not valid YAML: YAMLParseError: ).*`)
	syncedRoot = regexp.MustCompile(`(Reference file '[^']*' was not found|Reference file glob '[^']*' matched no files) under '<home>/\.outfitter/cache/[^']*'`)
)

// linkedSkill is a generated skill upstream left as a link in the
// composite at launch: its composite path and the fixture-relative path
// of its target ("" outside the fixture).
type linkedSkill struct {
	composite, durable string
}

// linkedSkills lists the generated skills that are links in some run of
// the capture.
func (x *explainer) linkedSkills() []linkedSkill {
	var out []linkedSkill
	for _, run := range x.w.Capture.Runs {
		for p, e := range run.CompositeAtLaunch {
			if e.Type != vfs.TypeSymlink || !generatedSkill.MatchString(p) {
				continue
			}
			l := linkedSkill{composite: p}
			for _, tok := range []string{"<home>", "<project>", "<cache>"} {
				if rest, ok := strings.CutPrefix(e.Target, tok+"/"); ok {
					l.durable = strings.Trim(tok, "<>") + "/" + rest
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// generatedSkill matches a generated skill's directory in the composite.
var generatedSkill = regexp.MustCompile(`^outfitter/skills/[a-z0-9-]+$`)

// Explain names the rules behind a world's divergences (from
// [CompareCapture]). Strict failures are compared message by message;
// a missing warning and an extra one that say the same once a pairing
// normalizes them are one divergence of the pairing's rule; a run whose
// error a failing rule explains owes all its other divergences to that
// rule, and so do the durable divergences no rule explains.
func Explain(w *CorpusWorld, rep *sim.Report, divs []Divergence) Explanation {
	x := &explainer{w: w, rep: rep, divs: expand(divs)}
	e := Explanation{Rules: map[string]int{}}
	done := make([]bool, len(x.divs))
	// A missing message and an extra one that says the same once
	// normalized; errors that say the same once normalized.
	for i, d := range x.divs {
		if done[i] {
			continue
		}
		var pairs []int
		if isWarnings(d) && d.Key == "missing" {
			for j, o := range x.divs {
				if !done[j] && o.Run == d.Run && o.Field == d.Field && o.Key == "extra" {
					pairs = append(pairs, j)
				}
			}
		} else if d.Field == "error" && d.Upstream != "" && d.Ours != "" {
			pairs = []int{i}
		}
	pair:
		for _, j := range pairs {
			for _, p := range pairings {
				if p.normalize(x.divs[j].Ours) != p.normalize(d.Upstream) {
					continue
				}
				done[i], done[j] = true, true
				e.Rules[p.rule]++
				break pair
			}
		}
	}
	// Failures that change the rest of a run.
	failed := map[int]string{}
	for i, d := range x.divs {
		if done[i] || d.Field != "error" {
			continue
		}
		if r := x.strictRule(d); r != "" {
			failed[d.Run] = r
			done[i] = true
			e.Rules[r]++
			continue
		}
		for _, r := range rules {
			if r.fails != nil && r.fails(x, d) {
				failed[d.Run] = r.Name
				done[i] = true
				e.Rules[r.Name]++
				break
			}
		}
	}
	for i, d := range x.divs {
		if done[i] {
			continue
		}
		if r, ok := failed[d.Run]; ok {
			done[i] = true
			e.Rules[r]++
			continue
		}
		for _, r := range rules {
			// Once a run went differently, only the rules that own a
			// durable path outright explain durable divergences.
			if d.Run < 0 && len(failed) > 0 && !r.ownsDurable {
				continue
			}
			if r.explains != nil && r.explains(x, d) {
				done[i] = true
				e.Rules[r.Name]++
				break
			}
		}
	}
	for i, d := range x.divs {
		if done[i] {
			continue
		}
		if d.Run < 0 && len(failed) > 0 {
			for _, run := range slices.Sorted(maps.Keys(failed)) {
				e.Rules[failed[run]]++
				break
			}
			continue
		}
		e.Unexplained = append(e.Unexplained, d)
	}
	return e
}

// Deviations returns the names of the rules that are documented
// deviations, in order.
func Deviations() []string {
	var out []string
	for _, r := range rules {
		if r.Deviation {
			out = append(out, r.Name)
		}
	}
	return out
}

// Open returns the rules of an explanation that are not documented
// deviations, sorted: the upstream behaviours behind its divergences that
// vfsim should follow and does not.
func (e Explanation) Open() []string {
	var out []string
	for _, r := range e.RuleNames() {
		if !RuleInfo(r).Deviation {
			out = append(out, r)
		}
	}
	return out
}

// RuleInfo returns the rule of a name (a zero Divergent with the name when
// unknown).
func RuleInfo(name string) Divergent {
	for _, r := range rules {
		if r.Name == name {
			return r
		}
	}
	return Divergent{Name: name}
}

// Rules returns the names of the known rules, in order.
func Rules() []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.Name
	}
	return out
}

// WriteLedger writes a ledger of known divergences: one "world-id rule"
// line each, after a comment that says how to read it.
func WriteLedger(file string, lines []string) error {
	var b strings.Builder
	b.WriteString("# Known divergences of the oracle corpus from upstream: one \"world rule\" line each.\n")
	b.WriteString("# Generated by go run ./proptest/cmd/oracle pack; remove lines as rules are fixed.\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// ReadLedger reads a ledger written by [WriteLedger]: world id to the set
// of its rules. Blank lines and # comments are skipped; other lines must
// be "world rule".
func ReadLedger(data []byte, name string) (map[string]map[string]bool, error) {
	out := map[string]map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"world rule\", got %q", name, n, line)
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]bool{}
		}
		if out[f[0]][f[1]] {
			return nil, fmt.Errorf("%s:%d: %s %s listed twice", name, n, f[0], f[1])
		}
		out[f[0]][f[1]] = true
	}
	return out, sc.Err()
}
