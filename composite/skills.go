package composite

import (
	"fmt"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// catalogEntry is a skill directory found in a catalog root.
type catalogEntry struct {
	dir, origin string
}

// skillCatalog maps skill ids to their directories, first root winning.
func skillCatalog(fsys vfs.FS, res *resolve.Result) map[string]catalogEntry {
	type root struct{ dir, origin string }
	var roots []root
	if res.Project != "" {
		roots = append(roots,
			root{path.Join(res.Project, ".outfitter", "local", "skills"), "project-local skills"},
			root{path.Join(res.Project, ".outfitter", "skills"), "project skills"})
	}
	for i := len(res.Layers) - 1; i >= 0; i-- {
		if rr := res.Layers[i].ResourceRoot; rr != "" {
			roots = append(roots, root{path.Join(rr, "skills"), fmt.Sprintf("profile '%s' skills", path.Base(rr))})
		}
	}
	for i := len(res.Sources) - 1; i >= 0; i-- {
		s := res.Sources[i]
		if s.Dir == "" {
			continue
		}
		if _, err := vfs.Stat(fsys, s.Dir); err != nil {
			continue
		}
		cat := s.Dir
		if path.Base(cat) == "profiles" {
			cat = path.Dir(cat)
		}
		roots = append(roots, root{path.Join(cat, "skills"), fmt.Sprintf("source '%s'", s.Dir)})
	}
	out := map[string]catalogEntry{}
	for _, r := range roots {
		list, err := vfs.ReadDir(fsys, r.dir)
		if err != nil {
			continue
		}
		for _, e := range list {
			id := e.Name()
			if !validSkillID(id) {
				continue
			}
			if _, taken := out[id]; taken {
				continue
			}
			dir := path.Join(r.dir, id)
			if fi, err := vfs.Stat(fsys, path.Join(dir, "SKILL.md")); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			out[id] = catalogEntry{dir: dir, origin: r.origin}
		}
	}
	return out
}

// SkillsError reports catalog skill entries that cannot be resolved.
type SkillsError struct {
	// Problems are "<path> <message>" items in control order.
	Problems []string
}

// Error returns upstream's message.
func (e *SkillsError) Error() string {
	return "Cannot resolve profile skills: " + strings.Join(e.Problems, "; ")
}

// resolvedSkills is the outcome of catalog skill resolution.
type resolvedSkills struct {
	profile  *resolve.Profile
	copies   map[string]string // id -> catalog directory
	order    []string
	warnings []string
}

// resolveSkills rewrites the skills controls of the profile, the generic
// ones and those of the agents' blocks in the agents' order: catalog ids
// become <root>/outfitter/skills/<id>, other valid ids pass through with a
// warning (§1.8 step 5).
func resolveSkills(fsys vfs.FS, res *resolve.Result, root string, agents []string) (*resolvedSkills, error) {
	out := &resolvedSkills{copies: map[string]string{}}
	if res.Profile == nil {
		out.profile = &resolve.Profile{Controls: resolve.Controls{Object: resolve.NewObject()}}
		return out, nil
	}
	p := *res.Profile
	p.Controls = cloneControls(res.Profile.Controls)
	out.profile = &p
	var catalog map[string]catalogEntry // looked up on the first skill
	var problems []string
	warned := map[string]bool{}
	// rewrite rewrites the skills of c, the generic controls or the block
	// of agent.
	rewrite := func(c *resolve.Controls, agent string) {
		if c == nil || c.Skills == nil {
			return
		}
		if catalog == nil && len(c.Skills) > 0 {
			catalog = skillCatalog(fsys, res)
		}
		list := make([]any, 0, len(c.Skills))
		for i, s := range c.Skills {
			id := s.ID
			if s.Value != "" {
				id = strings.TrimSpace(s.Value)
			}
			if e, ok := catalog[id]; ok && (s.Value == "" || validSkillID(id)) {
				if _, done := out.copies[id]; !done {
					out.copies[id] = e.dir
					out.order = append(out.order, id)
				}
				target := path.Join(root, "outfitter", "skills", id)
				c.Skills[i] = resolve.Skill{Value: target}
				list = append(list, target)
				continue
			}
			switch {
			case s.Value == "":
				scope := "controls"
				if agent != "" {
					scope += "." + agent
				}
				problems = append(problems, fmt.Sprintf("%s.skills/%s Skill ID '%s' does not resolve in any skills directory.", scope, s.ID, s.ID))
			case validSkillID(id):
				if !warned[id] {
					warned[id] = true
					out.warnings = append(out.warnings, fmt.Sprintf("Skill '%s' does not resolve in any skills directory; passing it through as a path source.", id))
				}
			}
			if s.Value != "" {
				list = append(list, s.Value)
			} else {
				list = append(list, s.ID)
			}
		}
		if c.Object != nil && c.Object.Has("skills") {
			orig, _ := c.Object.Get("skills")
			if changed(orig, list) {
				c.Object.Set("skills", list)
			}
		}
	}
	c := &p.Controls
	rewrite(c, "")
	for _, agent := range agents {
		rewrite(c.Agent(agent), agent)
	}
	if len(problems) > 0 {
		return nil, &SkillsError{Problems: problems}
	}
	return out, nil
}

// changed reports whether a resolved skills list differs from the original.
func changed(orig any, list []any) bool {
	o, ok := orig.([]any)
	if !ok || len(o) != len(list) {
		return true
	}
	for i := range o {
		if s, ok := o[i].(string); !ok || s != list[i] {
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
	out.Skills = append([]resolve.Skill(nil), c.Skills...)
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

// copySkillDir copies a catalog skill directory into the composite.
func copySkillDir(fsys FS, src, dst string) error {
	if err := vfs.MkdirAll(fsys, dst, 0o755); err != nil {
		return err
	}
	list, err := vfs.ReadDir(fsys, src)
	if err != nil {
		return err
	}
	for _, e := range list {
		s, d := path.Join(src, e.Name()), path.Join(dst, e.Name())
		fi, err := vfs.Stat(fsys, s)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			if err := copySkillDir(fsys, s, d); err != nil {
				return err
			}
			continue
		}
		data, err := vfs.ReadFile(fsys, s)
		if err != nil {
			return err
		}
		if err := vfs.WriteFile(fsys, d, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
