package composite_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
)

// syncedProfileWorld is syncedWorld with the profile eng's document
// given: doc, with "<checkout>" standing for the repository checkout; it
// plans a run of agent ("" for pi).
func syncedProfileWorld(t *testing.T, agent string, local bool, doc string, entries map[string]string) (*composite.Run, string) {
	t.Helper()
	dir, err := resolve.SourceDirectory(home, syncedTeam)
	must(t, err)
	checkout := strings.TrimSuffix(dir, "/team")
	folder := dir + "/eng"
	if local {
		folder = home + "/.outfitter/profiles/eng"
	}
	all := map[string]string{folder + "/profile.yml": strings.ReplaceAll(doc, "<checkout>", checkout)}
	for k, v := range entries {
		all[k] = v
	}
	fsys, w, _ := syncedWorld(t, local, all)
	w.agent = agent
	r, err := w.plan(t, fsys)
	must(t, err)
	return r, checkout
}

// argsAfter returns the values of each occurrence of flag in the run's
// launch arguments, but for those in the composite (Outfitter's own).
func argsAfter(r *composite.Run, flag string) []string {
	var out []string
	args := r.Plan.Args
	for i := 0; i+1 < len(args); i++ {
		if args[i] == flag && !strings.HasPrefix(args[i+1], r.Composite.Root+"/") {
			out = append(out, args[i+1])
		}
	}
	return out
}

// wantWarnings fails unless exactly the warnings containing each of want
// are there, one each.
func wantWarnings(t *testing.T, warnings []string, want ...string) {
	t.Helper()
	if len(warnings) != len(want) {
		t.Errorf("warnings %q, want %d", warnings, len(want))
	}
	for _, w := range want {
		if !slices.ContainsFunc(warnings, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("warnings %q, want one containing %q", warnings, w)
		}
	}
}

// TestSyncedSkillPathsStayInTheCheckout: a skill path a synced profile
// declares is passed to pi (--skill) only when it lies in the profile's
// checkout or in the project (as a repo_file include may), links
// resolved; one that leaves them (absolute, climbing out, or through a
// link) is left out with a warning, as prompt includes are. The user's
// own profile may name any path.
func TestSyncedSkillPathsStayInTheCheckout(t *testing.T) {
	t.Parallel()
	doc := "id: eng\ncontrols:\n  skills:\n    - " + home + "/.ssh\n    - <checkout>/team/shared/own\n    - skills/linked\n    - ../../../../../.ssh\n    - tools/skill\n    - ./../h/.ssh/x\n"
	entries := map[string]string{
		home + "/.ssh/SKILL.md": "x",
	}
	dir, err := resolve.SourceDirectory(home, syncedTeam)
	must(t, err)
	entries[dir+"/shared/own/SKILL.md"] = "---\nname: own\n---\n"
	entries[dir+"/skills/linked"] = "-> " + home + "/.ssh"
	entries[project+"/tools/skill/SKILL.md"] = "x"
	got, checkout := syncedProfileWorld(t, "", false, doc, entries)
	if want := []string{checkout + "/team/shared/own", "tools/skill"}; !slices.Equal(argsAfter(got, "--skill"), want) {
		t.Errorf("--skill %q, want %q", argsAfter(got, "--skill"), want)
	}
	wantWarnings(t, got.Warnings, "'"+home+"/.ssh'", "'skills/linked'", "'../../../../../.ssh'", "'./../h/.ssh/x'")

	own, _ := syncedProfileWorld(t, "", true, "id: eng\ncontrols:\n  skills:\n    - "+home+"/.ssh\n", map[string]string{home + "/.ssh/SKILL.md": "x"})
	if want := []string{home + "/.ssh"}; !slices.Equal(argsAfter(own, "--skill"), want) {
		t.Errorf("the user's own profile: --skill %q, want %q", argsAfter(own, "--skill"), want)
	}
	wantWarnings(t, own.Warnings)
}

// TestSyncedExtensionPathsStayInTheCheckout: an extension path a synced
// profile declares is passed to pi (--extension) only when it lies in the
// profile's checkout or in the project, links resolved; one that leaves
// them (absolute, file:, climbing out of the working directory, or
// through a link) is left out with a warning. npm and git sources are not
// paths and pass; the user's own profile may name any path.
func TestSyncedExtensionPathsStayInTheCheckout(t *testing.T) {
	t.Parallel()
	dir, err := resolve.SourceDirectory(home, syncedTeam)
	must(t, err)
	doc := "id: eng\ncontrols:\n  pi:\n    extensions:\n      - " + home + "/.ssh/evil.js\n" +
		"      - <checkout>/team/ext/own.js\n      - <checkout>/team/ext/linked.js\n      - file:" + home + "/.ssh/evil.js\n" +
		"      - ./tool.js\n      - ./../h/.ssh/evil2.js\n      - npm:pi-subagents@2\n      - github:acme/ext\n  extensions:\n    - ../h/.ssh/other.js\n"
	entries := map[string]string{
		home + "/.ssh/evil.js": "x",
		project + "/tool.js":   "x",
		dir + "/ext/own.js":    "x",
		dir + "/ext/linked.js": "-> " + home + "/.ssh/evil.js",
	}
	got, checkout := syncedProfileWorld(t, "", false, doc, entries)
	// The git source is its checkout in the extension cache.
	gitDir := home + "/.outfitter/cache/extensions/git/"
	ext := argsAfter(got, "--extension")
	if n := len(ext); n > 0 && strings.HasPrefix(ext[n-1], gitDir) {
		ext[n-1] = gitDir + "…"
	}
	if want := []string{checkout + "/team/ext/own.js", "./tool.js", "npm:pi-subagents@2", gitDir + "…"}; !slices.Equal(ext, want) {
		t.Errorf("--extension %q, want %q", ext, want)
	}
	wantWarnings(t, got.Warnings, "'"+home+"/.ssh/evil.js'", "'"+checkout+"/team/ext/linked.js'", "'file:"+home+"/.ssh/evil.js'", "'./../h/.ssh/evil2.js'", "'../h/.ssh/other.js'")

	own, _ := syncedProfileWorld(t, "", true, "id: eng\ncontrols:\n  extensions:\n    - "+home+"/.ssh/evil.js\n", map[string]string{home + "/.ssh/evil.js": "x"})
	if want := []string{home + "/.ssh/evil.js"}; !slices.Equal(argsAfter(own, "--extension"), want) {
		t.Errorf("the user's own profile: --extension %q, want %q", argsAfter(own, "--extension"), want)
	}
	wantWarnings(t, own.Warnings)
}

// TestSyncedSessionDirectoryIsNotUsed: a session_directory only synced
// profiles declare decides where the agent writes its sessions, which
// synced content never chooses (as a synced settings file sets no
// cache_directory): it is not used, with a warning, whether it leads out
// of the checkout or into it. Claude's projects/ keeps the source it has
// without it (~/.claude/projects here), and pi gets no --session-dir.
// The user's own profile sets it as upstream does.
func TestSyncedSessionDirectoryIsNotUsed(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{home + "/.ssh", "<checkout>/sessions", "./sessions"} {
		doc := "id: eng\ncontrols:\n  session_directory: " + dir + "\n"
		claude, _ := syncedProfileWorld(t, "claude", false, doc, nil)
		if got, want := sourceOf(claude, "projects/").SourcePath, home+"/.claude/projects"; got != want {
			t.Errorf("session_directory %s: claude's projects/ source = %s, want %s", dir, got, want)
		}
		wantWarnings(t, claude.Warnings, "session_directory")
		pi, _ := syncedProfileWorld(t, "", false, doc, nil)
		if got := argsAfter(pi, "--session-dir"); len(got) != 0 {
			t.Errorf("session_directory %s: pi --session-dir %q, want none", dir, got)
		}
		wantWarnings(t, pi.Warnings, "session_directory")
	}
	doc := "id: eng\ncontrols:\n  session_directory: " + home + "/sessions\n"
	claude, _ := syncedProfileWorld(t, "claude", true, doc, nil)
	if got, want := sourceOf(claude, "projects/").SourcePath, home+"/sessions"; got != want {
		t.Errorf("the user's own profile: claude's projects/ source = %s, want %s", got, want)
	}
	wantWarnings(t, claude.Warnings)
	pi, _ := syncedProfileWorld(t, "", true, doc, nil)
	if got, want := argsAfter(pi, "--session-dir"), []string{home + "/sessions"}; !slices.Equal(got, want) {
		t.Errorf("the user's own profile: pi --session-dir %q, want %q", got, want)
	}
}

// TestSyncedPluginDirsStayInTheCheckout: Claude's --plugin-dir, the
// extensions of its controls, follows the rule pi's --extension follows.
func TestSyncedPluginDirsStayInTheCheckout(t *testing.T) {
	t.Parallel()
	dir, err := resolve.SourceDirectory(home, syncedTeam)
	must(t, err)
	doc := "id: eng\ncontrols:\n  extensions:\n    - " + home + "/.ssh\n    - <checkout>/team/plugin\n    - plugins/local\n"
	got, checkout := syncedProfileWorld(t, "claude", false, doc, map[string]string{dir + "/plugin/x": "x", home + "/.ssh/x": "x"})
	if want := []string{checkout + "/team/plugin", "plugins/local"}; !slices.Equal(argsAfter(got, "--plugin-dir"), want) {
		t.Errorf("--plugin-dir %q, want %q", argsAfter(got, "--plugin-dir"), want)
	}
	wantWarnings(t, got.Warnings, "'"+home+"/.ssh'")
}

// TestSyncedFolderSkillsStayInTheCheckout: a skill pi finds in a synced
// profile folder's skills (or cli_specific/pi/skills) is passed to pi
// only when no link in it leads out of the checkout; one that ships such
// a link is left out with a warning, as a synced catalog skill is refused.
func TestSyncedFolderSkillsStayInTheCheckout(t *testing.T) {
	t.Parallel()
	dir, err := resolve.SourceDirectory(home, syncedTeam)
	must(t, err)
	folder := dir + "/eng"
	got, _ := syncedProfileWorld(t, "", false, "id: eng\n", map[string]string{
		folder + "/skills/good/SKILL.md":                  "x",
		folder + "/skills/good/ref.md":                    "-> ../../shared.md",
		folder + "/shared.md":                             "x",
		folder + "/skills/bad/SKILL.md":                   "x",
		folder + "/skills/bad/refs/key.md":                "-> " + home + "/.ssh/config",
		folder + "/cli_specific/pi/skills/worse/SKILL.md": "-> " + home + "/.ssh/config",
	})
	if want := []string{folder + "/skills/good"}; !slices.Equal(argsAfter(got, "--skill"), want) {
		t.Errorf("--skill %q, want %q", argsAfter(got, "--skill"), want)
	}
	wantWarnings(t, got.Warnings, folder+"/skills/bad/refs/key.md", folder+"/cli_specific/pi/skills/worse/SKILL.md")
}
