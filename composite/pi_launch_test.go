package composite_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
)

func cacheDir(entry string) string {
	sum := sha256.Sum256([]byte(entry))
	return home + "/.outfitter/cache/extensions/git/" + hex.EncodeToString(sum[:])[:16]
}

// TestPiCheckouts parses the git extension entries as upstream does: the
// entry is trimmed to be recognized, the cache directory is named after
// the entry as written.
func TestPiCheckouts(t *testing.T) {
	t.Parallel()
	entries := []string{
		"npm:pi-subagents@2",
		"./local-ext",
		"/abs/ext",
		"file:/x",
		"github:acme/ext",
		"github:acme/pinned.git#v1",
		"  git+file:///srv/ext.git#main  ",
		"git:github.com/acme/other",
		"git:ssh.example/x",
		"https://example.com/e.git#",
		"git@example.com:acme/e.git",
		"plain-name",
	}
	var yaml strings.Builder
	for _, e := range entries {
		yaml.WriteString("    - " + resolve.StableJSON(e) + "\n")
	}
	w := world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  pi:\n    extensions:\n" + yaml.String()}}
	_, r := w.mustPlan(t)
	want := []composite.Checkout{
		{Source: "github:acme/ext", URL: "https://github.com/acme/ext.git", Dir: cacheDir("github:acme/ext")},
		{Source: "github:acme/pinned.git#v1", URL: "https://github.com/acme/pinned.git", Ref: "v1", Pinned: true, Dir: cacheDir("github:acme/pinned.git#v1")},
		{Source: "  git+file:///srv/ext.git#main  ", URL: "file:///srv/ext.git", Ref: "main", Pinned: true, Dir: cacheDir("  git+file:///srv/ext.git#main  ")},
		{Source: "git:github.com/acme/other", URL: "https://github.com/acme/other.git", Dir: cacheDir("git:github.com/acme/other")},
		{Source: "git:ssh.example/x", URL: "ssh.example/x", Dir: cacheDir("git:ssh.example/x")},
		{Source: "https://example.com/e.git#", URL: "https://example.com/e.git", Pinned: true, Dir: cacheDir("https://example.com/e.git#")},
		{Source: "git@example.com:acme/e.git", URL: "git@example.com:acme/e.git", Dir: cacheDir("git@example.com:acme/e.git")},
	}
	if diff := cmp.Diff(want, r.Checkouts()); diff != "" {
		t.Errorf("checkouts (-want +got):\n%s", diff)
	}
	var exts []string
	for i, a := range r.Plan.Args {
		if a == "--extension" {
			exts = append(exts, r.Plan.Args[i+1])
		}
	}
	wantExts := []string{"npm:pi-subagents@2", "./local-ext", "/abs/ext", "file:/x"}
	for _, c := range want[:4] {
		wantExts = append(wantExts, c.Dir)
	}
	wantExts = append(wantExts, want[4].Dir, want[5].Dir, want[6].Dir, "plain-name")
	if diff := cmp.Diff(wantExts, exts); diff != "" {
		t.Errorf("--extension values (-want +got):\n%s", diff)
	}
}

func TestStampPiExtension(t *testing.T) {
	t.Parallel()
	src := strings.Join([]string{
		`const H = "__OUTFITTER_HOME__";`,
		`const P = "__OUTFITTER_PROJECT__";`,
		`const D = "__OUTFITTER_DEFAULT_PROFILES_PATH__";`,
		`const S = "__OUTFITTER_SETUP_SOURCE_URI__";`,
		`const O = "__OUTFITTER_AUTO_OPEN__";`,
		`const A = "__OUTFITTER_ACTIVE_PROFILE__";`,
		`const T = "__OUTFITTER_DEFAULT_SETTINGS_TEMPLATE__";`,
		`const B = "__OUTFITTER_STARTUP_ASCII_ART__";`,
		`const R = "__OUTFITTER_ASCII_ART__";`,
		`const again = "__OUTFITTER_HOME__";`,
	}, "\n")
	label := "Eng <team>"
	got := composite.StampPiExtension(src, composite.PiRuntimeValues{
		Home: "/h", Project: `/p "q"`, ProfileID: "eng", ProfileLabel: &label,
		StartupASCIIArt: true, ASCIIArt: "AB\nCD",
	})
	want := strings.Join([]string{
		`const H = "/h";`,
		`const P = "/p \"q\"";`,
		`const D = undefined;`,
		`const S = undefined;`,
		`const O = false;`,
		`const A = {"id":"eng","label":"Eng <team>"};`,
		`const T = "default_profile: __OUTFITTER_PROFILE_ID__\nprofile_sources:\n  - github: ai-outfitter/default-profiles\n    path: profiles\n  - path: ./profiles\n";`,
		`const B = true;`,
		`const R = "AB\nCD";`,
		`const again = "__OUTFITTER_HOME__";`,
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stamped (-want +got):\n%s", diff)
	}
}

// TestStampPiExtensionOnboarding checks the values of an onboarding
// launch without a profile: the profile undefined, the optional paths and
// auto-open present, the art off.
func TestStampPiExtensionOnboarding(t *testing.T) {
	t.Parallel()
	src := `A = "__OUTFITTER_ACTIVE_PROFILE__"; D = "__OUTFITTER_DEFAULT_PROFILES_PATH__"; S = "__OUTFITTER_SETUP_SOURCE_URI__"; O = "__OUTFITTER_AUTO_OPEN__"; B = "__OUTFITTER_STARTUP_ASCII_ART__"; R = "__OUTFITTER_ASCII_ART__";`
	got := composite.StampPiExtension(src, composite.PiRuntimeValues{
		DefaultProfilesPath: "/h/.outfitter/cache/d\\p", SetupSourceURI: "github:o/r", AutoOpen: true,
	})
	want := `A = undefined; D = "/h/.outfitter/cache/d\\p"; S = "github:o/r"; O = true; B = false; R = "";`
	if got != want {
		t.Errorf("stamped %s, want %s", got, want)
	}
}

// TestStampPiExtensionInOrder checks that each value replaces the first
// literal of the text stamped so far, as upstream's successive replace
// calls do: a profile id spelled like a later literal is stamped over.
func TestStampPiExtensionInOrder(t *testing.T) {
	t.Parallel()
	src := `A = "__OUTFITTER_ACTIVE_PROFILE__"; R = "__OUTFITTER_ASCII_ART__";`
	got := composite.StampPiExtension(src, composite.PiRuntimeValues{ProfileID: "__OUTFITTER_ASCII_ART__", ASCIIArt: "art"})
	want := `A = {"id":"art"}; R = "__OUTFITTER_ASCII_ART__";`
	if got != want {
		t.Errorf("stamped %s, want %s", got, want)
	}
}

// TestPiFinishLaunchStampsTheExtension checks the values an interactive
// launch stamps into the extension it writes.
func TestPiFinishLaunchStampsTheExtension(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\nlabel: Engineering\n"}}
	w.files = map[string]string{home + "/.outfitter/settings.yml": "default_profile: eng\nprofile_sources:\n  - path: ./profiles\nstartup:\n  ascii_art: false\n"}
	fsys, r := w.mustPlan(t)
	if _, err := r.Materialize(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Launch(); err != nil {
		t.Fatal(err)
	}
	data, err := fsys.ReadFile(r.Composite.Root + "/outfitter/outfitter-extension.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`const OUTFITTER_HOME = "/h";`,
		`const OUTFITTER_PROJECT = "/p";`,
		`const OUTFITTER_DEFAULT_PROFILES_PATH = undefined;`,
		`const OUTFITTER_AUTO_OPEN = false;`,
		`const OUTFITTER_ACTIVE_PROFILE = {"id":"eng","label":"Engineering"};`,
		`const OUTFITTER_STARTUP_ASCII_ART = false;`,
		`const OUTFITTER_ASCII_ART = "OUTFITTER (simulation stand-in)";`,
	} {
		if !strings.Contains(string(data), line+"\n") {
			t.Errorf("extension lacks %s:\n%s", line, data)
		}
	}
}

// TestPiLoginNotice checks when an interactive launch prints the /login
// notice: unless auth.json or models.json, read through the composite's
// links, holds configured entries.
func TestPiLoginNotice(t *testing.T) {
	t.Parallel()
	agent := home + "/.pi/agent/"
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		notice bool
	}{
		{name: "no state", notice: true},
		{name: "empty auth", files: map[string]string{agent + "auth.json": "{}"}, notice: true},
		{name: "auth entry", files: map[string]string{agent + "auth.json": `{"anthropic":{"key":"k"}}`}},
		{name: "auth not JSON", files: map[string]string{agent + "auth.json": "{"}, notice: true},
		{name: "models with empty providers", files: map[string]string{agent + "models.json": `{"providers":{},"other":1}`}, notice: true},
		{name: "models with a provider", files: map[string]string{agent + "models.json": `{"providers":{"p":{}}}`}},
		{name: "empty models container, filled providers", files: map[string]string{agent + "models.json": `{"models":[],"providers":{"p":1}}`}},
		{name: "a non-empty array", files: map[string]string{agent + "models.json": `[1]`}},
		{name: "an empty array", files: map[string]string{agent + "models.json": `[]`}, notice: true},
		{name: "an empty models array alone", files: map[string]string{agent + "models.json": `{"models":[]}`}, notice: true},
		{name: "a string", files: map[string]string{agent + "models.json": `"x"`}, notice: true},
		{name: "non-interactive", args: []string{"-p", "hi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"eng": "id: eng\n"}, files: tt.files, passThrough: tt.args}
			_, r := w.mustPlan(t)
			if _, err := r.Materialize(); err != nil {
				t.Fatal(err)
			}
			_, notices, err := r.Launch()
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			if tt.notice {
				want = []string{"Outfitter will ask Pi to open `/login` automatically if Pi reports no available models after startup."}
			}
			if diff := cmp.Diff(want, notices); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPiLoginStateUnreadable: a login state file that exists but cannot
// be read (a directory) fails the launch with upstream's message.
func TestPiLoginStateUnreadable(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\nstate_persistence:\n  models.json: warn\n"}}
	fsys, r := w.mustPlan(t)
	if _, err := r.Materialize(); err != nil {
		t.Fatal(err)
	}
	must(t, fsys.MkdirAll(r.Composite.Root+"/models.json", 0o755))
	_, _, err := r.Launch()
	le, ok := errors.AsType[*composite.LoginStateError](err)
	if !ok || le.Path != r.Composite.Root+"/models.json" || !strings.HasPrefix(err.Error(), "Could not read pi login state file '"+le.Path+"': Error: ") {
		t.Errorf("Launch error %v, want a *LoginStateError naming models.json", err)
	}
}

// TestPiOnboardingQuietStartup: an onboarding launch merges quietStartup
// into settings.json through the link, so the durable pi settings keep
// their keys and gain it.
func TestPiOnboardingQuietStartup(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, before, want string
		left               bool // the file is left as it was, with a notice
	}{
		{"existing object", `{"theme":"dark","quietStartup":false,"z":1}`, "{\n  \"theme\": \"dark\",\n  \"quietStartup\": true,\n  \"z\": 1\n}\n", false},
		{"empty", ` `, "{\n  \"quietStartup\": true\n}\n", false},
		{"not JSON", `{"theme":`, `{"theme":`, true},
		{"an array", `[1]`, `[1]`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"eng": "id: eng\n"}, files: map[string]string{home + "/.pi/agent/settings.json": tt.before}}
			fsys := w.newFS(t)
			res, err := resolve.Load(fsys, resolve.Options{Home: home, Project: project, Agents: composite.DefaultRegistry().Agents()})
			must(t, err)
			r, err := composite.Plan(fsys, composite.Request{Result: res, Onboarding: &composite.Onboarding{DefaultProfilesPath: "/d"}}, composite.Options{NoSweep: true})
			must(t, err)
			if _, err := r.Materialize(); err != nil {
				t.Fatal(err)
			}
			_, notices, err := r.Launch()
			if err != nil {
				t.Fatal(err)
			}
			data, err := fsys.ReadFile(home + "/.pi/agent/settings.json")
			if err != nil || string(data) != tt.want {
				t.Errorf("durable settings = %q, %v; want %q", data, err, tt.want)
			}
			skipped := fmt.Sprintf(composite.QuietStartupSkipped, r.Composite.Root+"/settings.json")
			if got := slices.Contains(notices, skipped); got != tt.left {
				t.Errorf("notices %q: holds %q = %v, want %v", notices, skipped, got, tt.left)
			}
			if names := dirNames(t, fsys, home+"/.pi/agent"); slices.Contains(names, ".settings.json.lock") {
				t.Errorf("the settings lock file is left behind: %q", names)
			}
			ext, _ := fsys.ReadFile(r.Composite.Root + "/outfitter/outfitter-extension.js")
			for _, line := range []string{`const OUTFITTER_DEFAULT_PROFILES_PATH = "/d";`, `const OUTFITTER_AUTO_OPEN = true;`} {
				if !strings.Contains(string(ext), line) {
					t.Errorf("extension lacks %s", line)
				}
			}
		})
	}
}

// TestWatchPaths lists the inputs of the generated files once each, in
// first-seen order, without the bundled assets' relative names.
func TestWatchPaths(t *testing.T) {
	t.Parallel()
	c := &composite.Composite{Files: []composite.File{
		{SourceInputs: []string{"/h/p.yml", "skills/outfitter/SKILL.md"}},
		{SourceInputs: []string{"/h/k.json", "/h/p.yml"}},
	}}
	if diff := cmp.Diff([]string{"/h/p.yml", "/h/k.json"}, c.WatchPaths()); diff != "" {
		t.Errorf("watch paths (-want +got):\n%s", diff)
	}
}

// TestStampPiExtensionAtTheStart: a literal that opens the text is
// stamped like any other.
func TestStampPiExtensionAtTheStart(t *testing.T) {
	t.Parallel()
	got := composite.StampPiExtension(`"__OUTFITTER_HOME__" + "__OUTFITTER_PROJECT__"`, composite.PiRuntimeValues{Home: "/h", Project: "/p"})
	if want := `"/h" + "/p"`; got != want {
		t.Errorf("stamped %s, want %s", got, want)
	}
}
