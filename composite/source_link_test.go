package composite_test

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// syncedTeam is the synced profile repository of these tests, a github
// source with the subpath team; its checkout lies in the repository cache.
var syncedTeam = resolve.Source{GitHub: "acme/profiles", Path: "team"}

// syncedWorld is a machine whose settings list a local profile source and
// the synced repository, with the profile eng in the repository (or in
// the local source when local is set), plus files and links (a value
// "-> target") by absolute path; "<checkout>" in a name or a target
// stands for the repository checkout.
func syncedWorld(t *testing.T, local bool, entries map[string]string) (*vfs.MemFS, world, string) {
	t.Helper()
	dir, err := resolve.SourceDirectory(home, syncedTeam)
	must(t, err)
	checkout := strings.TrimSuffix(dir, "/team")
	folder := dir + "/eng"
	if local {
		folder = home + "/.outfitter/profiles/eng"
	}
	w := world{files: map[string]string{
		home + "/.outfitter/settings.yml": "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n  - github: acme/profiles\n    path: team\n",
		folder + "/profile.yml":           "id: eng\n",
		home + "/.ssh/config":             "Host *\n  IdentityFile ~/.ssh/id\n",
		home + "/.ssh/empty":              "",
	}}
	fsys := w.newFS(t)
	must(t, fsys.MkdirAll(home+"/.outfitter/profiles", 0o755))
	for name, v := range entries {
		name = strings.ReplaceAll(name, "<checkout>", checkout)
		name = strings.ReplaceAll(name, "<folder>", folder)
		must(t, fsys.MkdirAll(path.Dir(name), 0o755))
		if target, ok := strings.CutPrefix(v, "-> "); ok {
			must(t, fsys.Symlink(strings.ReplaceAll(target, "<checkout>", checkout), name))
			continue
		}
		must(t, fsys.WriteFile(name, []byte(v), 0o644))
	}
	return fsys, w, checkout
}

// sourceOf returns the planned source of the state path key.
func sourceOf(r *composite.Run, key string) composite.StatePath {
	for _, sp := range r.Composite.StatePaths {
		if sp.RelativePath == key {
			return sp
		}
	}
	return composite.StatePath{}
}

// TestSyncedSourceLinksStayInTheCheckout is finding 3 of the safety
// review: a synced profile repository carrying
// cli_specific/pi/settings.json -> ../…/.ssh/config sent the agent's
// writes into ~/.ssh/config. A state source in a repository checkout whose
// real path leaves the checkout is refused before anything is written.
func TestSyncedSourceLinksStayInTheCheckout(t *testing.T) {
	t.Parallel()
	// From <checkout>/team/eng/cli_specific/pi (the checkout is
	// /h/.outfitter/cache/repos/<key>), nine levels up is /.
	up := strings.Repeat("../", 9)
	tests := []struct {
		name    string
		entries map[string]string
		key     string
		want    *composite.SourceLinkError // nil: allowed, with wantSrc
		wantSrc string
	}{
		{
			name:    "file link out of the checkout",
			entries: map[string]string{"<folder>/cli_specific/pi/settings.json": "-> " + up + "h/.ssh/config"},
			key:     "settings.json",
			want: &composite.SourceLinkError{
				Source: "<folder>/cli_specific/pi/settings.json", Checkout: "<checkout>",
				Link: "<folder>/cli_specific/pi/settings.json", Target: up + "h/.ssh/config", Resolved: home + "/.ssh/config",
			},
		},
		{
			name:    "directory link out of the checkout",
			entries: map[string]string{"<folder>/cli_specific": "-> " + home + "/.ssh", home + "/.ssh/pi/mcp.json": ""},
			key:     "mcp.json",
			want: &composite.SourceLinkError{
				Source: "<folder>/cli_specific/pi/mcp.json", Checkout: "<checkout>",
				Link: "<folder>/cli_specific", Target: home + "/.ssh", Resolved: home + "/.ssh/pi/mcp.json",
			},
		},
		{
			name: "link within the checkout, then out",
			entries: map[string]string{
				"<folder>/cli_specific/pi/auth.json": "-> ../../../../shared/auth.json",
				"<checkout>/shared/auth.json":        "-> " + home + "/.ssh/config",
			},
			key: "auth.json",
			want: &composite.SourceLinkError{
				Source: "<folder>/cli_specific/pi/auth.json", Checkout: "<checkout>",
				Link: "<folder>/cli_specific/pi/auth.json", Target: "../../../../shared/auth.json", Resolved: home + "/.ssh/config",
			},
		},
		{
			name: "directory link within the checkout, then a file link out",
			entries: map[string]string{
				"<folder>/cli_specific":                      "-> ../../shared/cli_specific",
				"<checkout>/shared/cli_specific/pi/mcp.json": "-> " + home + "/.ssh/config",
			},
			key: "mcp.json",
			want: &composite.SourceLinkError{
				Source: "<folder>/cli_specific/pi/mcp.json", Checkout: "<checkout>",
				Link: "<folder>/cli_specific/pi/mcp.json", Target: home + "/.ssh/config", Resolved: home + "/.ssh/config",
			},
		},
		{
			name: "link within the checkout",
			entries: map[string]string{
				"<folder>/cli_specific/pi/auth.json": "-> ../../../../shared/auth.json",
				"<checkout>/shared/auth.json":        "{}",
			},
			key:     "auth.json",
			wantSrc: "<folder>/cli_specific/pi/auth.json",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys, w, checkout := syncedWorld(t, false, tt.entries)
			folder, _ := resolve.SourceDirectory(home, syncedTeam)
			folder += "/eng"
			expand := func(s string) string {
				return strings.ReplaceAll(strings.ReplaceAll(s, "<folder>", folder), "<checkout>", checkout)
			}
			before := vfstest.Snapshot(t, fsys, "/")
			r, err := w.plan(t, fsys)
			if tt.want == nil {
				must(t, err)
				// The agent never writes into the checkout: the source is
				// its state copy, made from the checkout's.
				seed := expand(tt.wantSrc)
				wantSrc, wantFolder := resolve.SyncedState(home, seed), resolve.SyncedState(home, folder)
				if got := sourceOf(r, tt.key); got.Seed != seed || got.SourcePath != wantSrc || got.Folder != wantFolder {
					t.Errorf("state path %s = %+v, want source %s in folder %s, seeded from %s", tt.key, got, wantSrc, wantFolder, seed)
				}
				return
			}
			var le *composite.SourceLinkError
			if !errors.As(err, &le) {
				t.Fatalf("plan = %v, want a *SourceLinkError", err)
			}
			want := *tt.want
			want.Source, want.Checkout, want.Link = expand(want.Source), expand(want.Checkout), expand(want.Link)
			if diff := cmp.Diff(&want, le); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			for _, s := range []string{le.Link, le.Target} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message %q does not name %s", err, s)
				}
			}
			vfstest.WantUnchanged(t, fsys, "/", before, "the refused plan changed the machine")
		})
	}
}

// TestLocalSourceLinksAreTheUsers: in a local profile source, a state
// source that links out of the profile folder is the user's own link and
// is used, as upstream uses it.
func TestLocalSourceLinksAreTheUsers(t *testing.T) {
	t.Parallel()
	fsys, w, _ := syncedWorld(t, true, map[string]string{"<folder>/cli_specific/pi/auth.json": "-> " + home + "/dotfiles/auth.json", home + "/dotfiles/auth.json": "{}"})
	r, err := w.plan(t, fsys)
	must(t, err)
	folder := home + "/.outfitter/profiles/eng"
	if got := sourceOf(r, "auth.json"); got.SourcePath != folder+"/cli_specific/pi/auth.json" || got.Folder != folder {
		t.Errorf("auth.json = %+v, want the profile-owned source", got)
	}
}

// TestBlankSourceResetStaysInTheProfileFolder: the blank-source reset
// (an empty mcp.json made {}) never writes through a link that leads out
// of the profile folder the source was found in; a link inside the folder
// and native sources are reset as upstream resets them.
func TestBlankSourceResetStaysInTheProfileFolder(t *testing.T) {
	t.Parallel()
	folder := home + "/.outfitter/profiles/eng"
	tests := []struct {
		name    string
		entries map[string]string
		file    string // the file the link leads to
		want    string // its content after materialization
		warning string // a substring of the one warning, "" for none
	}{
		{
			name:    "link out of the profile folder",
			entries: map[string]string{"<folder>/cli_specific/pi/mcp.json": "-> ../../../../../.ssh/empty"},
			file:    home + "/.ssh/empty", want: "",
			warning: "State source path '" + folder + "/cli_specific/pi/mcp.json' is blank and was not reset",
		},
		{
			name:    "directory link out of the profile folder",
			entries: map[string]string{"<folder>/cli_specific/pi": "-> " + home + "/elsewhere", home + "/elsewhere/models.json": " \n"},
			file:    home + "/elsewhere/models.json", want: " \n",
			warning: "out of profile folder '" + folder + "' (to '" + home + "/elsewhere/models.json')",
		},
		{
			name:    "link inside the profile folder",
			entries: map[string]string{"<folder>/cli_specific/pi/mcp.json": "-> ../../shared/mcp.json", "<folder>/shared/mcp.json": ""},
			file:    folder + "/shared/mcp.json", want: "{}\n",
		},
		{
			name:    "native source through the user's link",
			entries: map[string]string{home + "/.pi/agent/trust.json": "-> ../../dotfiles/trust.json", home + "/dotfiles/trust.json": ""},
			file:    home + "/dotfiles/trust.json", want: "{}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys, w, _ := syncedWorld(t, true, tt.entries)
			r, err := w.plan(t, fsys)
			must(t, err)
			warnings, err := r.Materialize()
			must(t, err)
			if got := readFile(t, fsys, tt.file); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.file, got, tt.want)
			}
			switch {
			case tt.warning == "" && len(warnings) != 0:
				t.Errorf("warnings %q, want none", warnings)
			case tt.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tt.warning)):
				t.Errorf("warnings %q, want one containing %q", warnings, tt.warning)
			}
		})
	}
}
