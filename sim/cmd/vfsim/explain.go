package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
	"github.com/outfitter-go/vfsim/writeback"
)

func explainCommand() *command {
	return &command{
		name:     "explain",
		synopsis: "[--fixture DIR|FILE.txtar | --home DIR --project DIR] [--agent ID] [--profile ID] CONTROL|PATH",
		summary:  "say where a control's value or a composite path comes from",
		about: `
Explain resolves and assembles a composite profile, in memory, and says
why one part of it is what it is.

For a CONTROL (model, environment.FOO, args, pi.model, ...) it names the
settings file or flag that chose the agent and the profile, the
inheritance stack, every profile definition that sets the control in merge
order (which settings source it was loaded from and its inheritance step),
which one wins, and what the agent gets when its own block sets the
control too.

For a PATH of the composite (settings.json, sessions/, outfitter/profile.json)
it names the entry's kind, its state strategy and the definition that set
it, the durable source a state path links to and the candidates that lost,
or the inputs a generated file was made from.

The machine is a fixture (--fixture, paths shown as <home>, <project>) or a
real home and project seen through a copy-on-write overlay (--home and
--project, default $HOME and the working directory); nothing is written to
disk.`,
		flags: func(f *flag.FlagSet) func(*cli, []string) (int, error) {
			fixture := f.String("fixture", "", "explain on the fixture at `PATH` (a directory or a .txtar archive)")
			home := f.String("home", "", "the home `DIR` of a real machine (default $HOME)")
			project := f.String("project", "", "the project `DIR` of a real machine (default the working directory)")
			agent := f.String("agent", "", "the agent `ID`, one of "+agentList()+" (default from the settings)")
			profile := f.String("profile", "", "the profile `ID` (default from the settings)")
			return func(c *cli, args []string) (int, error) {
				if len(args) != 1 {
					return 0, usageError{errors.New("want one CONTROL or PATH to explain")}
				}
				if *fixture != "" && (*home != "" || *project != "") {
					return 0, usageError{errors.New("give --fixture or --home and --project, not both")}
				}
				m, err := newMachine(*fixture, *home, *project)
				if err != nil {
					return 0, err
				}
				return explain(c.stdout, m, sim.Spec{Home: m.home, Project: m.project, Agent: *agent, Profile: *profile}, args[0])
			}
		},
	}
}

// machine is what explain and lint work on: a fixture in memory, or a real
// home and project under a copy-on-write overlay.
type machine struct {
	fsys          sim.FS
	home, project string
	opts          sim.Options
	name          namer
	fixture       *fixtures.Fixture // nil on a real machine
	// scratch returns a throwaway copy of the machine for a run whose
	// writes must not be seen by what follows.
	scratch func() sim.FS
}

func newMachine(fixture, home, project string) (*machine, error) {
	if fixture != "" {
		fx, err := fixtures.Load(fixture)
		if err != nil {
			return nil, err
		}
		return fixtureMachine(fx)
	}
	h, err := hostOf(home, project)
	if err != nil {
		return nil, err
	}
	overlay := func() sim.FS { return overlayfs.New(osfs.New(), overlayfs.Options{Umask: 0o022}) }
	return &machine{
		fsys: overlay(), scratch: overlay,
		home: h.home, project: h.project,
		opts: h.options(),
		name: prefixNamer(map[string]string{h.home: "<home>", h.project: "<project>"}),
	}, nil
}

func fixtureMachine(fx *fixtures.Fixture) (*machine, error) {
	mem := fx.Clone()
	if err := mem.MkdirAll("/tmp", 0o777|fs.ModeSticky); err != nil {
		return nil, err
	}
	return &machine{fsys: mem, home: report.HomeRoot, project: report.ProjectRoot, name: report.Tokens{}.Tokenize, fixture: fx,
		scratch: func() sim.FS { return mem.Clone() }}, nil
}

// assemble runs spec up to the launch with an agent that does nothing.
func (m *machine) assemble(spec sim.Spec) *sim.Result {
	idle := sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) {
		return writeback.Exit{Exited: true}, nil
	})
	// What explain names (link targets at launch, the inputs of generated
	// files, settings and profile files, durable sources) lies outside the
	// composite: its names need no composite root.
	return sim.Execute(context.Background(), m.fsys, spec, idle, m.opts)
}

func explain(w io.Writer, m *machine, spec sim.Spec, subject string) (int, error) {
	r := m.assemble(spec)
	if r.Resolution == nil || r.Composite == nil {
		return 0, fmt.Errorf("the run fails before its composite exists: %v", r.Err)
	}
	pv := provenance{res: r.Resolution, plan: r.Composite, name: m.name}
	rel := strings.TrimSuffix(strings.TrimPrefix(subject, "./"), "/")
	if _, ok := r.AtLaunch[rel]; ok {
		explainPath(w, m, r, pv, rel)
		return 0, nil
	}
	if sp, ok := pv.statePath(rel); ok {
		explainState(w, m, r, pv, sp, nil)
		return 0, nil
	}
	return explainControl(w, m, spec, r, pv, subject)
}

// header names what is explained and the run it belongs to.
func header(w io.Writer, what string, r *sim.Result) {
	fmt.Fprintf(w, "%s (agent %s, profile %s)\n", what, r.AgentID, r.ProfileID)
}

func explainPath(w io.Writer, m *machine, r *sim.Result, pv provenance, rel string) {
	e := report.ProjectEntry(r.AtLaunch[rel], report.Tokens{Composite: r.Root})
	name := rel
	if e.Type == vfs.TypeSymlink {
		name += " -> " + m.name(r.AtLaunch[rel].Target)
	}
	if sp, ok := pv.statePath(rel); ok {
		explainState(w, m, r, pv, sp, &e)
		return
	}
	header(w, name, r)
	fmt.Fprintf(w, "\nkind: %s\n", kindOf(e))
	if f, ok := pv.file(rel); ok {
		how := "generated"
		if f.Strategy != "" && f.Strategy != composite.FileGenerate {
			how += " (" + string(f.Strategy) + ")"
		}
		fmt.Fprintf(w, "%s by Outfitter from %d input(s):\n", how, len(f.SourceInputs))
		for _, in := range f.SourceInputs {
			fmt.Fprintf(w, "  %s%s\n", m.name(in), pv.inputOrigin(in))
		}
		return
	}
	fmt.Fprintf(w, "not a state path and not a generated file: Outfitter created it while assembling the composite\n")
}

// inputOrigin says which profile definition an input file belongs to.
func (pv provenance) inputOrigin(in string) string {
	if l, ok := pv.layerOf(in); ok {
		return "  (" + pv.describeLayer(l) + ")"
	}
	if !strings.HasPrefix(in, "/") {
		return "  (Outfitter's bundled files)"
	}
	return ""
}

func explainState(w io.Writer, m *machine, r *sim.Result, pv provenance, sp composite.StatePath, e *report.Entry) {
	name := sp.RelativePath
	if e != nil && e.Type == vfs.TypeSymlink {
		name += " -> " + m.name(r.AtLaunch[sp.Name()].Target)
	}
	header(w, name, r)
	if e != nil {
		fmt.Fprintf(w, "\nkind: %s\n", kindOf(*e))
	} else {
		fmt.Fprintf(w, "\nkind: not in the composite at launch\n")
	}
	fmt.Fprintf(w, "state strategy: %s", sp.Strategy)
	if l, ok := pv.strategySetter(sp.RelativePath); ok {
		fmt.Fprintf(w, ", set by state_persistence in %s (%s)\n", m.name(l.ProfilePath), pv.describeLayer(l))
	} else {
		fmt.Fprintf(w, ", the %s adapter's default (no profile definition sets it)\n", r.AgentID)
	}
	if sp.SourcePath == "" {
		fmt.Fprintf(w, "durable source: none (a %s path is not linked to one)\n", sp.Strategy)
		return
	}
	fmt.Fprintf(w, "durable source: %s (%s)\n", m.name(sp.SourcePath), pv.describeSourcePath(sp))
	if sp.Origin == composite.SourceAdapter {
		fmt.Fprintf(w, "the %s adapter names this source itself; no other was considered\n", r.AgentID)
		return
	}
	fmt.Fprintf(w, "\ncandidates, in order of preference (the first that exists wins; the native one is the fallback):\n")
	cands := pv.plan.Candidates(sp.RelativePath)
	for i, c := range cands {
		mark, state := "  ", "absent"
		if _, err := vfs.Lstat(m.fsys, c); err == nil {
			state = "exists"
		}
		switch {
		case c == sp.SourcePath:
			mark, state = "✓ ", state+", chosen"
		case i == len(cands)-1:
			state += ", native fallback, lost"
		case state == "exists":
			state += ", lost to a higher one"
		}
		origin := ""
		if l, ok := pv.layerOf(c); ok {
			origin = ", " + pv.describeLayer(l)
		}
		fmt.Fprintf(w, "  %s%s  (%s%s)\n", mark, m.name(c), state, origin)
	}
}

// explainControl explains a control: key is a dotted path into controls
// ("model", "environment.FOO", "pi.model").
func explainControl(w io.Writer, m *machine, spec sim.Spec, r *sim.Result, pv provenance, key string) (int, error) {
	key = strings.TrimPrefix(key, "controls.")
	parts := strings.Split(key, ".")
	agents := composite.DefaultRegistry().IDs()
	generic := parts
	if len(parts) > 1 && slices.Contains(agents, parts[0]) {
		generic = parts[1:]
	}
	block := append([]string{r.AgentID}, generic...)
	header(w, "controls."+strings.Join(generic, "."), r)
	res := r.Resolution
	gv, gok := lookupPath(res.Profile.Controls.Object, generic)
	bv, bok := lookupPath(res.Profile.Controls.Object, block)
	fmt.Fprintln(w)
	switch {
	case bok:
		fmt.Fprintf(w, "the agent gets %s from controls.%s: %s\n", show(bv), strings.Join(block, "."), blockRule(generic[0]))
		if gok {
			fmt.Fprintf(w, "the generic controls.%s is %s\n", strings.Join(generic, "."), show(gv))
		}
	case gok:
		fmt.Fprintf(w, "the agent gets %s from controls.%s (the %s block does not set it)\n", show(gv), strings.Join(generic, "."), r.AgentID)
	default:
		fmt.Fprintf(w, "no profile definition of the stack sets controls.%s or controls.%s\n", strings.Join(generic, "."), strings.Join(block, "."))
		if s := suggest(generic[0], controlKeys(res)); s != "" {
			fmt.Fprintf(w, "did you mean %s?\n", s)
		}
	}
	explainChoice(w, m, spec, r)
	fmt.Fprintf(w, "\ndefinitions that set it, in merge order (%s):\n", mergeRule(generic[0]))
	type def struct {
		key   []string
		value any
		layer resolve.Layer
	}
	var defs []def
	last := map[string]int{} // the last definition of each key
	for _, l := range res.Layers {
		if l.Profile == nil {
			continue
		}
		for _, k := range [][]string{generic, block} {
			if v, ok := lookupPath(l.Profile.Controls.Object, k); ok {
				last[strings.Join(k, ".")] = len(defs)
				defs = append(defs, def{k, v, l})
			}
		}
	}
	if len(defs) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	for i, d := range defs {
		k := strings.Join(d.key, ".")
		mark := ""
		if _, isList := d.value.([]any); last[k] == i && !isList {
			mark = "  <- the profile's value"
		}
		fmt.Fprintf(w, "  controls.%s = %s%s\n      in %s (%s, %s)\n", k, show(d.value), mark, m.name(d.layer.ProfilePath), pv.describeLayer(d.layer), step(res, d.layer.ID))
	}
	return 0, nil
}

// explainChoice says how the run chose its agent and profile and what the
// inheritance stack is.
func explainChoice(w io.Writer, m *machine, spec sim.Spec, r *sim.Result) {
	res := r.Resolution
	loaded, _ := resolve.LoadSettings(m.fsys, m.home, m.project, composite.DefaultRegistry().Agents())
	from := func(flagValue, flagName, key string) string {
		if flagValue != "" {
			return flagName
		}
		if loaded != nil {
			for _, f := range slices.Backward(loaded.Files) {
				if slices.Contains(f.Keys, key) {
					return key + " in " + m.name(f.Path)
				}
			}
		}
		return "the default (no settings file sets " + key + ")"
	}
	fmt.Fprintf(w, "\nhow the run chose:\n")
	fmt.Fprintf(w, "  agent %s: %s\n", r.AgentID, from(spec.Agent, "--agent", "default_agent"))
	fmt.Fprintf(w, "  profile %s: %s\n", r.ProfileID, from(spec.Profile, "--profile", "default_profile"))
	var ids []string
	for _, p := range res.Stack {
		ids = append(ids, p.ID)
	}
	fmt.Fprintf(w, "  inheritance, parents first: %s\n", strings.Join(ids, " -> "))
}

// step names the inheritance step of a profile id in the stack.
func step(res *resolve.Result, id string) string {
	for i, p := range res.Stack {
		if p.ID == id {
			return fmt.Sprintf("inheritance step %d of %d", i+1, len(res.Stack))
		}
	}
	return "not in the stack"
}

// lookupPath follows a dotted path into an object.
func lookupPath(o *resolve.Object, keys []string) (any, bool) {
	var v any = o
	for _, k := range keys {
		obj, ok := v.(*resolve.Object)
		if !ok || obj == nil {
			return nil, false
		}
		if v, ok = obj.Get(k); !ok {
			return nil, false
		}
	}
	return v, true
}

func show(v any) string { return string(resolve.Stringify(v, "")) }

// mergeRule says how same-key values of several definitions combine.
func mergeRule(control string) string {
	switch control {
	case "args":
		return "each definition's args are prepended to those below it"
	case "append_system_prompt", "appendSystemPrompt":
		return "each definition's list is prepended to those below it"
	case "extensions", "skills":
		return "the lists are joined, each resource once"
	case "environment", "deepwork":
		return "objects merge key by key, a later definition's value winning"
	}
	return "a later definition overrides an earlier one"
}

// blockRule says how an agent's block combines with the generic control.
func blockRule(control string) string {
	switch control {
	case "args", "append_system_prompt", "appendSystemPrompt":
		return "the agent's block replaces the generic list"
	case "environment":
		return "the agent's block is merged over the generic environment, its values winning"
	case "extensions", "skills":
		return "the agent's block comes first, then the generic list, each resource once"
	}
	return "the agent's block wins over the generic control"
}

// controlKeys lists the control keys set anywhere in the stack.
func controlKeys(res *resolve.Result) []string {
	var keys []string
	for _, l := range res.Layers {
		if l.Profile == nil || l.Profile.Controls.Object == nil {
			continue
		}
		for _, k := range l.Profile.Controls.Object.Keys() {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return append(keys, "model", "provider", "thinking", "session_directory", "prompt_template", "system_prompt", "args", "extensions", "skills", "append_system_prompt", "environment")
}
