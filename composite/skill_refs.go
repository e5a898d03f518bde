package composite

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// skillRef is one reference, script or asset entry with the root its
// file form resolves from.
type skillRef struct {
	ref      resolve.Reference
	fileRoot string
}

// materialization is one file or directory copied into a section of a
// generated skill (SkillResolution.ts).
type materialization struct {
	section, source, dest string
	// root is the reference's root, which a copied directory's links
	// never leave.
	root string
	dir  bool
}

// refTarget is what a reference's targets share: its root, its kind and
// the label of its root in messages.
type refTarget struct {
	root, kind, label, section, skillPath string
}

func (t refTarget) problem(format string, args ...any) *skillProblem {
	return &skillProblem{path: t.skillPath, message: fmt.Sprintf(format, args...)}
}

// planMaterializations resolves the references, scripts and assets of a
// skill document, with the profile's added references after the skill's
// own, into the copies to make; problems are appended to problems.
func (s *skillResolver) planMaterializations(entry *catalogSkill, doc *skillDocument, added []resolve.Reference, addedRoot string, problems *[]skillProblem) ([]materialization, error) {
	var out []materialization
	for i, section := range skillSections {
		refs := make([]skillRef, 0, len(doc.sections[i]))
		for _, r := range doc.sections[i] {
			refs = append(refs, skillRef{r, entry.refRoot})
		}
		if section == "references" {
			root := addedRoot
			if root == "" {
				root = s.res.Project
			}
			if root == "" {
				root = entry.refRoot
			}
			for _, r := range added {
				refs = append(refs, skillRef{r, root})
			}
		}
		sources := map[string]string{}
		for _, r := range refs {
			found, err := s.referenceTargets(r, section, entry.skillPath, problems)
			if err != nil {
				return nil, err
			}
			for _, m := range found {
				if prev, ok := sources[m.dest]; ok {
					*problems = append(*problems, skillProblem{path: entry.skillPath, message: fmt.Sprintf(
						"Destination '%s/%s' is declared more than once (by '%s' and '%s').", section, m.dest, prev, m.source)})
					continue
				}
				// Checked against the catalog's skill, as upstream checks
				// it, so that lint would see it without copying anything.
				if _, err := vfs.Stat(s.fsys, vfs.Join(entry.dir, section, m.dest)); err == nil {
					*problems = append(*problems, skillProblem{path: entry.skillPath, message: fmt.Sprintf(
						"Destination '%s/%s' collides with a file already shipped by skill '%s'.", section, m.dest, entry.id)})
					continue
				}
				sources[m.dest] = m.source
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// referenceTargets resolves one entry to its copies: one for a literal
// target, one per match of a glob, none for a repo_file the project does
// not have.
func (s *skillResolver) referenceTargets(r skillRef, section, skillPath string, problems *[]skillProblem) ([]materialization, error) {
	t := refTarget{root: r.fileRoot, kind: "file", label: "catalog", section: section, skillPath: skillPath}
	if r.ref.Repo {
		t.root, t.kind, t.label = s.res.Project, "repo_file", "project"
	}
	declared := r.ref.Path
	if t.root == "" {
		*problems = append(*problems, *t.problem("Reference %s '%s' has no %s root to resolve from.", t.kind, declared, t.label))
		return nil, nil
	}
	if !strings.ContainsAny(declared, "*?[") {
		m, p, err := s.target(declared, t)
		if p != nil {
			*problems = append(*problems, *p)
		}
		if m == nil || err != nil {
			return nil, err
		}
		return []materialization{*m}, nil
	}
	// Braces are literal path characters, but Node's glob would expand
	// them: upstream refuses them in a glob.
	if strings.ContainsAny(declared, "{}") {
		*problems = append(*problems, *t.problem("Reference %s glob '%s' must not contain braces; braces are literal path characters, not glob syntax.", t.kind, declared))
		return nil, nil
	}
	gfs := newGlobFS(s.fsys, t.root)
	matches := jsstack.GlobSync(gfs, declared, t.root)
	slices.SortFunc(matches, jsstack.Compare)
	if gfs.left != "" {
		*problems = append(*problems, *t.problem("Reference %s glob '%s' is not walked into '%s', which leads outside its %s root '%s'.",
			t.kind, resolve.Quote(declared), resolve.Quote(gfs.left), t.label, resolve.Quote(t.root)))
		if len(matches) == 0 {
			return nil, nil
		}
	}
	if len(matches) == 0 {
		if t.kind == "file" {
			*problems = append(*problems, *t.problem("Reference file glob '%s' matched no files under '%s'.", declared, t.root))
		}
		return nil, nil
	}
	var out []materialization
	listed, more := 0, 0
	for _, match := range matches {
		m, p, err := s.target(match, t)
		if err != nil {
			return nil, err
		}
		if p != nil {
			if listed == maxGlobProblems {
				more++
				continue
			}
			listed++
			*problems = append(*problems, *p)
		}
		if m != nil {
			out = append(out, *m)
		}
	}
	if more > 0 {
		*problems = append(*problems, *t.problem("Reference %s glob '%s' has %d more problems, not listed.", t.kind, resolve.Quote(declared), more))
	}
	return out, nil
}

// maxGlobProblems bounds the problems of the matches of one glob that are
// listed, each naming its file; the others are counted in one problem.
const maxGlobProblems = 20

// target checks one concrete target: it must exist (a missing repo_file
// is left out), be a regular file or a directory, really lie inside its
// root, and, for a directory, hold nothing that leaves the root, loops or
// is special.
func (s *skillResolver) target(targetPath string, t refTarget) (*materialization, *skillProblem, error) {
	source := targetPath
	if !path.IsAbs(source) {
		source = vfs.Join(t.root, source)
	}
	fi, err := vfs.Stat(s.fsys, source)
	if err != nil {
		if t.kind == "repo_file" {
			return nil, nil, nil
		}
		return nil, t.problem("Reference file '%s' was not found under '%s'.", targetPath, t.root), nil
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, t.problem("Reference %s '%s' must be a regular file or directory.", t.kind, targetPath), nil
	}
	if s.escapes(source, t.root) {
		return nil, t.problem("Reference %s '%s' resolves outside its %s root '%s'.", t.kind, targetPath, t.label, t.root), nil
	}
	if fi.IsDir() {
		real, err := vfs.EvalSymlinks(s.fsys, source)
		if err != nil {
			return nil, nil, err
		}
		issue, err := s.scanDirectory(source, t.root, []string{real}, map[string]bool{})
		if err != nil {
			return nil, nil, err
		}
		if issue != nil {
			what := map[string]string{
				"escaping": fmt.Sprintf("which resolves outside its %s root '%s'", t.label, t.root),
				"cyclic":   "which creates a symlink cycle",
				"special":  "which is not a regular file or directory",
			}[issue.problem]
			rel := strings.TrimPrefix(issue.path, source+"/")
			return nil, t.problem("Reference %s '%s' contains '%s', %s.", t.kind, targetPath, rel, what), nil
		}
	}
	return &materialization{section: t.section, source: source, dest: jsstack.Basename(targetPath), root: t.root, dir: fi.IsDir()}, nil, nil
}

// containedIssue is the first path inside a directory target that leaves
// the root, loops back to an ancestor, or is special.
type containedIssue struct {
	path, problem string
}

// scanDirectory walks a directory target as upstream's
// scanDirectoryTarget does: entries in listing order, links followed, a
// directory reached twice scanned once.
func (s *skillResolver) scanDirectory(dir, root string, ancestry []string, scanned map[string]bool) (*containedIssue, error) {
	list, err := vfs.ReadDir(s.fsys, dir)
	if err != nil {
		return nil, errors.New(jsstack.FSError(err, "scandir", dir))
	}
	for _, e := range list {
		entry := vfs.Join(dir, e.Name())
		if s.escapes(entry, root) {
			return &containedIssue{entry, "escaping"}, nil
		}
		fi, err := vfs.Stat(s.fsys, entry)
		if err != nil {
			return nil, errors.New(jsstack.FSError(err, "stat", entry))
		}
		if !fi.Mode().IsRegular() && !fi.IsDir() {
			return &containedIssue{entry, "special"}, nil
		}
		if !fi.IsDir() {
			continue
		}
		real, err := vfs.EvalSymlinks(s.fsys, entry)
		if err != nil {
			return nil, errors.New(jsstack.FSError(err, "lstat", entry))
		}
		if slices.Contains(ancestry, real) {
			return &containedIssue{entry, "cyclic"}, nil
		}
		if !scanned[real] {
			scanned[real] = true
			issue, err := s.scanDirectory(entry, root, append(slices.Clip(ancestry), real), scanned)
			if issue != nil || err != nil {
				return issue, err
			}
		}
	}
	return nil, nil
}

// escapes reports whether the real path of name leaves the real path of
// root; a name or root that cannot be resolved escapes.
func (s *skillResolver) escapes(name, root string) bool {
	real, err := vfs.EvalSymlinks(s.fsys, name)
	if err != nil {
		return true
	}
	realRoot, err := vfs.EvalSymlinks(s.fsys, root)
	if err != nil {
		return true
	}
	return !vfs.Within(real, realRoot)
}

// skillDirPerm is the mode of the directories of a generated skill: what
// Node's mkdir gives them under the usual umask.
func skillDirPerm(fs.FileMode) fs.FileMode { return 0o755 }

// materialize writes the generated skill: a copy of the catalog skill, as
// Node's fs.cp copies it (links as links, their relative targets made
// absolute; special files skipped; files with their modes), then each
// planned copy into its section (files with their modes, directories with
// what their links lead to, never leaving the reference's root).
//
// Unlike upstream, nothing is ever written through a link: a catalog
// skill that is itself a link is copied as a link only when it has
// nothing to materialize (upstream then writes the copies into the
// catalog through it; here the skill is copied instead), and a section
// directory or a destination that the skill ships as a link is refused
// with a problem.
func (s *skillResolver) materialize(entry *catalogSkill, gen string, plan []materialization, problems *[]skillProblem) error {
	fsys := s.fsys
	if err := vfs.MkdirAll(fsys, path.Dir(gen), 0o755); err != nil {
		return &WriteError{Step: "copy skill", Path: path.Dir(gen), Err: err}
	}
	src := entry.dir
	if fi, err := vfs.Lstat(fsys, src); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, err := vfs.ReadLink(fsys, src)
		if err != nil {
			return &WriteError{Step: "copy skill", Path: src, Err: err}
		}
		if len(plan) == 0 {
			if !path.IsAbs(target) {
				target = vfs.Join(path.Dir(src), target)
			}
			if err := vfs.Symlink(fsys, target, gen); err != nil {
				return &WriteError{Step: "copy skill", Path: gen, Err: err}
			}
			return nil
		}
		if src, err = vfs.EvalSymlinks(fsys, src); err != nil {
			return &WriteError{Step: "copy skill", Path: entry.dir, Err: err}
		}
	}
	opts := vfs.CopyOptions{Links: vfs.LinksAbsolute, SkipSpecial: true, DirPerm: skillDirPerm}
	if err := vfs.Copy(fsys, gen, fsys, src, opts); err != nil {
		return &WriteError{Step: "copy skill", Path: entry.dir, Err: err}
	}
	for _, m := range plan {
		sectionDir := vfs.Join(gen, m.section)
		dest := vfs.Join(sectionDir, m.dest)
		refused := ""
		for _, p := range []string{sectionDir, dest} {
			if fi, err := vfs.Lstat(fsys, p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				refused = p
				break
			}
		}
		if refused != "" {
			*problems = append(*problems, skillProblem{path: entry.skillPath, message: fmt.Sprintf(
				"Skill '%s' ships '%s' as a symbolic link; '%s' is not materialized through it.", entry.id, strings.TrimPrefix(refused, gen+"/"), m.section+"/"+m.dest)})
			continue
		}
		if err := vfs.MkdirAll(fsys, sectionDir, 0o755); err != nil {
			return &WriteError{Step: "materialize skill", Path: sectionDir, Err: err}
		}
		copyOpts := vfs.CopyOptions{Links: vfs.LinksFollow, Within: m.root, DirPerm: skillDirPerm}
		if err := vfs.Copy(fsys, dest, fsys, m.source, copyOpts); err != nil {
			return &WriteError{Step: "materialize skill", Path: m.source, Err: err}
		}
	}
	return nil
}
