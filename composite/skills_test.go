package composite_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// skillsDir is the project's catalog root in these tests.
const skillsDir = project + "/.outfitter/skills"

// skill returns the SKILL.md of a catalog skill holding frontmatter.
func skill(id, frontmatter string) (string, string) {
	return skillsDir + "/" + id + "/SKILL.md", "---\n" + frontmatter + "\n---\n# Skill\n"
}

// skillWorld is a world whose profile selects skills (YAML flow list) and
// whose files hold the given skills and extra files.
func skillWorld(selected string, files map[string]string, skills ...[2]string) world {
	w := world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: " + selected + "\n"}, files: map[string]string{}}
	for name, content := range files {
		w.files[name] = content
	}
	for _, s := range skills {
		name, content := skill(s[0], s[1])
		w.files[name] = content
	}
	return w
}

// pipeFS reports one name as a named pipe, which a MemFS cannot hold.
type pipeFS struct {
	*vfs.MemFS
	pipe string
}

type pipeInfo struct{ fs.FileInfo }

func (pipeInfo) Mode() fs.FileMode { return fs.ModeNamedPipe | 0o644 }
func (pipeInfo) IsDir() bool       { return false }

func (p pipeFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := p.MemFS.Stat(name)
	if err == nil && name == p.pipe {
		return pipeInfo{fi}, nil
	}
	return fi, err
}

func (p pipeFS) Lstat(name string) (fs.FileInfo, error) {
	fi, err := p.MemFS.Lstat(name)
	if err == nil && name == p.pipe {
		return pipeInfo{fi}, nil
	}
	return fi, err
}

// TestSkillErrors checks every message of a catalog skill that fails the
// run, each against the upstream test or source line it comes from.
func TestSkillErrors(t *testing.T) {
	t.Parallel()
	const (
		deploy = skillsDir + "/deploy/SKILL.md"
		prefix = "Cannot resolve profile skills: "
	)
	tests := []struct {
		name  string
		from  string // the upstream test or source it reproduces
		world world
		pipe  string
		want  string
	}{
		{name: "no frontmatter", from: "skill-resolution.test.ts:91",
			world: skillWorld("[deploy]", map[string]string{deploy: "# No frontmatter\n"}),
			want:  prefix + deploy + " SKILL.md must start with a `---` YAML frontmatter block."},
		{name: "frontmatter never closed", from: "skill-resolution.test.ts:393",
			world: skillWorld("[deploy]", map[string]string{deploy: "---\nname: deploy\n"}),
			want:  prefix + deploy + " SKILL.md must start with a `---` YAML frontmatter block."},
		{name: "frontmatter not YAML", from: "skill-resolution.test.ts:392,427",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: [unclosed"}),
			want:  prefix + deploy + " SKILL.md frontmatter is not valid YAML: YAMLParseError: "},
		{name: "frontmatter not a mapping", from: "skill-resolution.test.ts:394",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "- a\n- b"}),
			want:  prefix + deploy + " SKILL.md frontmatter must be a YAML mapping."},
		{name: "empty frontmatter", from: "SkillDocument.ts:104 (null is no mapping)",
			world: skillWorld("[deploy]", map[string]string{deploy: "---\n---\n"}),
			want:  prefix + deploy + " SKILL.md frontmatter must be a YAML mapping."},
		{name: "bad name", from: "skill-resolution.test.ts:92",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: Bad Name"}),
			want:  prefix + deploy + " SKILL.md 'name' must use lowercase letters, numbers, and single hyphens (max 64 characters)."},
		{name: "name not a string", from: "SkillDocument.ts:53",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: 42"}),
			want:  prefix + deploy + " SKILL.md 'name' must use lowercase letters, numbers, and single hyphens (max 64 characters)."},
		{name: "reference with two sources", from: "skill-resolution.test.ts:94",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nreferences:\n  - file: a.md\n    repo_file: b.md"}),
			want:  prefix + deploy + " SKILL.md 'references' entries must each contain exactly one 'file' or 'repo_file' source."},
		{name: "reference without a source", from: "skill-resolution.test.ts:96",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nreferences:\n  - name: a.md"}),
			want:  prefix + deploy + " SKILL.md 'references' entries must each contain exactly one 'file' or 'repo_file' source."},
		{name: "script as a bare string", from: "skill-resolution.test.ts:85",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nscripts:\n  - tools/process.sh"}),
			want:  prefix + deploy + " SKILL.md 'scripts' entries must each contain exactly one 'file' or 'repo_file' source."},
		{name: "assets null", from: "SkillDocument.ts:67 (present but not a list)",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nassets:"}),
			want:  prefix + deploy + " SKILL.md 'assets' entries must each contain exactly one 'file' or 'repo_file' source."},
		{name: "SKILL.md is a directory", from: "SkillDocument.ts:117 (readFileSync of a directory)",
			world: skillWorld("[deploy]", map[string]string{deploy + "/x": ""}),
			want:  prefix + deploy + " Could not read SKILL.md: Error: EISDIR: illegal operation on a directory, read"},
		{name: "name and directory differ", from: "skill-resolution.test.ts:262",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: other-name"}),
			want:  prefix + deploy + " SKILL.md 'name' ('other-name') must match its directory name ('deploy')."},
		{name: "object entry not in the catalog", from: "skill-resolution.test.ts:272",
			world: skillWorld("[{id: missing-skill}]", nil),
			want:  prefix + "controls.skills/missing-skill Skill ID 'missing-skill' does not resolve in any skills directory."},
		{name: "conflicting reference sets", from: "skill-controls.test.ts:148",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [deploy]\n  pi:\n    skills: [{id: deploy, references: [{repo_file: docs/runbook.md}]}]\n"},
				files: map[string]string{deploy: "---\nname: deploy\n---\n", project + "/docs/runbook.md": "runbook\n"}},
			want: prefix + "controls.skills/deploy Skill 'deploy' is selected with conflicting reference sets across control scopes."},
		{name: "a destination declared twice", from: "skill-resolution.test.ts:237",
			world: skillWorld("[deploy]", map[string]string{project + "/docs/design.md": "design\n"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/design.md\n  - repo_file: docs/design.md"}),
			want: prefix + deploy + " Destination 'references/design.md' is declared more than once (by '/p/docs/design.md' and '/p/docs/design.md')."},
		{name: "glob matches collide", from: "skill-glob-targets.test.ts:141",
			world: skillWorld("[deploy]", map[string]string{project + "/docs/alpha/readme.md": "a", project + "/docs/beta/readme.md": "b"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/**/readme.md"}),
			want: prefix + deploy + " Destination 'references/readme.md' is declared more than once (by '/p/docs/alpha/readme.md' and '/p/docs/beta/readme.md')."},
		{name: "a destination the skill ships", from: "skill-resolution.test.ts:423",
			world: skillWorld("[deploy]", map[string]string{project + "/docs/design.md": "external\n", skillsDir + "/deploy/references/design.md": "shipped\n"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - repo_file: docs/design.md"}),
			want: prefix + deploy + " Destination 'references/design.md' collides with a file already shipped by skill 'deploy'."},
		{name: "braces in a glob", from: "skill-glob-targets.test.ts:166",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/{a,b}*.md"}),
			want:  prefix + deploy + " Reference file glob 'docs/{a,b}*.md' must not contain braces; braces are literal path characters, not glob syntax."},
		{name: "a file glob matching nothing", from: "skill-glob-targets.test.ts:108",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/*.md"}),
			want:  prefix + deploy + " Reference file glob 'docs/*.md' matched no files under '/p'."},
		{name: "a missing file", from: "skill-resolution.test.ts:204",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/absent.md"}),
			want:  prefix + deploy + " Reference file 'docs/absent.md' was not found under '/p'."},
		{name: "a pipe", from: "skill-directory-targets.test.ts:171",
			world: skillWorld("[deploy]", map[string]string{project + "/pipes/stream.fifo": ""},
				[2]string{"deploy", "name: deploy\nassets:\n  - file: pipes/stream.fifo"}),
			pipe: project + "/pipes/stream.fifo",
			want: prefix + deploy + " Reference file 'pipes/stream.fifo' must be a regular file or directory."},
		{name: "a pipe in a directory", from: "skill-directory-targets.test.ts:171",
			world: skillWorld("[deploy]", map[string]string{project + "/pipes/stream.fifo": ""},
				[2]string{"deploy", "name: deploy\nassets:\n  - file: pipes"}),
			pipe: project + "/pipes/stream.fifo",
			want: prefix + deploy + " Reference file 'pipes' contains 'stream.fifo', which is not a regular file or directory."},
		{name: "a link out of the root", from: "skill-resolution.test.ts:237",
			world: w(skillWorld("[deploy]", map[string]string{"/outside/secret.md": "secret\n"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/escape.md"}), map[string]string{project + "/docs/escape.md": "/outside/secret.md"}),
			want: prefix + deploy + " Reference file 'docs/escape.md' resolves outside its catalog root '/p'."},
		{name: "a glob match out of the root", from: "skill-glob-targets.test.ts:202",
			world: w(skillWorld("[deploy]", map[string]string{"/outside/secret.md": "secret\n", project + "/docs/design.md": "d"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/*.md"}), map[string]string{project + "/docs/escape.md": "/outside/secret.md"}),
			want: prefix + deploy + " Reference file 'docs/escape.md' resolves outside its catalog root '/p'."},
		{name: "a repo_file out of the project", from: "SkillResolution.ts:457",
			world: skillWorld("[deploy]", map[string]string{"/outside/secret.md": "secret\n"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - repo_file: ../outside/secret.md"}),
			want: prefix + deploy + " Reference repo_file '../outside/secret.md' resolves outside its project root '/p'."},
		{name: "a directory holding a link out of the root", from: "skill-directory-targets.test.ts:135",
			world: w(skillWorld("[deploy]", map[string]string{"/outside/secret.md": "secret\n", project + "/docs/design.md": "d"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: docs"}), map[string]string{project + "/docs/nested/escape.md": "/outside/secret.md"}),
			want: prefix + deploy + " Reference file 'docs' contains 'nested/escape.md', which resolves outside its catalog root '/p'."},
		{name: "a link out of the root in a later subdirectory", from: "skill-directory-targets.test.ts:135 (scanDirectoryTarget)",
			world: w(skillWorld("[deploy]", map[string]string{"/outside/secret.md": "secret\n", project + "/docs/a/clean.md": "clean\n"},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: docs"}), map[string]string{project + "/docs/b/escape.md": "/outside/secret.md"}),
			want: prefix + deploy + " Reference file 'docs' contains 'b/escape.md', which resolves outside its catalog root '/p'."},
		{name: "a linked directory holding a link out of the root", from: "skill-directory-targets.test.ts:135",
			world: w(skillWorld("[deploy]", map[string]string{"/outside/secret.md": "secret\n", project + "/linking/x": ""},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: linking"}),
				map[string]string{project + "/shared/escape.md": "/outside/secret.md", project + "/linking/shared-link": project + "/shared"}),
			want: prefix + deploy + " Reference file 'linking' contains 'shared-link/escape.md', which resolves outside its catalog root '/p'."},
		{name: "a directory holding a link cycle", from: "skill-directory-targets.test.ts:191",
			world: w(skillWorld("[deploy]", map[string]string{project + "/looping/f": ""},
				[2]string{"deploy", "name: deploy\nassets:\n  - file: looping"}), map[string]string{project + "/looping/loop": project + "/looping"}),
			want: prefix + deploy + " Reference file 'looping' contains 'loop', which creates a symlink cycle."},
		{name: "a dangling link in a directory", from: "SkillResolution.ts:594 (no real path: escaping)",
			world: w(skillWorld("[deploy]", map[string]string{project + "/docs/d.md": ""},
				[2]string{"deploy", "name: deploy\nassets:\n  - file: docs"}), map[string]string{project + "/docs/gone": "nowhere"}),
			want: prefix + deploy + " Reference file 'docs' contains 'gone', which resolves outside its catalog root '/p'."},
		{name: "every problem at once, in order", from: "RunCommand.ts:290",
			world: skillWorld("[deploy, {id: nope}, other]", nil, [2]string{"deploy", "name: wrong"}, [2]string{"other", "name: other\nscripts:\n  - file: x.sh"}),
			want: prefix + deploy + " SKILL.md 'name' ('wrong') must match its directory name ('deploy').; " +
				"controls.skills/nope Skill ID 'nope' does not resolve in any skills directory.; " +
				skillsDir + "/other/SKILL.md Reference file 'x.sh' was not found under '/p'."},
		{name: "a skill shipping its section as a link (deviation: upstream writes through it)", from: "SkillResolution.ts:204",
			world: w(skillWorld("[deploy]", map[string]string{project + "/docs/design.md": "d", "/outside/keep": ""},
				[2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/design.md"}), map[string]string{skillsDir + "/deploy/references": "/outside"}),
			want: prefix + deploy + " Skill 'deploy' ships 'references' as a symbolic link; 'references/design.md' is not materialized through it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mem := tt.world.newFS(t)
			var fsys composite.FS = mem
			if tt.pipe != "" {
				fsys = pipeFS{mem, tt.pipe}
			}
			before := vfstest.Snapshot(t, mem, "/")
			_, err := tt.world.plan(t, fsys)
			var se *composite.SkillsError
			if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tt.want) || (!strings.HasSuffix(tt.want, ": ") && err.Error() != tt.want) {
				t.Fatalf("plan error:\n%v\nwant (%s):\n%s", err, tt.from, tt.want)
			}
			vfstest.WantUnchanged(t, mem, "/", before, "a failed plan changed the machine")
		})
	}
}

// w adds links to a world.
func w(wd world, links map[string]string) world {
	wd.links = links
	return wd
}

// TestSkillMaterialization checks what a valid catalog skill becomes in
// the composite, each case against the upstream test it reproduces.
func TestSkillMaterialization(t *testing.T) {
	t.Parallel()
	type entry = vfs.Entry
	file := func(text string, mode fs.FileMode) entry {
		return entry{Type: vfs.TypeFile, Data: []byte(text), Mode: mode}
	}
	dir := entry{Type: vfs.TypeDir, Mode: 0o755}
	link := func(target string) entry { return entry{Type: vfs.TypeSymlink, Target: target} }
	tests := []struct {
		name     string
		from     string
		world    world
		want     vfs.Tree // below <root>/outfitter/skills
		warnings []string
	}{
		{name: "file and repo_file references, scripts keeping their mode, assets", from: "skill-resolution.test.ts:149,177",
			world: func() world {
				wd := skillWorld("[deploy]", map[string]string{
					project + "/docs/design.md": "design\n", project + "/docs/runbooks/deploy.md": "runbook\n",
					project + "/tools/process.sh": "#!/bin/sh\n", project + "/templates/report.json": "{}\n",
				}, [2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/design.md\n  - repo_file: docs/runbooks/deploy.md\nscripts:\n  - file: tools/process.sh\nassets:\n  - repo_file: templates/report.json"})
				wd.modes = map[string]fs.FileMode{project + "/tools/process.sh": 0o755}
				return wd
			}(),
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\nreferences:\n  - file: docs/design.md\n  - repo_file: docs/runbooks/deploy.md\nscripts:\n  - file: tools/process.sh\nassets:\n  - repo_file: templates/report.json\n---\n# Skill\n", 0o644),
				"deploy/references": dir, "deploy/references/design.md": file("design\n", 0o644), "deploy/references/deploy.md": file("runbook\n", 0o644),
				"deploy/scripts": dir, "deploy/scripts/process.sh": file("#!/bin/sh\n", 0o755),
				"deploy/assets": dir, "deploy/assets/report.json": file("{}\n", 0o644)}},
		{name: "a missing repo_file is left out", from: "skill-resolution.test.ts:204",
			world: skillWorld("[deploy]", nil, [2]string{"deploy", "name: deploy\nreferences:\n  - repo_file: docs/absent.md\n  - repo_file: docs/*.md"}),
			want:  vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\nreferences:\n  - repo_file: docs/absent.md\n  - repo_file: docs/*.md\n---\n# Skill\n", 0o644)}},
		{name: "a directory target with what its links lead to", from: "skill-directory-targets.test.ts:44",
			world: func() world {
				wd := w(skillWorld("[deploy]", map[string]string{
					project + "/code/tpl/README.md": "readme\n", project + "/code/tpl/scripts/setup.sh": "#!/bin/sh\n", project + "/code/shared.md": "shared\n",
				}, [2]string{"deploy", "name: deploy\nassets:\n  - file: code/tpl"}), map[string]string{
					project + "/code/tpl/shared-link.md": project + "/code/shared.md", project + "/code/tpl/scripts-link": project + "/code/tpl/scripts",
				})
				wd.modes = map[string]fs.FileMode{project + "/code/tpl/scripts/setup.sh": 0o755}
				return wd
			}(),
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\nassets:\n  - file: code/tpl\n---\n# Skill\n", 0o644),
				"deploy/assets": dir, "deploy/assets/tpl": dir, "deploy/assets/tpl/README.md": file("readme\n", 0o644),
				"deploy/assets/tpl/scripts": dir, "deploy/assets/tpl/scripts/setup.sh": file("#!/bin/sh\n", 0o755),
				"deploy/assets/tpl/scripts-link": dir, "deploy/assets/tpl/scripts-link/setup.sh": file("#!/bin/sh\n", 0o755),
				"deploy/assets/tpl/shared-link.md": file("shared\n", 0o644)}},
		{name: "globs by basename, ** recursing, a braced literal", from: "skill-glob-targets.test.ts:42,75,166",
			world: skillWorld("[deploy]", map[string]string{
				project + "/docs/alpha.md": "alpha\n", project + "/docs/notes.txt": "no\n", project + "/docs/guides/deep.md": "deep\n",
				project + "/docs/.hidden.md": "hidden\n", project + "/docs/notes{1}.md": "braced\n",
			}, [2]string{"deploy", "name: deploy\nreferences:\n  - file: docs/**/*.md\nassets:\n  - file: docs/notes{1}.md"}),
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\nreferences:\n  - file: docs/**/*.md\nassets:\n  - file: docs/notes{1}.md\n---\n# Skill\n", 0o644),
				"deploy/references": dir, "deploy/references/alpha.md": file("alpha\n", 0o644), "deploy/references/deep.md": file("deep\n", 0o644),
				"deploy/references/notes{1}.md": file("braced\n", 0o644),
				"deploy/assets":                 dir, "deploy/assets/notes{1}.md": file("braced\n", 0o644)}},
		{name: "references an {id, references} entry adds, from its profile's repository", from: "skill-resolution.test.ts:309",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [{id: deploy, references: [{file: notes/extra.md}, {repo_file: docs/runbook.md}]}]\n"},
				files: map[string]string{skillsDir + "/deploy/SKILL.md": "---\nname: deploy\n---\n", project + "/docs/runbook.md": "runbook\n",
					home + "/.outfitter/notes/extra.md": "extra\n"}},
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\n---\n", 0o644),
				"deploy/references": dir, "deploy/references/extra.md": file("extra\n", 0o644), "deploy/references/runbook.md": file("runbook\n", 0o644)}},
		{name: "references an inherited profile's {id, references} entry adds", from: "SkillResolution.ts (the highest layer declaring the entry)",
			world: world{profiles: map[string]string{"eng": "id: eng\ninherits: [base]\ncontrols:\n  model: m\n",
				"base": "id: base\ncontrols:\n  skills: [{id: deploy, references: [{file: notes/extra.md}]}]\n"},
				files: map[string]string{skillsDir + "/deploy/SKILL.md": "---\nname: deploy\n---\n", home + "/.outfitter/notes/extra.md": "extra\n"}},
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\n---\n", 0o644),
				"deploy/references": dir, "deploy/references/extra.md": file("extra\n", 0o644)}},
		{name: "references an agent block's {id, references} entry adds", from: "skill-resolution.test.ts:309",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  pi:\n    skills: [{id: deploy, references: [{file: notes/extra.md}]}]\n"},
				files: map[string]string{skillsDir + "/deploy/SKILL.md": "---\nname: deploy\n---\n", home + "/.outfitter/notes/extra.md": "extra\n"}},
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\n---\n", 0o644),
				"deploy/references": dir, "deploy/references/extra.md": file("extra\n", 0o644)}},
		{name: "fences ending in Unicode spaces (U+2000, U+200A) still fence the frontmatter", from: "String.prototype.trimEnd",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [deploy]\n"},
				files: map[string]string{skillsDir + "/deploy/SKILL.md": "---\u2000\nname: deploy\n---\u200a\n"}},
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\u2000\nname: deploy\n---\u200a\n", 0o644)}},
		{name: "a source's skill takes file references from the directory holding .outfitter", from: "SkillResolution.ts (the skill's repository)",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [deploy]\n"},
				files: map[string]string{home + "/.outfitter/skills/deploy/SKILL.md": "---\nname: deploy\nreferences:\n  - file: notes/x.md\n---\n", home + "/notes/x.md": "x\n"}},
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\nreferences:\n  - file: notes/x.md\n---\n", 0o644),
				"deploy/references": dir, "deploy/references/x.md": file("x\n", 0o644)}},
		{name: "one id selected by two scopes is generated once", from: "skill-controls.test.ts:148",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [deploy]\n  pi:\n    skills: [deploy]\n"},
				files: map[string]string{skillsDir + "/deploy/SKILL.md": "---\nname: deploy\n---\n"}},
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\n---\n", 0o644)}},
		{name: "links inside a skill stay links, made absolute, never read", from: "SkillResolution.ts:200 (fs.cpSync)",
			world: w(skillWorld("[deploy]", map[string]string{home + "/.ssh/id_ed25519": "private key\n"},
				[2]string{"deploy", "name: deploy"}), map[string]string{skillsDir + "/deploy/refs": "../../../../h/.ssh", skillsDir + "/deploy/gone": "nowhere"}),
			want: vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\n---\n# Skill\n", 0o644),
				"deploy/refs": link("/h/.ssh"), "deploy/gone": link(skillsDir + "/deploy/nowhere")}},
		{name: "a linked catalog skill with nothing to copy stays a link", from: "skill-resolution.test.ts:398, SkillResolution.ts:200",
			world: w(world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [linked]\n"},
				files: map[string]string{"/shared/linked/SKILL.md": "---\nname: linked\n---\n"}}, map[string]string{skillsDir + "/linked": "../../../shared/linked"}),
			want: vfs.Tree{"linked": link("/shared/linked")}},
		{name: "a linked catalog skill with references is copied (deviation: upstream writes them into the catalog)", from: "SkillResolution.ts:204",
			world: w(world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [linked]\n"},
				files: map[string]string{"/shared/linked/SKILL.md": "---\nname: linked\nreferences:\n  - repo_file: docs/a.md\n---\n", project + "/docs/a.md": "a\n"}},
				map[string]string{skillsDir + "/linked": "/shared/linked"}),
			want: vfs.Tree{"linked": dir, "linked/SKILL.md": file("---\nname: linked\nreferences:\n  - repo_file: docs/a.md\n---\n", 0o644),
				"linked/references": dir, "linked/references/a.md": file("a\n", 0o644)}},
		{name: "a valid id outside the catalog passes through with a warning each time", from: "skill-resolution.test.ts:272, SkillResolution.ts:152",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [bare-name, ./skills/review]\n  pi:\n    skills: [bare-name]\n"}},
			warnings: []string{"Skill 'bare-name' does not resolve in any skills directory; passing it through as a path source.",
				"Skill 'bare-name' does not resolve in any skills directory; passing it through as a path source."}},
		{name: "a selected id shadowing a source's skill", from: "skill-resolution.test.ts:365",
			world: skillWorld("[deploy]", map[string]string{home + "/.outfitter/skills/deploy/SKILL.md": "---\nname: deploy\n---\n", home + "/.outfitter/skills/unused/SKILL.md": "---\nname: unused\n---\n", skillsDir + "/unused/SKILL.md": "---\nname: unused\n---\n"},
				[2]string{"deploy", "name: deploy"}),
			want:     vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\n---\n# Skill\n", 0o644)},
			warnings: []string{"Skill ID 'deploy' is supplied by project skills ('/p/.outfitter/skills/deploy') and shadows '/h/.outfitter/skills/deploy'."}},
		{name: "an id selected in the agent's block alone warns of the skill it shadows", from: "skill-resolution.test.ts:365",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  pi:\n    skills: [deploy]\n"},
				files: map[string]string{home + "/.outfitter/skills/deploy/SKILL.md": "---\nname: deploy\n---\n", skillsDir + "/deploy/SKILL.md": "---\nname: deploy\n---\n"}},
			want:     vfs.Tree{"deploy": dir, "deploy/SKILL.md": file("---\nname: deploy\n---\n", 0o644)},
			warnings: []string{"Skill ID 'deploy' is supplied by project skills ('/p/.outfitter/skills/deploy') and shadows '/h/.outfitter/skills/deploy'."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := tt.world.newFS(t)
			before := vfstest.Snapshot(t, fsys, "/")
			r, err := tt.world.plan(t, fsys)
			if err != nil {
				t.Fatalf("plan (%s): %v", tt.from, err)
			}
			got, err := vfs.Snapshot(fsys, r.Composite.Root+"/outfitter/skills")
			if errors.Is(err, fs.ErrNotExist) {
				got = vfs.Tree{}
			} else {
				must(t, err)
			}
			if tt.want == nil {
				tt.want = vfs.Tree{}
			}
			if d := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b vfs.Entry) bool { return a.Equal(b) && a.Mode == b.Mode })); d != "" {
				t.Errorf("generated skills (%s) (-want +got):\n%s", tt.from, d)
			}
			checkWarnings(t, tt.warnings, r.Warnings)
			after := vfstest.Snapshot(t, fsys, "/")
			for p := range after {
				if strings.HasPrefix(p, "tmp/") {
					delete(after, p)
				}
			}
			if d := cmp.Diff(before, after); d != "" {
				t.Errorf("planning wrote outside the composite root (-before +after):\n%s", d)
			}
		})
	}
}

// TestPiSkillSources checks pi's --skill sources: relative entries
// resolved against the shared skill roots, the skills of the profile
// folders (directories only), and upstream's errors.
func TestPiSkillSources(t *testing.T) {
	t.Parallel()
	eng := home + "/.outfitter/profiles/eng"
	tests := []struct {
		name    string
		from    string
		world   world
		want    []string // after the bundled skill
		wantErr string
	}{
		{name: "relative entries against the shared roots", from: "PiSkillSources.ts:25-59",
			world: w(world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  skills: [skills/review, prompts/tip.md, ./nowhere, /abs/skill]\n"},
				files: map[string]string{home + "/.outfitter/skills/review/SKILL.md": "---\nname: review\n---\n", eng + "/prompts/tip.md": "tip"}},
				nil),
			want: []string{home + "/.outfitter/skills/review", eng + "/prompts/tip.md", "./nowhere", "/abs/skill"}},
		{name: "profile folder skills, not links to them", from: "PiSkillSources.ts:61-75",
			world: w(world{profiles: map[string]string{"eng": "id: eng\n"},
				files: map[string]string{eng + "/skills/b/SKILL.md": "", eng + "/skills/a/SKILL.md": "", eng + "/cli_specific/pi/skills/c/SKILL.md": "",
					eng + "/skills/no-skill/README.md": "", "/shared/linked/SKILL.md": ""}},
				map[string]string{eng + "/skills/linked": "/shared/linked"}),
			want: []string{eng + "/skills/a", eng + "/skills/b", eng + "/cli_specific/pi/skills/c"}},
		{name: "a pi skills folder that is a file", from: "pi-adapter.test.ts:444",
			world:   world{profiles: map[string]string{"eng": "id: eng\n"}, files: map[string]string{eng + "/cli_specific/pi/skills": "not a directory"}},
			wantErr: "Could not read profile Pi skills folder '" + eng + "/cli_specific/pi/skills': Error: ENOTDIR: not a directory, scandir '" + eng + "/cli_specific/pi/skills'"},
		{name: "a profile's skills folder that is a file fails the catalog first", from: "ProfileSkillResolution.ts:37, SkillCatalog.ts:152",
			world:   world{profiles: map[string]string{"eng": "id: eng\n"}, files: map[string]string{eng + "/skills": "not a directory"}},
			wantErr: "Could not read skills directory '" + eng + "/skills': Error: ENOTDIR: not a directory, scandir '" + eng + "/skills'"},
		{name: "a SKILL.md link loop", from: "pi-adapter.test.ts:469",
			world: w(world{profiles: map[string]string{"eng": "id: eng\n"}, files: map[string]string{eng + "/skills/loop/x": ""}},
				map[string]string{eng + "/skills/loop/SKILL.md": eng + "/skills/loop/SKILL.md"}),
			wantErr: "Could not inspect file '" + eng + "/skills/loop/SKILL.md': Error: ELOOP: too many symbolic links encountered, stat '" + eng + "/skills/loop/SKILL.md'"},
		{name: "a catalog skills directory that is a file", from: "skill-resolution.test.ts:415",
			world:   world{profiles: map[string]string{"eng": "id: eng\n"}, files: map[string]string{project + "/.outfitter/skills": "a file\n"}},
			wantErr: "Could not read skills directory '" + skillsDir + "': Error: ENOTDIR: not a directory, scandir '" + skillsDir + "'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := tt.world.newFS(t)
			r, err := tt.world.plan(t, fsys)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("plan error %v, want (%s) %s", err, tt.from, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, a := range r.Plan.Args {
				if a == "--skill" && i+1 < len(r.Plan.Args) {
					got = append(got, r.Plan.Args[i+1])
				}
			}
			want := append([]string{r.Composite.Root + "/outfitter/plugin/skills/outfitter"}, tt.want...)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("--skill sources (%s) (-want +got):\n%s", tt.from, d)
			}
		})
	}
}

// TestSkillGlobBounded: a reference glob never lists a directory outside
// its root (lexically or through a link: one problem names it), and the
// problems of its matches are listed up to a bound, the rest counted.
func TestSkillGlobBounded(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	links := map[string]string{project + "/out": "/elsewhere"}
	for i := range 25 {
		files[fmt.Sprintf("/elsewhere/f%02d.md", i)] = "x\n"
		links[fmt.Sprintf("%s/docs/l%02d.md", project, i)] = fmt.Sprintf("/elsewhere/f%02d.md", i)
	}
	for _, tt := range []struct{ glob, want string }{
		{"out/**", "Reference repo_file glob 'out/**' is not walked into '" + project + "/out', which leads outside its project root '" + project + "'."},
		{"../**", "Reference repo_file glob '../**' is not walked into '/', which leads outside its project root '" + project + "'."},
		{"docs/*.md", "Reference repo_file glob 'docs/*.md' has 5 more problems, not listed."},
	} {
		t.Run(tt.glob, func(t *testing.T) {
			t.Parallel()
			wd := w(skillWorld("[deploy]", files, [2]string{"deploy", "name: deploy\nreferences:\n  - repo_file: \"" + tt.glob + "\""}), links)
			_, err := wd.plan(t, wd.newFS(t))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("plan error:\n%v\nwant it to hold:\n%s", err, tt.want)
			}
			if n := strings.Count(err.Error(), "/elsewhere/"); n > 20 {
				t.Errorf("the error names %d files outside the root", n)
			}
		})
	}
}
