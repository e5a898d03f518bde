package composite

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// SkillProblem is one error of catalog skill resolution: where (a SKILL.md
// or "controls.skills/<id>") and upstream's message.
type SkillProblem struct {
	// Path is the SKILL.md or the control entry the problem is about.
	Path string
	// Message is upstream's message.
	Message string
}

// SkillsError reports the catalog skill entries that cannot be resolved,
// every problem at once, in the order upstream finds them.
type SkillsError struct {
	// Problems are the problems in control order.
	Problems []SkillProblem
}

// Error returns upstream's message: "Cannot resolve profile skills: "
// and each problem's path and message, joined with "; ".
func (e *SkillsError) Error() string {
	var b strings.Builder
	b.WriteString("Cannot resolve profile skills: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Path + " " + p.Message)
	}
	return b.String()
}

// resolvedSkills is the outcome of catalog skill resolution.
type resolvedSkills struct {
	profile  *resolve.Profile
	warnings []string
}

// skillResolver is one resolution of a profile's skills in progress
// (ProfileSkillResolution.ts, SkillResolution.ts).
type skillResolver struct {
	fsys    FS
	res     *resolve.Result
	root    string
	catalog *skillCatalog
	// cache holds, per skill id, the reference set it was first selected
	// with and its generated directory ("" when it has none).
	cache map[string]materialized
}

type materialized struct {
	refsKey, dir string
}

// resolveSkills resolves the skills controls of the profile, the generic
// ones, then those of the agents' blocks in the agents' order, as
// upstream's run does before any adapter sees them: a catalog id (or an
// {id, references} entry) becomes the generated skill
// <root>/outfitter/skills/<id>, written there at once (one per id, a
// second selection with another reference set is an error); another valid
// id passes through with a warning; anything else passes through. Then
// the ids the profile selects that shadow a skill of a later root are
// warned about. Errors fail with a [*SkillsError] once every entry was
// seen; an unreadable catalog root fails first with a
// [*SkillsDirectoryError]. Nothing is written outside root.
func resolveSkills(fsys FS, res *resolve.Result, root string, agents []string) (*resolvedSkills, error) {
	out := &resolvedSkills{}
	if res.Profile == nil {
		out.profile = &resolve.Profile{Controls: resolve.Controls{Object: resolve.NewObject()}}
		return out, nil
	}
	catalog, err := discoverSkills(fsys, res)
	if err != nil {
		return nil, err
	}
	s := &skillResolver{fsys: fsys, res: res, root: root, catalog: catalog} // cache made with the first skill
	p := *res.Profile
	scopes := append([]string{""}, agents...)
	if selectsSkills(&p.Controls, scopes) {
		p.Controls = cloneControls(res.Profile.Controls)
	} else if p.Controls.Object == nil {
		// Nothing below changes the controls: they stay shared.
		p.Controls.Object = resolve.NewObject()
	}
	out.profile = &p
	var problems []skillProblem
	for _, scope := range scopes {
		c := &p.Controls
		if scope != "" {
			c = c.Agent(scope)
		}
		if c == nil || c.Skills == nil {
			continue
		}
		var sources []string
		for _, entry := range c.Skills {
			found, err := s.resolveEntry(entry, scope, &problems)
			if err != nil {
				return nil, err
			}
			sources = append(sources, found...)
		}
		c.Skills = make([]resolve.Skill, len(sources))
		list := make([]any, len(sources))
		for i, src := range sources {
			c.Skills[i] = resolve.Skill{Value: src}
			list[i] = src
		}
		if c.Object != nil && c.Object.Has("skills") {
			c.Object.Set("skills", list)
		}
	}
	problems = append(problems, s.shadowing(scopes)...)
	var errs []SkillProblem
	for _, pr := range problems {
		if pr.warning {
			out.warnings = append(out.warnings, pr.message)
		} else {
			errs = append(errs, SkillProblem{Path: pr.path, Message: pr.message})
		}
	}
	if len(errs) > 0 {
		return nil, &SkillsError{Problems: errs}
	}
	return out, nil
}

// resolveEntry resolves one entry of the scope's skills (resolveSkillEntry)
// to its sources.
func (s *skillResolver) resolveEntry(entry resolve.Skill, scope string, problems *[]skillProblem) ([]string, error) {
	id, object := entry.Value, entry.Mapping
	if object {
		id = entry.ID
	}
	skill, ok := s.catalog.entries[id]
	if !ok {
		switch {
		case object:
			*problems = append(*problems, skillProblem{path: "controls.skills/" + id, message: fmt.Sprintf("Skill ID '%s' does not resolve in any skills directory.", id)})
			return nil, nil
		case validSkillID(id):
			*problems = append(*problems, skillProblem{path: "controls.skills/" + id, message: fmt.Sprintf("Skill '%s' does not resolve in any skills directory; passing it through as a path source.", id), warning: true})
		}
		return []string{entry.Value}, nil
	}
	key := referencesKey(entry.References)
	if done, ok := s.cache[id]; ok {
		if done.refsKey != key {
			*problems = append(*problems, skillProblem{path: "controls.skills/" + id, message: fmt.Sprintf("Skill '%s' is selected with conflicting reference sets across control scopes.", id)})
			return nil, nil
		}
		return nonEmpty(done.dir), nil
	}
	addedRoot := ""
	if object {
		addedRoot = s.declaringRoot(id, scope)
	}
	dir, err := s.resolveCatalogSkill(skill, entry.References, addedRoot, problems)
	if err != nil {
		return nil, err
	}
	if s.cache == nil {
		s.cache = map[string]materialized{}
	}
	s.cache[id] = materialized{refsKey: key, dir: dir}
	return nonEmpty(dir), nil
}

// resolveCatalogSkill validates a catalog skill's SKILL.md, plans its
// copies and, when nothing is wrong with it, writes the generated skill
// and returns its directory.
func (s *skillResolver) resolveCatalogSkill(skill *catalogSkill, added []resolve.Reference, addedRoot string, problems *[]skillProblem) (string, error) {
	if problem, err := s.syncedSkillLinks(skill); problem != nil || err != nil {
		if problem != nil {
			*problems = append(*problems, *problem)
		}
		return "", err
	}
	doc, problem := readSkillDocument(s.fsys, skill.skillPath)
	if problem != nil {
		*problems = append(*problems, *problem)
		return "", nil
	}
	if doc.name != skill.id {
		*problems = append(*problems, skillProblem{path: skill.skillPath, message: fmt.Sprintf("SKILL.md 'name' ('%s') must match its directory name ('%s').", doc.name, skill.id)})
		return "", nil
	}
	var own []skillProblem
	plan, err := s.planMaterializations(skill, doc, added, addedRoot, &own)
	*problems = append(*problems, own...)
	if err != nil || len(own) > 0 {
		return "", err
	}
	gen := vfs.Join(s.root, "outfitter", "skills", skill.id)
	before := len(*problems)
	if err := s.materialize(skill, gen, plan, problems); err != nil {
		return "", err
	}
	if len(*problems) > before {
		return "", nil
	}
	return gen, nil
}

// syncedSkillLinks applies the rule of synced content to a skill that
// lies in a checkout ([resolve.SyncedCheckout]): the skill directory and
// every link it ships must stay in the checkout, links resolved, or the
// skill is refused with a problem before anything of it is read or
// copied (a link is copied with its target made absolute, so a link out
// would put the file it leads to into the composite). A skill of the
// user's own is not checked.
func (s *skillResolver) syncedSkillLinks(skill *catalogSkill) (*skillProblem, error) {
	checkout := resolve.SyncedCheckout(s.res.Home, skill.dir)
	if checkout == "" {
		return nil, nil
	}
	refuse := func(err error) (*skillProblem, error) {
		if _, ok := errors.AsType[*resolve.EscapeError](err); ok {
			return &skillProblem{path: skill.skillPath, message: fmt.Sprintf("Skill '%s' is not copied: %s.", skill.id, err)}, nil
		}
		return nil, err
	}
	if err := confineTree(s.fsys, skill.dir, checkout); err != nil {
		return refuse(err)
	}
	return nil, nil
}

// confineTree checks by the rule of synced content ([resolve.Confine])
// that dir and every link below it stay in checkout: nil when they do,
// else the [*resolve.EscapeError] of the first that leaves it, or a
// [*WriteError] for a directory that cannot be listed.
func confineTree(fsys vfs.FS, dir, checkout string) error {
	if err := resolve.Confine(fsys, dir, checkout); err != nil {
		return err
	}
	list, err := vfs.ReadDir(fsys, dir)
	if err != nil {
		return &WriteError{Step: "check skill", Path: dir, Err: err}
	}
	for _, e := range list {
		p := vfs.Join(dir, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			if err := resolve.Confine(fsys, p, checkout); err != nil {
				return err
			}
		case e.IsDir():
			if err := confineTree(fsys, p, checkout); err != nil {
				return err
			}
		}
	}
	return nil
}

// declaringRoot is the root the references an {id, references} entry adds
// resolve from: that of the repository of the highest layer declaring an
// object entry of that id in the same scope, or "" when none does.
func (s *skillResolver) declaringRoot(id, scope string) string {
	for i := len(s.res.Layers) - 1; i >= 0; i-- {
		l := s.res.Layers[i]
		if l.Profile == nil {
			continue
		}
		c := &l.Profile.Controls
		if scope != "" {
			if c = c.Agent(scope); c == nil {
				continue
			}
		}
		if slices.ContainsFunc(c.Skills, func(e resolve.Skill) bool { return e.Mapping && e.ID == id }) {
			return resolve.IncludeRoot(l, s.res.Home)
		}
	}
	return ""
}

// shadowing warns about each shadowed skill whose id the profile's
// controls select, in the catalog's order.
func (s *skillResolver) shadowing(scopes []string) []skillProblem {
	selected := map[string]bool{}
	controls := &s.res.Profile.Controls
	for _, scope := range scopes {
		c := controls
		if scope != "" {
			c = controls.Agent(scope)
		}
		if c == nil {
			continue
		}
		for _, e := range c.Skills {
			if e.Mapping {
				selected[e.ID] = true
			} else {
				selected[e.Value] = true
			}
		}
	}
	var out []skillProblem
	for _, sh := range s.catalog.shadowed {
		if selected[sh.selected.id] {
			out = append(out, skillProblem{path: sh.dir, warning: true, message: fmt.Sprintf(
				"Skill ID '%s' is supplied by %s ('%s') and shadows '%s'.", sh.selected.id, sh.selected.origin, sh.selected.dir, sh.dir)})
		}
	}
	return out
}

// referencesKey is the JSON of a selection's references, as upstream
// compares reference sets.
func referencesKey(refs []resolve.Reference) string {
	list := make([]map[string]string, len(refs))
	for i, r := range refs {
		key := "file"
		if r.Repo {
			key = "repo_file"
		}
		list[i] = map[string]string{key: r.Path}
	}
	data, _ := json.Marshal(list) // maps of strings always encode
	return string(data)
}

// selectsSkills reports whether the controls of a scope set skills, which
// resolveSkills then rewrites in a copy of the controls.
func selectsSkills(c *resolve.Controls, scopes []string) bool {
	for _, scope := range scopes {
		sc := c
		if scope != "" {
			sc = c.Agent(scope)
		}
		if sc != nil && sc.Skills != nil {
			return true
		}
	}
	return false
}

// cloneControls deep-copies controls so skill rewriting never touches the
// resolver's result.
func cloneControls(c resolve.Controls) resolve.Controls {
	out := c
	out.Object = c.Object.Clone()
	if out.Object == nil {
		out.Object = resolve.NewObject()
	}
	out.Skills = slices.Clone(c.Skills)
	if c.Agents != nil {
		out.Agents = make([]resolve.AgentControls, len(c.Agents))
		for i, block := range c.Agents {
			b := resolve.AgentControls{Agent: block.Agent, Controls: cloneControls(block.Controls)}
			if o, ok := out.Object.Get(block.Agent); ok {
				if o, ok := o.(*resolve.Object); ok {
					b.Object = o
				}
			}
			out.Agents[i] = b
		}
	}
	return out
}
