package composite_test

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/aferofs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

const root = "/tmp/outfitter-eng-pi-abcdef"

func memWithRoot(t testing.TB) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	must(t, fsys.MkdirAll(root, 0o700))
	return fsys
}

func TestWriteRefusesEscapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    composite.Composite
		want string
	}{
		{"file above the root", composite.Composite{Files: []composite.File{{RelativePath: "../x"}}},
			"CompositeProfile file output path '/tmp/x' must stay under compositeProfile root '" + root + "'."},
		{"file named ..foo", composite.Composite{Files: []composite.File{{RelativePath: "..foo"}}},
			"CompositeProfile file output path '" + root + "/..foo' must stay under compositeProfile root '" + root + "'."},
		{"file beside the root, named as long", composite.Composite{Files: []composite.File{{RelativePath: "../outfitter-eng-pi-abcdeg"}}},
			"CompositeProfile file output path '/tmp/outfitter-eng-pi-abcdeg' must stay under compositeProfile root '" + root + "'."},
		{"absolute file elsewhere", composite.Composite{Files: []composite.File{{RelativePath: "/etc/x"}}},
			"CompositeProfile file output path '/etc/x' must stay under compositeProfile root '" + root + "'."},
		{"state path above the root", composite.Composite{StatePaths: []composite.StatePath{{RelativePath: "../outside.txt", Strategy: "warn"}}},
			"State path '../outside.txt' must stay under compositeProfile root '" + root + "'."},
		{"state path is the parent", composite.Composite{StatePaths: []composite.StatePath{{RelativePath: "../", Strategy: "warn", Directory: true}}},
			"State path '../' must stay under compositeProfile root '" + root + "'."},
		{"symlink without source", composite.Composite{StatePaths: []composite.StatePath{{RelativePath: "auth.json", Strategy: "symlink"}}},
			"State path 'auth.json' uses symlink without a source path."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := memWithRoot(t)
			c := tt.c
			c.Root = root
			_, err := composite.Write(fsys, &c, composite.WriteOptions{})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestWriteStatePaths(t *testing.T) {
	t.Parallel()
	fsys := memWithRoot(t)
	must(t, fsys.MkdirAll("/src", 0o755))
	must(t, fsys.WriteFile("/src/mcp.json", []byte(" \n"), 0o644))
	must(t, fsys.Symlink("/nowhere", root+"/auth.json"))
	c := &composite.Composite{Root: root,
		Files: []composite.File{{RelativePath: "settings.json", Content: "generated"}, {RelativePath: "outfitter/profile.json", Content: "{}\n"}},
		StatePaths: []composite.StatePath{
			{RelativePath: "auth.json", Strategy: "symlink", SourcePath: "/src/auth.json"},
			{RelativePath: "settings.json", Strategy: "symlink", SourcePath: "/src/settings.json"},
			{RelativePath: "mcp.json", Strategy: "symlink", SourcePath: "/src/mcp.json"},
			{RelativePath: "models.json", Strategy: "symlink", SourcePath: "/src/models.json"},
			{RelativePath: "trust.json", Strategy: "prompt", SourcePath: "/src/trust.json"},
			{RelativePath: "plugins/", Strategy: "symlink", SourcePath: "/src/plugins", Directory: true},
			{RelativePath: "..cache", Strategy: "warn"},
			{RelativePath: "logs/cache/", Strategy: "warn", Directory: true},
			{RelativePath: "sessions/", Strategy: "discard", Directory: true},
			{RelativePath: "unknown", Strategy: "warn"},
		}}
	warnings, err := composite.Write(fsys, c, composite.WriteOptions{})
	must(t, err)
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
	wantTypeAndText(t, fsys, root, map[string]string{
		"auth.json":              "symlink /src/auth.json",
		"settings.json":          "symlink /src/settings.json",
		"mcp.json":               "symlink /src/mcp.json",
		"models.json":            "symlink /src/models.json",
		"plugins":                "symlink /src/plugins",
		"logs":                   "dir ",
		"logs/cache":             "dir ",
		"sessions":               "dir ",
		"outfitter":              "dir ",
		"outfitter/profile.json": "file {}\n",
	})
	wantTypeAndText(t, fsys, "/src", map[string]string{
		"auth.json":     "file ",
		"settings.json": "file ",
		"mcp.json":      "file {}\n",
		"models.json":   "file {\"providers\":{}}\n",
		"plugins":       "dir ",
	})
}

// TestWriteRelativeStateSource: a relative source path is linked as
// written and ensured against the working directory, as upstream's
// symlinkSync and its source check against the process's directory do.
func TestWriteRelativeStateSource(t *testing.T) {
	t.Parallel()
	fsys := memWithRoot(t)
	must(t, fsys.MkdirAll("/work", 0o755))
	c := &composite.Composite{Root: root, StatePaths: []composite.StatePath{
		{RelativePath: "notes.md", Strategy: "symlink", SourcePath: "state/notes.md"},
	}}
	_, err := composite.Write(fsys, c, composite.WriteOptions{Cwd: "/work"})
	must(t, err)
	wantTypeAndText(t, fsys, "/", map[string]string{
		"tmp":                                  "dir ",
		"tmp/outfitter-eng-pi-abcdef":          "dir ",
		"tmp/outfitter-eng-pi-abcdef/notes.md": "symlink state/notes.md",
		"work":                                 "dir ",
		"work/state":                           "dir ",
		"work/state/notes.md":                  "file ",
	})
}

// wantTypeAndText fails the test unless the tree below dir is want, each
// entry described by typeAndText.
func wantTypeAndText(t *testing.T, fsys vfs.FS, dir string, want map[string]string) {
	t.Helper()
	if diff := cmp.Diff(want, typeAndText(vfstest.Snapshot(t, fsys, dir))); diff != "" {
		t.Errorf("tree below %s (-want +got):\n%s", dir, diff)
	}
}

// typeAndText describes each entry of tree as its type, a space, and its
// link target or file content.
func typeAndText(tree vfs.Tree) map[string]string {
	out := map[string]string{}
	for p, e := range tree {
		out[p] = string(e.Type) + " " + e.Target + string(e.Data)
	}
	return out
}

func TestEnsureSourceMismatch(t *testing.T) {
	t.Parallel()
	fsys := memWithRoot(t)
	must(t, fsys.MkdirAll("/src/dir", 0o755))
	must(t, fsys.WriteFile("/src/file", nil, 0o644))
	tests := []struct {
		name, source string
		directory    bool
		want         string
	}{
		{"file where a directory is declared", "/src/file", true, "State source path '/src/file' must be a directory."},
		{"directory where a file is declared", "/src/dir", false, "State source path '/src/dir' must be a file."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := composite.EnsureSource(fsys, composite.StatePath{SourcePath: tt.source, Directory: tt.directory})
			var se *composite.StateError
			if !errors.As(err, &se) || err.Error() != tt.want {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestWriteRealDirectoryAtSymlinkOutput(t *testing.T) {
	t.Parallel()
	fsys := memWithRoot(t)
	must(t, fsys.MkdirAll(root+"/plugins", 0o755))
	c := &composite.Composite{Root: root, StatePaths: []composite.StatePath{{RelativePath: "plugins/", Strategy: "symlink", SourcePath: "/src/plugins", Directory: true}}}
	_, err := composite.Write(fsys, c, composite.WriteOptions{})
	var we *composite.WriteError
	if !errors.As(err, &we) || !errors.Is(err, vfs.ErrIsDir) {
		t.Fatalf("error %v, want a *WriteError wrapping EISDIR", err)
	}
	if _, err := fsys.Stat("/src/plugins"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the source was created before the failure: %v", err)
	}
}

func TestWriteReplacesFileAndLinkAtOutput(t *testing.T) {
	t.Parallel()
	fsys := memWithRoot(t)
	must(t, fsys.WriteFile(root+"/auth.json", []byte("stale"), 0o644))
	must(t, fsys.MkdirAll("/old", 0o755))
	must(t, fsys.Symlink("/old", root+"/plugins"))
	c := &composite.Composite{Root: root, StatePaths: []composite.StatePath{
		{RelativePath: "auth.json", Strategy: "symlink", SourcePath: "/src/auth.json"},
		{RelativePath: "plugins/", Strategy: "symlink", SourcePath: "/src/plugins", Directory: true},
	}}
	if _, err := composite.Write(fsys, c, composite.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for out, target := range map[string]string{root + "/auth.json": "/src/auth.json", root + "/plugins": "/src/plugins"} {
		if got, err := fsys.ReadLink(out); err != nil || got != target {
			t.Errorf("%s: link to %q (%v), want %q", out, got, err, target)
		}
	}
	if fi, err := fsys.Stat("/src/plugins"); err != nil || !fi.IsDir() {
		t.Errorf("directory source not created: %v", err)
	}
	if _, err := fsys.Stat("/old"); err != nil {
		t.Errorf("the replaced link's target was touched: %v", err)
	}
}

func TestCopyFallbackWithoutSymlinks(t *testing.T) {
	t.Parallel()
	fsys, ok := aferofs.ToVFS(afero.NewMemMapFs()).(composite.FS)
	if !ok {
		t.Fatal("the afero adapter lacks a capability materialization needs")
	}
	must(t, fsys.MkdirAll(root, 0o700))
	must(t, fsys.MkdirAll("/src/plugins", 0o755))
	must(t, fsys.WriteFile("/src/plugins/p.json", []byte("p"), 0o644))
	c := &composite.Composite{Root: root, StatePaths: []composite.StatePath{
		{RelativePath: "plugins/", Strategy: "symlink", SourcePath: "/src/plugins", Directory: true},
		{RelativePath: "auth.json", Strategy: "symlink", SourcePath: "/src/auth.json"},
	}}
	warnings, err := composite.Write(fsys, c, composite.WriteOptions{})
	must(t, err)
	want := []string{
		"State path 'plugins/' could not be symlinked (symlinks are unavailable on this platform); copied '/src/plugins' instead, so writes to it will not persist back.",
		"State path 'auth.json' could not be symlinked (symlinks are unavailable on this platform); copied '/src/auth.json' instead, so writes to it will not persist back.",
	}
	checkWarnings(t, want, warnings)
	if got := readFile(t, fsys, root+"/plugins/p.json"); got != "p" {
		t.Errorf("copied file %q", got)
	}
}

func TestCreateRootAndSweep(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	clock := now.Add(-8 * 24 * time.Hour)
	fsys := vfs.NewMemFS(vfs.MemOptions{Clock: func() time.Time { return clock }})
	must(t, fsys.MkdirAll("/tmp/outfitter-old-pi-aaaaaa/link-target-kept", 0o755))
	must(t, fsys.MkdirAll("/durable", 0o755))
	must(t, fsys.WriteFile("/durable/keep", []byte("k"), 0o644))
	must(t, fsys.Symlink("/durable", "/tmp/outfitter-old-pi-aaaaaa/state"))
	must(t, fsys.MkdirAll("/tmp/unrelated-old", 0o755))
	must(t, fsys.Symlink("/durable", "/tmp/outfitter-link"))
	clock = now.Add(-7 * 24 * time.Hour)
	must(t, fsys.MkdirAll("/tmp/outfitter-edge-pi-bbbbbb", 0o755))
	clock = now
	r1, err := composite.CreateRoot(fsys, "/tmp", "eng", "pi", rand.NewChaCha8([32]byte{}))
	must(t, err)
	r2, err := composite.CreateRoot(fsys, "/tmp", "eng", "pi", rand.NewChaCha8([32]byte{}))
	if err == nil && r1 == r2 {
		t.Fatalf("the same suffix was reused: %s", r1)
	}
	if !strings.HasPrefix(r1, "/tmp/outfitter-eng-pi-") || len(r1) != len("/tmp/outfitter-eng-pi-")+6 {
		t.Errorf("root %q", r1)
	}
	removed := composite.Sweep(fsys, "/tmp", now, 0)
	if diff := cmp.Diff([]string{"/tmp/outfitter-old-pi-aaaaaa"}, removed); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	if got := readFile(t, fsys, "/durable/keep"); got != "k" {
		t.Errorf("a link target was touched: %q", got)
	}
	for _, p := range []string{"/tmp/unrelated-old", "/tmp/outfitter-link", "/tmp/outfitter-edge-pi-bbbbbb", r1} {
		if _, err := fsys.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if got := composite.Sweep(fsys, "/missing", now, 0); got != nil {
		t.Errorf("sweep of a missing dir removed %q", got)
	}
}

func TestCleanupKeepsSymlinkTargets(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\n"}}
	fsys, r := w.mustPlan(t)
	_, err := r.Materialize()
	must(t, err)
	must(t, fsys.WriteFile(r.Composite.Root+"/sessions/s.txt", []byte("s"), 0o644))
	must(t, r.Cleanup())
	if _, err := fsys.Lstat(r.Composite.Root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("root survives cleanup: %v", err)
	}
	if got := readFile(t, fsys, home+"/.pi/agent/sessions/s.txt"); got != "s" {
		t.Errorf("durable session %q", got)
	}
}

func TestDebugKeepsRoot(t *testing.T) {
	t.Parallel()
	w := world{passThrough: []string{"--debug", "prompt text"}, profiles: map[string]string{"eng": "id: eng\n"}}
	fsys, r := w.mustPlan(t)
	if !r.KeepRoot {
		t.Fatal("--debug did not keep the root")
	}
	if diff := cmp.Diff([]string{"--debug: keeping composite profile directory " + r.Composite.Root}, r.Messages); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	lp, _, err := r.Launch()
	must(t, err)
	if got := lp.Args[len(lp.Args)-2:]; !cmp.Equal(got, []string{"--debug", "prompt text"}) {
		t.Errorf("pass-through not last: %q", lp.Args)
	}
	must(t, r.Cleanup())
	if _, err := fsys.Stat(r.Composite.Root); err != nil {
		t.Errorf("root removed despite --debug: %v", err)
	}
}

// TestDebugNoticeBeforeFailure checks that Notify gets the --debug notice
// as soon as the root exists, so that a caller prints it before a strict
// failure as upstream does, and that the failed run keeps its root.
func TestDebugNoticeBeforeFailure(t *testing.T) {
	t.Parallel()
	var lines []string
	w := world{passThrough: []string{"--debug"}, strict: true, profiles: map[string]string{"eng": "id: eng\ncontrols:\n  temperature: 1\n"},
		opts: composite.Options{Notify: func(line string) { lines = append(lines, line) }}}
	fsys := w.newFS(t)
	r, err := w.plan(t, fsys)
	if _, ok := errors.AsType[*composite.StrictError](err); !ok || r != nil {
		t.Fatalf("plan: run %v, error %v; want a *StrictError", r, err)
	}
	const prefix = "--debug: keeping composite profile directory "
	if len(lines) != 1 || !strings.HasPrefix(lines[0], prefix) {
		t.Fatalf("notified %q, want the --debug notice", lines)
	}
	if fi, err := fsys.Stat(strings.TrimPrefix(lines[0], prefix)); err != nil || !fi.IsDir() {
		t.Errorf("the root the notice names is not kept: %v", err)
	}
}

func TestNonInteractivePiLaunch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		args        []string
		interactive bool
	}{
		{"plain", []string{"hello"}, true},
		{"print", []string{"--print", "x"}, false},
		{"short print", []string{"-p"}, false},
		{"export", []string{"--export"}, false},
		{"list models", []string{"--list-models"}, false},
		{"mode json", []string{"--mode", "json"}, false},
		{"mode=rpc", []string{"--mode=rpc"}, false},
		{"mode text", []string{"--mode", "text"}, true},
		{"mode without a value", []string{"--mode"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{passThrough: tt.args, profiles: map[string]string{"eng": "id: eng\n"}}
			fsys, r := w.mustPlan(t)
			lp, _, err := r.Launch()
			must(t, err)
			ext := r.Composite.Root + "/outfitter/outfitter-extension.js"
			gotInteractive := lp.Args[0] == "--extension" && lp.Args[1] == ext
			_, statErr := fsys.Stat(ext)
			if gotInteractive != tt.interactive || (statErr == nil) != tt.interactive {
				t.Errorf("interactive %v (extension written: %v), want %v; args %q", gotInteractive, statErr == nil, tt.interactive, lp.Args)
			}
		})
	}
}

func TestTemplates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, label, want, wantErr string
	}{
		{"output and tags", "[[= outfitter.agent ]]/[[% for x in outfitter.custom_settings.teams %]][[= x ]];[[% endfor %]]", "pi/a;b;", ""},
		{"shell brackets untouched", "[[ -f package.json ]]", "[[ -f package.json ]]", ""},
		{"strict variables", "[[= outfitter.missing ]]", "", "Cannot render Outfitter template in compositeProfile file 'outfitter/profile.json': UndefinedVariableError: undefined variable: outfitter.missing, line:3, col:17"},
		{"a filter LiquidJS does not know", "[[= outfitter.agent | nosuchfilter ]]", "", "Cannot render Outfitter template in compositeProfile file 'outfitter/profile.json': ParseError: undefined filter: nosuchfilter, line:3, col:13"},
		{"an unclosed tag", "[[% if true %]]x", "", "Cannot render Outfitter template in compositeProfile file 'outfitter/profile.json': ParseError: tag [[% if true %]] not closed, line:3, col:13"},
		{"filters with arguments, comparisons and whitespace control", "[[%- if outfitter.custom_settings.teams.size >= 2 -%]] [[= outfitter.custom_settings.teams | join | upcase | append: outfitter.custom_settings.teams.size ]] [[%- endif -%]]", "A B2", ""},
		{"raw", "[[% raw %]][[= x ]][[% endraw %]]", "[[= x ]]", ""},
		{"the profile's description and label", "[[= outfitter.profile.description ]]/[[= outfitter.profile.label.size ]]", "Builds things/72", ""},
		{"a local profile source holds only, except and path, as upstream's loader writes it", "[[% for s in outfitter.settings.profile_sources %]][[= s.size ]][[% for k in s %]] [[= k[0] ]][[% endfor %]];[[% endfor %]]", "3 only except path;", ""},
		{"a filter unset is a key with no value", "[[= outfitter.settings.profile_sources[0].only ]]", "", "Cannot render Outfitter template in compositeProfile file 'outfitter/profile.json': UndefinedVariableError: undefined variable: outfitter.settings.profile_sources.0.only, line:3, col:17"},
		{"cache_directory is the settings' own, unset here", "[[= outfitter.settings.cache_directory ]]", "", "Cannot render Outfitter template in compositeProfile file 'outfitter/profile.json': UndefinedVariableError: undefined variable: outfitter.settings.cache_directory, line:3, col:17"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"eng": "id: eng\nlabel: '" + tt.label + "'\ndescription: Builds things\n"},
				files: map[string]string{home + "/.outfitter/settings.yml": "default_profile: eng\nprofile_sources:\n  - path: ./profiles\ncustom_settings:\n  teams: [a, b]\n"}}
			fsys := w.newFS(t)
			r, err := w.plan(t, fsys)
			if tt.wantErr != "" {
				var te *composite.TemplateError
				if !errors.As(err, &te) || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			must(t, err)
			f, _ := file(t, r.Composite, "outfitter/profile.json")
			if !strings.Contains(f.Content, `"label": "`+tt.want+`"`) {
				t.Errorf("profile.json:\n%s\nwant label %q", f.Content, tt.want)
			}
			rendered := strings.Contains(tt.label, "[[=")
			if hasSettings := len(f.SourceInputs) > 0 && f.SourceInputs[len(f.SourceInputs)-1] == home+"/.outfitter/settings.yml"; hasSettings != rendered {
				t.Errorf("settings paths among inputs %v, want %v: %q", hasSettings, rendered, f.SourceInputs)
			}
		})
	}
}

// TestRootCreatedNamesTheRootOfAFailedPlan checks that Options.RootCreated
// learns the composite root before planning, so a caller can write the
// root as a token in the error of a plan that fails and removes it.
func TestRootCreatedNamesTheRootOfAFailedPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		files   map[string]string
		wantErr bool
	}{
		{"planned", nil, false},
		{"failed", map[string]string{home + "/.pi/agent/keybindings.json": "{"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var roots []string
			w := world{profiles: map[string]string{"eng": "id: eng\n"}, files: tt.files}
			w.opts.RootCreated = func(root string) { roots = append(roots, root) }
			fsys := w.newFS(t)
			r, err := w.plan(t, fsys)
			if (err != nil) != tt.wantErr {
				t.Fatalf("plan error %v, want an error: %v", err, tt.wantErr)
			}
			if len(roots) != 1 || !strings.HasPrefix(roots[0], "/tmp/outfitter-eng-pi-") {
				t.Fatalf("RootCreated saw %q, want one root /tmp/outfitter-eng-pi-…", roots)
			}
			if err == nil {
				if r.Composite.Root != roots[0] {
					t.Errorf("RootCreated saw %s, the plan's root is %s", roots[0], r.Composite.Root)
				}
				return
			}
			if _, err := fsys.Lstat(roots[0]); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the root of a failed plan survives: %v", err)
			}
		})
	}
}

// TestPlanSweepsByItsClock: Plan's sweep of stale roots goes by
// Options.Clock when one is given: a root a day older than the clock
// stays, one eight days older goes.
func TestPlanSweepsByItsClock(t *testing.T) {
	t.Parallel()
	then := time.Date(2001, 1, 10, 0, 0, 0, 0, time.UTC)
	w := world{profiles: map[string]string{"eng": "id: eng\n"}}
	fsys := w.newFS(t)
	for name, age := range map[string]time.Duration{"/tmp/outfitter-eng-pi-aaaaaa": 24 * time.Hour, "/tmp/outfitter-eng-pi-bbbbbb": 8 * 24 * time.Hour} {
		must(t, fsys.MkdirAll(name, 0o700))
		must(t, fsys.Chtimes(name, then.Add(-age), then.Add(-age)))
	}
	res := w.resolve(t, fsys)
	r, err := composite.Plan(fsys, composite.Request{Result: res}, composite.Options{Clock: func() time.Time { return then }, Rand: rand.NewChaCha8([32]byte{7})})
	must(t, err)
	if diff := cmp.Diff([]string{"/tmp/outfitter-eng-pi-bbbbbb"}, r.Swept); diff != "" {
		t.Errorf("swept (-want +got):\n%s", diff)
	}
}

// TestRegenerate re-plans a run's files from a fresh resolution: an
// edited profile shows in them, and a fresh plan that cannot compose or
// render fails with the error a first plan would give.
func TestRegenerate(t *testing.T) {
	t.Parallel()
	eng := home + "/.outfitter/profiles/eng"
	tests := []struct {
		name, file, text, want, wantErr string
	}{
		{"an edited model", eng + "/profile.yml", "id: eng\ncontrols:\n  model: edited\n", `"model": "edited"`, ""},
		{"a broken MCP file", eng + "/cli_specific/pi/.mcp.json", "{", "", "Pi MCP config '" + eng + "/cli_specific/pi/.mcp.json' must contain valid JSON."},
		{"a failing template", eng + "/profile.yml", "id: eng\nlabel: '[[= outfitter.missing ]]'\n", "", "Cannot render Outfitter template in compositeProfile file 'outfitter/profile.json': "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := world{profiles: map[string]string{"eng": "id: eng\n"}, agent: "pi"}
			fsys, r := w.mustPlan(t)
			must(t, fsys.MkdirAll(path.Dir(tt.file), 0o755))
			must(t, fsys.WriteFile(tt.file, []byte(tt.text), 0o644))
			files, err := r.Regenerate(w.resolve(t, fsys))
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("Regenerate error %v, want %q…", err, tt.wantErr)
				}
				return
			}
			must(t, err)
			i := slices.IndexFunc(files, func(f composite.File) bool { return f.RelativePath == "outfitter/profile.json" })
			if i < 0 || !strings.Contains(files[i].Content, tt.want) {
				t.Errorf("regenerated files %v lack %s in outfitter/profile.json", files, tt.want)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("Regenerate(nil) did not panic")
		}
	}()
	_, r := world{profiles: map[string]string{"eng": "id: eng\n"}}.mustPlan(t)
	_, _ = r.Regenerate(nil)
}

// TestEnsureSourceExplainsOnMemFS: on a MemFS a source that cannot be
// looked up is reported with the error Stat makes (operation and path),
// not the bare errno of the fast lookup.
func TestEnsureSourceExplainsOnMemFS(t *testing.T) {
	t.Parallel()
	fsys := memWithRoot(t)
	must(t, fsys.WriteFile("/f", nil, 0o644))
	_, err := composite.EnsureSource(fsys, composite.StatePath{RelativePath: "x", Strategy: "symlink", SourcePath: "/f/x"})
	if want := "composite create source /f/x: stat /f/x: not a directory"; err == nil || err.Error() != want {
		t.Errorf("EnsureSource error %v, want %q", err, want)
	}
}

// TestPlanNeverSweepsALiveRoot: a session open for a week whose agent
// never touched its root's top level has a root that looks stale by its
// time; a second session's sweep must leave it, and the old root of a
// session that has ended must still go.
func TestPlanNeverSweepsALiveRoot(t *testing.T) {
	t.Parallel()
	then := time.Date(2001, 1, 10, 0, 0, 0, 0, time.UTC)
	w := world{profiles: map[string]string{"eng": "id: eng\n"}}
	fsys := w.newFS(t)
	res := w.resolve(t, fsys)
	live, err := composite.Plan(fsys, composite.Request{Result: res}, composite.Options{Rand: rand.NewChaCha8([32]byte{1}), NoSweep: true})
	must(t, err)
	root := live.Composite.Root
	must(t, fsys.MkdirAll(root+"/sessions", 0o700))
	week := then.Add(-8 * 24 * time.Hour)
	must(t, fsys.Chtimes(root, week, week))
	ended := "/tmp/outfitter-eng-pi-bbbbbb"
	must(t, fsys.MkdirAll(ended, 0o700))
	must(t, fsys.Chtimes(ended, week, week))
	r, err := composite.Plan(fsys, composite.Request{Result: res}, composite.Options{Clock: func() time.Time { return then }, Rand: rand.NewChaCha8([32]byte{2})})
	must(t, err)
	if diff := cmp.Diff([]string{ended}, r.Swept); diff != "" {
		t.Errorf("swept (-want +got):\n%s", diff)
	}
	if _, err := fsys.Lstat(root + "/sessions"); err != nil {
		t.Errorf("the live session's root was swept: %v", err)
	}
	must(t, live.Cleanup())
	must(t, r.Cleanup())
	// Ended, and kept by --debug: the next sweep removes it by age.
	must(t, fsys.MkdirAll(root, 0o700))
	must(t, fsys.Chtimes(root, week, week))
	if got := composite.Sweep(fsys, "/tmp", then, 0); !slices.Equal(got, []string{root}) {
		t.Errorf("Sweep after the session ended = %q, want %q", got, root)
	}
}

// rootLockHookFS is a MemFS that runs hook once, before the first TryLock
// of a composite root (a name in /tmp starting with "outfitter-"): the
// moment a new root exists and its lock is not taken yet. A Lock that
// has to wait says so (vfstest.LockWaits).
type rootLockHookFS struct {
	*vfstest.LockWaits
	fired atomic.Bool
	hook  func()
}

func (f *rootLockHookFS) TryLock(name string) (vfs.Unlocker, error) {
	if strings.HasPrefix(name, "/tmp/outfitter-") && f.fired.CompareAndSwap(false, true) {
		f.hook()
	}
	return f.MemFS.TryLock(name)
}

// TestPlanRemakesARootSweptBeforeItsLock: another session's sweep, whose
// clock runs years ahead of the file times, runs right after Plan created
// its root and before it locked it, finds the new root old and unlocked,
// and removes it. Plan must notice and make the run's root again: without
// the check it locks (and creates) a file at the swept root's name and
// goes on with a root that is not a directory.
func TestPlanRemakesARootSweptBeforeItsLock(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\n"}}
	mem := w.newFS(t)
	f := &rootLockHookFS{LockWaits: vfstest.NewLockWaits(mem)}
	ahead := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	sweep := make(chan []string, 1)
	f.hook = func() {
		go func() { sweep <- composite.Sweep(f, "/tmp", ahead, 0) }()
		// Wait until the sweep has finished or waits for a lock.
		select {
		case <-f.Waiting():
		case s := <-sweep:
			sweep <- s
		}
	}
	r, err := composite.Plan(f, composite.Request{Result: w.resolve(t, mem)}, composite.Options{Rand: rand.NewChaCha8([32]byte{1}), NoSweep: true})
	must(t, err)
	swept := <-sweep
	if len(swept) != 1 {
		t.Fatalf("precondition: the sweep between the root's creation and its lock removed %q, want the new root", swept)
	}
	if r.Composite.Root == swept[0] {
		t.Fatalf("the run's root is the swept %s", swept[0])
	}
	if _, err := mem.Lstat(swept[0]); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the swept root's name %s: %v, want nothing there", swept[0], err)
	}
	if fi, err := mem.Lstat(r.Composite.Root); err != nil || !fi.IsDir() {
		t.Fatalf("the run's root %s: %v, %v; want its directory", r.Composite.Root, fi, err)
	}
	if _, err := mem.TryLock(r.Composite.Root); !errors.Is(err, vfs.ErrLocked) {
		t.Errorf("TryLock of the run's root: %v, want it held", err)
	}
	if got := composite.Sweep(mem, "/tmp", ahead, 0); len(got) != 0 {
		t.Errorf("a later sweep removed %q", got)
	}
	must(t, r.Cleanup())
	if names := dirNames(t, mem, "/tmp"); len(names) != 0 {
		t.Errorf("/tmp holds %q after the run, want nothing", names)
	}
}

// TestPlanAndSweepNeverWaitForTheTempDir: the temporary directory is
// shared (/tmp), and anybody who can read it can hold its lock for ever.
// Neither Plan nor Sweep may wait for it: each must finish while another
// holder has it (a Lock that has to wait says so before it waits).
func TestPlanAndSweepNeverWaitForTheTempDir(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\n"}}
	mem := w.newFS(t)
	held, err := mem.Lock("/tmp")
	must(t, err)
	defer held.Unlock()
	f := vfstest.NewLockWaits(mem)
	done := make(chan error, 1)
	go func() {
		r, err := composite.Plan(f, composite.Request{Result: w.resolve(t, mem)}, composite.Options{Rand: rand.NewChaCha8([32]byte{2})})
		if err == nil {
			err = r.Cleanup()
		}
		composite.Sweep(f, "/tmp", time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 0)
		done <- err
	}()
	select {
	case err := <-done:
		must(t, err)
	case <-f.Waiting():
		t.Fatal("Plan or Sweep waits for the lock of the temporary directory another holder has")
	}
}

// TestEnsureSourceNeverLeavesItsFolder is finding 9 of the hostile
// repositories: a profile-owned source is created only inside its
// profile folder. When a directory on its way was swapped for a link out
// of the folder (the agent can do it, and a persist answer then creates
// the source), or the source itself is a dangling link out, nothing is
// created where the link leads: the source is refused with a
// [*composite.StateError] naming the link. Links that stay in the folder
// are followed as before.
func TestEnsureSourceNeverLeavesItsFolder(t *testing.T) {
	t.Parallel()
	const folder = "/h/profiles/eng"
	tests := []struct {
		name      string
		links     map[string]string
		source    string
		directory bool
		created   string // "" when nothing may be created
	}{
		{"a directory on the way leads out", map[string]string{folder + "/cli_specific/pi": "/h/.ssh"}, folder + "/cli_specific/pi/auth.json", false, ""},
		{"a chain of links leads out", map[string]string{folder + "/cli_specific/pi": "hop", folder + "/cli_specific/hop": "/h/.ssh"}, folder + "/cli_specific/pi/plugins", true, ""},
		{"the source is a dangling link out", map[string]string{folder + "/cli_specific/pi/auth.json": "/h/.ssh/auth.json"}, folder + "/cli_specific/pi/auth.json", false, ""},
		{"a link inside the folder", map[string]string{folder + "/cli_specific/pi": "shared"}, folder + "/cli_specific/pi/auth.json", false, folder + "/cli_specific/shared/auth.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := memWithRoot(t)
			must(t, fsys.MkdirAll("/h/.ssh", 0o700))
			must(t, fsys.MkdirAll(folder+"/cli_specific/shared", 0o755))
			must(t, fsys.MkdirAll(folder+"/cli_specific/pi", 0o755))
			for name, target := range tt.links {
				_ = fsys.Remove(name)
				must(t, fsys.Symlink(target, name))
			}
			_, err := composite.EnsureSource(fsys, composite.StatePath{RelativePath: "x", Strategy: "symlink", SourcePath: tt.source, Directory: tt.directory, Folder: folder})
			if list, _ := vfs.ReadDir(fsys, "/h/.ssh"); len(list) > 0 {
				t.Errorf("created in /h/.ssh: %v", list)
			}
			if tt.created != "" {
				if err != nil {
					t.Fatalf("EnsureSource: %v", err)
				}
				if _, err := fsys.Lstat(tt.created); err != nil {
					t.Errorf("%s was not created: %v", tt.created, err)
				}
				return
			}
			var se *composite.StateError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("error %v, want the source refused", err)
			}
		})
	}
}

// TestRunStateOutput: a run answers the outputs its materialization made
// of its state paths, the same names as StateOutput, none before it and
// none for the unknown path.
func TestRunStateOutput(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\n"}}
	fsys, r := w.mustPlan(t)
	r.Composite.StatePaths = append(r.Composite.StatePaths, composite.StatePath{RelativePath: composite.UnknownPath, Strategy: "warn"})
	for i := range r.Composite.StatePaths {
		if out, ok := r.StateOutput(i); ok {
			t.Errorf("before Materialize: state path %d has output %q", i, out)
		}
	}
	_, err := r.Materialize()
	must(t, err)
	made := 0
	for i, sp := range r.Composite.StatePaths {
		out, ok := r.StateOutput(i)
		if sp.IsUnknown() {
			if ok {
				t.Errorf("the unknown state path has output %q", out)
			}
			continue
		}
		want, err := composite.StateOutput(r.Composite.Root, sp)
		must(t, err)
		if !ok || out != want {
			t.Errorf("state path %s: output %q, %v; want %q", sp.RelativePath, out, ok, want)
		}
		if _, err := fsys.Lstat(out); err != nil {
			t.Errorf("state path %s: its output is not there: %v", sp.RelativePath, err)
		}
		made++
	}
	if made == 0 {
		t.Fatal("precondition: the run has no state path to materialize")
	}
	for _, i := range []int{-1, len(r.Composite.StatePaths)} {
		if out, ok := r.StateOutput(i); ok {
			t.Errorf("StateOutput(%d) = %q, want none", i, out)
		}
	}
}
