package composite

import (
	"fmt"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// skillSections are the SKILL.md frontmatter keys whose entries are files
// materialized into the generated skill, each into the directory of its
// name, in upstream's order.
var skillSections = [...]string{"references", "scripts", "assets"}

// skillDocument is a parsed SKILL.md frontmatter (SkillDocument.ts).
type skillDocument struct {
	name string
	// sections holds the references, scripts and assets entries, in the
	// order of skillSections.
	sections [len(skillSections)][]resolve.Reference
}

// skillProblem is one diagnostic of skill resolution: an error, or a
// warning when warning is set.
type skillProblem struct {
	path, message string
	warning       bool
}

// readSkillDocument reads and parses a catalog skill's SKILL.md.
func readSkillDocument(fsys vfs.FS, skillPath string) (*skillDocument, *skillProblem) {
	data, err := resolve.ReadDocument(fsys, skillPath)
	if err != nil {
		return nil, &skillProblem{path: skillPath, message: "Could not read SKILL.md: " + jsstack.FSError(err, "open", skillPath)}
	}
	return parseSkillDocument(string(data), skillPath)
}

// parseSkillDocument parses SKILL.md content (parseSkillDocument): a YAML
// mapping between two --- lines whose name is a valid skill id and whose
// references, scripts and assets, when present, are lists of single
// file or repo_file entries.
func parseSkillDocument(content, skillPath string) (*skillDocument, *skillProblem) {
	problem := func(msg string) (*skillDocument, *skillProblem) {
		return nil, &skillProblem{path: skillPath, message: msg}
	}
	frontmatter, ok := extractFrontmatter(content)
	if !ok {
		return problem("SKILL.md must start with a `---` YAML frontmatter block.")
	}
	v, err := resolve.ParseYAML([]byte(frontmatter))
	if err != nil {
		return problem("SKILL.md frontmatter is not valid YAML: " + err.Error())
	}
	record, ok := v.(*resolve.Object)
	if !ok {
		return problem("SKILL.md frontmatter must be a YAML mapping.")
	}
	name, _ := record.Get("name")
	doc := &skillDocument{}
	if doc.name, ok = name.(string); !ok || !validSkillID(doc.name) {
		return problem(fmt.Sprintf("SKILL.md 'name' must use lowercase letters, numbers, and single hyphens (max %d characters).", resolve.MaxSkillIDLength))
	}
	for i, section := range skillSections {
		entries, present := record.Get(section)
		if !present {
			continue
		}
		refs, ok := referenceEntries(entries)
		if !ok {
			return problem(fmt.Sprintf("SKILL.md '%s' entries must each contain exactly one 'file' or 'repo_file' source.", section))
		}
		doc.sections[i] = refs
	}
	return doc, nil
}

// referenceEntries reads a list whose every entry is a mapping of exactly
// one key, a string file or repo_file (isSkillReference).
func referenceEntries(v any) ([]resolve.Reference, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	refs := make([]resolve.Reference, 0, len(list))
	for _, e := range list {
		o, ok := e.(*resolve.Object)
		if !ok || o.Len() != 1 {
			return nil, false
		}
		if f, ok := o.Get("file"); ok {
			s, ok := f.(string)
			if !ok {
				return nil, false
			}
			refs = append(refs, resolve.Reference{Path: s})
			continue
		}
		r, _ := o.Get("repo_file")
		s, ok := r.(string)
		if !ok {
			return nil, false
		}
		refs = append(refs, resolve.Reference{Repo: true, Path: s})
	}
	return refs, true
}

// extractFrontmatter returns the lines between a first line that is ---
// and the next such line (trailing white space ignored, as JavaScript's
// trimEnd ignores it), joined with "\n".
func extractFrontmatter(content string) (string, bool) {
	lines := strings.Split(content, "\n")
	if jsstack.TrimEnd(lines[0]) != "---" {
		return "", false
	}
	for i := 1; i < len(lines); i++ {
		if jsstack.TrimEnd(lines[i]) == "---" {
			return strings.Join(lines[1:i], "\n"), true
		}
	}
	return "", false
}
