package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

func lintCommand() *command {
	return &command{
		name:     "lint",
		synopsis: "[--strict] [--json] [FIXTURE|DIR ... | --home DIR --project DIR]",
		summary:  "point out mistakes in settings, profiles and fixtures",
		about: `
Lint reads the settings and profiles of fixtures (a fixture directory, a
.txtar archive or a folder of them), or of a real home and project (--home
and --project, default $HOME and the working directory, read only), and
reports, one per line, as "severity: path: message":

  - what upstream's "outfitter profile lint" reports: settings problems,
    profiles that do not load, broken inheritance (cycles, missing
    parents), prompt includes that do not resolve, and the warnings each
    agent's adapter gives for each profile (controls it cannot translate,
    skills that do not resolve);
  - keys that no schema knows, which a run accepts without a word
    (inherit: for inherits:, enviroment: for environment:), with the known
    key it most likely means;
  - profile files that no configured profile source loads, so that no run
    can reach them;
  - symbolic links that lead nowhere;
  - in fixtures, expected files that are empty, or missing though a
    scenario names them (vfsim update fills both).

A run's own warnings stay exactly upstream's: lint is separate. It exits
with 1 when it finds an error, or a warning with --strict.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			home := f.String("home", "", "lint the real home `DIR` (default $HOME when no fixture is named)")
			project := f.String("project", "", "lint the real project `DIR` (default the working directory when no fixture is named)")
			strict := f.Bool("strict", false, "exit with 1 on warnings too")
			asJSON := f.Bool("json", false, "print the findings as a JSON array of {severity, path, message}")
			return func(c *cli, args []string) (int, error) {
				if len(args) > 0 && (*home != "" || *project != "") {
					return 0, usageError{errors.New("give fixtures or --home and --project, not both")}
				}
				var found []finding
				if len(args) == 0 {
					m, err := newMachine("", *home, *project)
					if err != nil {
						return 0, err
					}
					found = lintMachine(m)
				} else {
					for _, a := range args {
						paths, err := fixtures.Find(a)
						if err != nil {
							return 0, err
						}
						for _, p := range paths {
							more, err := lintFixture(p)
							if err != nil {
								return 0, err
							}
							found = append(found, more...)
						}
					}
				}
				return printFindings(c.stdout, found, *asJSON, *strict)
			}
		},
	}
}

// finding is one thing lint reports.
type finding struct {
	Severity string `json:"severity"` // "error" or "warning"
	Path     string `json:"path"`
	Message  string `json:"message"`
}

func printFindings(w io.Writer, found []finding, asJSON, strict bool) (int, error) {
	code := 0
	for _, f := range found {
		if f.Severity == "error" || strict {
			code = 1
		}
	}
	if asJSON {
		if found == nil {
			found = []finding{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return code, enc.Encode(found)
	}
	if len(found) == 0 {
		fmt.Fprintln(w, "no lint findings")
	}
	for _, f := range found {
		fmt.Fprintf(w, "%s: %s: %s\n", f.Severity, f.Path, f.Message)
	}
	return code, nil
}

// lintFixture lints a fixture: its machine, as lintMachine, then its
// expected files. Paths are prefixed with the fixture's name.
func lintFixture(p string) ([]finding, error) {
	fx, err := fixtures.Load(p)
	if err != nil {
		return nil, err
	}
	m, err := fixtureMachine(fx)
	if err != nil {
		return nil, err
	}
	found := lintMachine(m)
	found = append(found, lintExpected(fx)...)
	for i := range found {
		found[i].Path = fx.Name() + ": " + found[i].Path
	}
	return found, nil
}

// lintExpected finds expected files that are empty, and those a scenario
// names that are missing.
func lintExpected(fx *fixtures.Fixture) []finding {
	var found []finding
	named := map[string]bool{}
	for _, sc := range fx.Scenarios() {
		for i, r := range sc.Runs {
			if r.Expect == nil {
				continue
			}
			var files []string
			if r.Expect.Summary != nil {
				files = append(files, r.Expect.Summary.File)
			}
			if r.Expect.Warnings != nil && r.Expect.Warnings.File != "" {
				files = append(files, r.Expect.Warnings.File)
			}
			for _, f := range files {
				if _, err := fx.Expected(f); err != nil && !named[f] {
					found = append(found, finding{"error", sc.File() + fmt.Sprintf("#/runs/%d/expect", i), "names the expected file " + f + ", which is missing (vfsim update creates it)"})
				}
				named[f] = true
			}
		}
	}
	for _, f := range fx.ExpectedFiles() {
		data, _ := fx.Expected(f)
		switch t := string(bytes.TrimSpace(data)); {
		case t == "":
			found = append(found, finding{"error", f, "the expected file is empty (vfsim update fills it)"})
		case t == "{}" && strings.Contains(f, "summary"):
			found = append(found, finding{"error", f, "the expected summary is an empty object and compares nothing (vfsim update fills it)"})
		case !named[f]:
			found = append(found, finding{"warning", f, "no scenario compares this expected file"})
		}
	}
	return found
}

// lintMachine lints the settings and profiles of a machine.
func lintMachine(m *machine) []finding {
	l := &linter{m: m, agents: composite.DefaultRegistry().Agents()}
	l.upstream()
	l.unknownKeys()
	l.unreachable()
	l.danglingLinks()
	return l.found
}

type linter struct {
	m        *machine
	agents   *resolve.Agents
	settings *resolve.LoadedSettings
	layers   []resolve.Layer
	found    []finding
}

func (l *linter) add(severity, p, message string) {
	l.found = append(l.found, finding{severity, l.m.name(p), message})
}

// upstream makes upstream's profile lint checks: settings problems, profile
// load problems, inheritance problems, prompt includes, and the warnings
// of every agent's adapter for every profile.
func (l *linter) upstream() {
	m := l.m
	settings, err := resolve.LoadSettings(m.fsys, m.home, m.project, l.agents)
	if err != nil {
		l.add("error", m.home, err.Error())
		return
	}
	l.settings = settings
	for _, is := range settings.Issues {
		l.add("error", is.File+"#"+is.Pointer, is.Message)
	}
	if len(settings.Issues) > 0 {
		return
	}
	sources, err := resolve.MaterializeSources(m.fsys, m.home, settings.Settings.ProfileSources)
	if err != nil {
		l.add("error", m.home, err.Error())
		return
	}
	layers, issues := resolve.LoadProfiles(m.fsys, sources, l.agents)
	l.layers = layers
	for _, is := range issues {
		l.add("error", is.Path(), is.Message)
	}
	var ids []string
	for _, ly := range layers {
		if !slices.Contains(ids, ly.ID) {
			ids = append(ids, ly.ID)
		}
	}
	for _, id := range ids {
		res := resolve.ResolveProfile(layers, id, m.project)
		for _, is := range res.Issues {
			l.add("error", is.Path(), is.Message)
		}
		if len(res.Issues) > 0 || res.Profile == nil || res.Profile.Template != nil && *res.Profile.Template {
			continue
		}
		l.profileWarnings(id)
	}
}

// profileWarnings runs the profile with every agent up to its launch and
// reports the prompt-include diagnostics and the adapter's warnings.
func (l *linter) profileWarnings(id string) {
	m := l.m
	for _, agent := range l.agents.IDs() {
		res, err := resolve.Load(m.fsys, resolve.Options{Home: m.home, Project: m.project, ProfileID: id, AgentID: agent, Agents: l.agents})
		if err != nil {
			continue // reported by the checks above
		}
		if agent == l.defaultAgent() {
			_, diags := res.AppendSystemPrompts(m.fsys, agent)
			for _, d := range diags {
				l.add(d.Severity, d.Path, d.Message)
			}
		}
		idle := sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) { return writeback.Exit{Exited: true}, nil })
		r := sim.Execute(context.Background(), m.scratch(), sim.Spec{Home: m.home, Project: m.project, Profile: id, Agent: agent}, idle, m.opts)
		at := "/profiles/" + id + " (" + agent + ")"
		for _, w := range r.Warnings {
			l.found = append(l.found, finding{"warning", at, w})
		}
		if r.Err != nil && !r.Launched {
			// A profile made for the default agent may well not run with
			// another: that is worth knowing, not an error of the profile.
			severity := "warning"
			if agent == l.defaultAgent() {
				severity = "error"
			}
			l.found = append(l.found, finding{severity, at, m.name(r.Err.Error())})
		}
	}
}

// defaultAgent is the agent a run without --agent uses.
func (l *linter) defaultAgent() string {
	if l.settings != nil && l.settings.Settings.DefaultAgent != "" {
		return l.settings.Settings.DefaultAgent
	}
	return l.agents.Default()
}

// unknownKeys reports the keys of settings and profile files that the
// schemas do not know.
func (l *linter) unknownKeys() {
	settingsSchema, profileSchema := l.agents.Schemas()
	files := []string{resolve.UserSettingsPath(l.m.home), path.Join(l.m.project, ".outfitter", "settings.yml"), path.Join(l.m.project, ".outfitter", "local", "settings.yml")}
	if l.settings != nil {
		for _, f := range l.settings.Paths() {
			if !slices.Contains(files, f) {
				files = append(files, f) // remote settings
			}
		}
	}
	for _, f := range files {
		l.checkKeys(f, settingsSchema)
	}
	seen := map[string]bool{}
	for _, ly := range l.layers {
		if !seen[ly.ProfilePath] {
			seen[ly.ProfilePath] = true
			l.checkKeys(ly.ProfilePath, profileSchema)
		}
	}
	for _, f := range l.strayProfiles() {
		l.checkKeys(f, profileSchema)
	}
}

func (l *linter) checkKeys(file string, schemaJSON []byte) {
	data, err := vfs.ReadFile(l.m.fsys, file)
	if err != nil {
		return
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return // a malformed file is reported by the checks above
	}
	var schema map[string]any
	if json.Unmarshal(schemaJSON, &schema) != nil {
		return
	}
	defs, _ := schema["$defs"].(map[string]any)
	walkKeys(doc.Content[0], schema, defs, "", func(n *yaml.Node, ptr string, known []string) {
		msg := fmt.Sprintf("unknown key %q at %s, which a run ignores", n.Value, ptr)
		if s := suggest(n.Value, known); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		l.add("warning", fmt.Sprintf("%s:%d", file, n.Line), msg)
	})
}

// walkKeys visits the mapping keys of node that schema does not list, with
// the JSON pointer of the key and the keys the schema knows there.
func walkKeys(node *yaml.Node, schema, defs map[string]any, ptr string, unknown func(*yaml.Node, string, []string)) {
	schema = deref(schema, defs)
	switch node.Kind {
	case yaml.MappingNode:
		props, _ := schema["properties"].(map[string]any)
		extra, _ := schema["additionalProperties"].(map[string]any)
		// A mapping's content is key and value pairs: i+1 <= len (a
		// mutant) is equivalent.
		//mutants:equivalent CONDITIONALS_BOUNDARY
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			kp := ptr + "/" + k.Value
			if sub, ok := lookupProp(props, k.Value); ok {
				walkKeys(v, sub, defs, kp, unknown)
				continue
			}
			if extra != nil {
				walkKeys(v, extra, defs, kp, unknown)
				continue
			}
			if len(props) > 0 {
				unknown(k, kp, slices.Sorted(maps.Keys(props)))
			}
		}
	case yaml.SequenceNode:
		items, _ := schema["items"].(map[string]any)
		if items == nil {
			return
		}
		for i, n := range node.Content {
			walkKeys(n, items, defs, fmt.Sprintf("%s/%d", ptr, i), unknown)
		}
	}
}

// deref merges a schema with the definition its $ref names.
func deref(schema, defs map[string]any) map[string]any {
	ref, _ := schema["$ref"].(string)
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return schema
	}
	target, _ := defs[name].(map[string]any)
	target = deref(target, defs)
	out := map[string]any{}
	for k, v := range target {
		out[k] = v
	}
	props := map[string]any{}
	for _, src := range []map[string]any{target, schema} {
		if p, ok := src["properties"].(map[string]any); ok {
			for k, v := range p {
				props[k] = v
			}
		}
	}
	for k, v := range schema {
		out[k] = v
	}
	delete(out, "$ref")
	out["properties"] = props // empty when neither lists one: walkKeys then reports no key
	return out
}

// lookupProp finds a property by its name or by its camelCase twin
// (sessionDirectory for session_directory), which the resolver accepts
// too.
func lookupProp(props map[string]any, key string) (map[string]any, bool) {
	if p, ok := props[key].(map[string]any); ok {
		return p, true
	}
	for name, p := range props {
		if camel(name) == key {
			sub, ok := p.(map[string]any)
			return sub, ok
		}
	}
	return nil, false
}

func camel(snake string) string {
	parts := strings.Split(snake, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// profileDirs are the conventional folders of profiles.
func (l *linter) profileDirs() []string {
	return []string{
		path.Join(l.m.home, ".outfitter", "profiles"),
		path.Join(l.m.project, ".outfitter", "profiles"),
		path.Join(l.m.project, ".outfitter", "local", "profiles"),
	}
}

// strayProfiles returns the profile files in the conventional folders
// that no configured source loaded.
func (l *linter) strayProfiles() []string {
	loaded := map[string]bool{}
	for _, ly := range l.layers {
		loaded[ly.ProfilePath] = true
	}
	var out []string
	for _, dir := range l.profileDirs() {
		entries, err := vfs.ReadDir(l.m.fsys, dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			var p string
			switch {
			case e.IsDir():
				p = path.Join(dir, e.Name(), "profile.yml")
				if _, err := vfs.Stat(l.m.fsys, p); err != nil {
					continue
				}
			case strings.HasSuffix(e.Name(), ".yml") || strings.HasSuffix(e.Name(), ".yaml"):
				p = path.Join(dir, e.Name())
			default:
				continue
			}
			if !loaded[p] {
				out = append(out, p)
			}
		}
	}
	return out
}

// unreachable reports profile files that no configured source loads.
func (l *linter) unreachable() {
	if l.settings == nil || len(l.settings.Issues) > 0 {
		return
	}
	for _, p := range l.strayProfiles() {
		l.add("warning", p, "no configured profile source loads this profile (profile_sources does not list its folder, or only/except leave it out): no run can reach it")
	}
}

// danglingLinks reports symbolic links that lead nowhere: in the whole
// fixture, or below the Outfitter and agent folders of a real home and
// the project's .outfitter.
func (l *linter) danglingLinks() {
	roots := []string{report.FixtureRoot}
	if l.m.fixture == nil {
		roots = []string{path.Join(l.m.home, ".outfitter"), path.Join(l.m.home, ".pi"), path.Join(l.m.home, ".claude"), path.Join(l.m.project, ".outfitter")}
	}
	for _, root := range roots {
		_ = fs.WalkDir(vfs.Sub(l.m.fsys, root), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			full := path.Join(root, p)
			if _, err := vfs.Stat(l.m.fsys, full); errors.Is(err, fs.ErrNotExist) {
				target, _ := vfs.ReadLink(l.m.fsys, full)
				l.add("warning", full, "dangling symbolic link to "+l.m.name(target))
			}
			return nil
		})
	}
}
