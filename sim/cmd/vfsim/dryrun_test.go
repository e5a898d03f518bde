package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// sevenProfiles is a home and a project with seven profile files: the
// selected profile is defined in the home and twice in the project, and
// inherits a team baseline.
const sevenProfiles = `
-- README.md --
Seven profiles over a home and a project.
-- home/.outfitter/settings.yml --
default_profile: eng
profile_sources:
  - path: ./profiles
-- home/.outfitter/profiles/personal/profile.yml --
id: personal
controls:
  model: personal-model
-- home/.outfitter/profiles/eng/profile.yml --
id: eng
controls:
  environment:
    FROM_HOME: 'yes'
-- project/.outfitter/settings.yml --
profile_sources:
  - path: ../../home/.outfitter/profiles
  - path: ./team
  - path: ./profiles
-- project/.outfitter/team/base/profile.yml --
id: base
controls:
  model: base-model
-- project/.outfitter/team/eng/profile.yml --
id: eng
inherits:
  - base
-- project/.outfitter/profiles/eng/profile.yml --
id: eng
inherits:
  - base
controls:
  thinking: high
  environment:
    FROM_PROJECT: 'yes'
-- project/.outfitter/profiles/docs/profile.yml --
id: docs
-- project/.outfitter/profiles/ops/profile.yml --
id: ops
controls:
  provider: ops-provider
`

// dryMachine returns a memory machine holding the seven-profile fixture, a
// temporary directory and n unrelated files in the home, spread over a
// few folders and the home itself.
func dryMachine(t testing.TB, n int) *vfs.MemFS {
	t.Helper()
	fx, err := fixtures.LoadTxtar([]byte(sevenProfiles), "seven")
	if err != nil {
		t.Fatal(err)
	}
	m := fx.Clone()
	if err := m.MkdirAll("/tmp", 0o777); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		dir := fmt.Sprintf("%s/junk/d%02d", report.HomeRoot, i%10)
		if i%100 == 0 {
			dir = report.HomeRoot
		}
		if err := m.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := m.WriteFile(fmt.Sprintf("%s/unrelated-%04d.txt", dir, i), []byte("noise\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// seededOptions are deterministic engine options for a dry run.
func seededOptions(tempDir string) sim.Options {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], 1)
	return sim.Options{Rand: rand.NewChaCha8(key), Clock: fixtures.LoadTime, TempDir: tempDir, Cwd: report.ProjectRoot}
}

// fixtureSpec is a run with the settings' defaults on the fixture's home
// and project.
func fixtureSpec() sim.Spec { return sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot} }

func TestDryRunReadsWhatResolutionNeeds(t *testing.T) {
	t.Parallel()
	type reads struct {
		byKind map[faultfs.Kind]int
		junk   []string // operations that touched the unrelated files
		writes []faultfs.Op
	}
	dry := func(n int) reads {
		lower := faultfs.New(dryMachine(t, n), faultfs.ReadOnly())
		out := dryRunOn(context.Background(), lower, fixtureSpec(), seededOptions("/tmp"))
		if out.Result.Err != nil || !out.Result.Launched {
			t.Fatalf("precondition: the dry run reaches the launch: %v", out.Result.Err)
		}
		r := reads{byKind: map[faultfs.Kind]int{}}
		for _, op := range lower.Ops() {
			r.byKind[op.Kind]++
			if strings.Contains(op.Path, "/junk") || strings.Contains(op.Path, "unrelated-") ||
				op.Kind == faultfs.KindReadDir && op.Path == report.HomeRoot {
				r.junk = append(r.junk, string(op.Kind)+" "+op.Path)
			}
			if op.Mutates {
				r.writes = append(r.writes, op)
			}
		}
		return r
	}
	small, large := dry(10), dry(1000)
	if diff := cmp.Diff(small.byKind, large.byKind); diff != "" {
		t.Errorf("lower-layer operations depend on the home's size (-10 files +1000 files):\n%s", diff)
	}
	if len(large.junk) > 0 {
		t.Errorf("the dry run read unrelated files of the home:\n%s", strings.Join(large.junk, "\n"))
	}
	if len(large.writes) > 0 {
		t.Errorf("the dry run tried to write below the overlay: %v", large.writes)
	}
	total := 0
	for _, n := range large.byKind {
		total += n
	}
	t.Logf("lower-layer operations of a dry run over a home with 1000 unrelated files: %d %v", total, large.byKind)
}

func TestDryRunReport(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		spec     sim.Spec
		want     []string // lines the report must hold
		wantErr  string
		launched bool
	}{
		{
			name: "pi",
			spec: fixtureSpec(),
			want: []string{
				"agent pi, profile eng",
				"  launch: pi --extension <composite-profile>/outfitter/outfitter-extension.js --model base-model --thinking high --skill <composite-profile>/outfitter/plugin/skills/outfitter",
				"    PI_CODING_AGENT_DIR=<composite-profile>",
				"    ├── settings.json -> <home>/.pi/agent/settings.json  [link; state symlink (default); source: the agent's native state]",
				"durable changes before the agent starts:",
				`  + /fixture/home/.pi/agent/mcp.json "{}\n"`,
				"  + /fixture/home/.pi/agent/sessions (dir)",
			},
			launched: true,
		},
		{
			name: "claude with pass-through args",
			spec: sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Agent: "claude", Args: []string{"--verbose"}},
			want: []string{
				"agent claude, profile eng",
				"    CLAUDE_CONFIG_DIR=<composite-profile>",
				"    ├── projects -> <home>/.claude/projects  [link; state symlink (default); source: the agent's native state]",
				"  + /fixture/home/.claude/projects (dir)",
			},
			launched: true,
		},
		{
			name:    "strict failure",
			spec:    sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Agent: "claude", Profile: "ops", Strict: true},
			wantErr: "Strict failed for claude: claude adapter cannot translate requested control 'provider'.",
			want: []string{
				"agent claude, profile ops",
				"  error: Strict failed for claude: claude adapter cannot translate requested control 'provider'.",
			},
		},
		{
			name:    "unknown profile",
			spec:    sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Profile: "nope"},
			wantErr: "nope",
			want:    []string{"agent (none), profile (none)", "durable changes before the agent starts:"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mem := dryMachine(t, 0)
			before := vfstest.Snapshot(t, mem, "/")
			out := dryRunOn(context.Background(), mem, tt.spec, seededOptions("/tmp"))
			if out.Result.Launched != tt.launched {
				t.Errorf("launched = %v, want %v (error %v)", out.Result.Launched, tt.launched, out.Result.Err)
			}
			switch {
			case tt.wantErr == "" && out.Result.Err != nil:
				t.Errorf("error %v", out.Result.Err)
			case tt.wantErr != "" && (out.Result.Err == nil || !strings.Contains(out.Result.Err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one containing %q", out.Result.Err, tt.wantErr)
			}
			var b bytes.Buffer
			printDryRun(&b, tt.spec, out)
			lines := strings.Split(b.String(), "\n")
			for _, w := range tt.want {
				found := false
				for _, l := range lines {
					found = found || l == w
				}
				if !found {
					t.Errorf("report lacks the line %q:\n%s", w, b.String())
				}
			}
			vfstest.WantUnchanged(t, mem, "/", before, "the lower memory FS changed")
		})
	}
}

// TestDryRunWritesNothingOnDisk runs the command over a home and a project
// in a real temporary directory and compares the whole tree before and
// after.
func TestDryRunWritesNothingOnDisk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	host := osfs.New()
	if err := vfs.CopyTree(host, dir+report.FixtureRoot, dryMachine(t, 20), report.FixtureRoot); err != nil {
		t.Fatal(err)
	}
	if err := host.Mkdir(dir+"/tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	home, project := dir+report.HomeRoot, dir+report.ProjectRoot
	before := vfstest.Snapshot(t, host, dir)

	t.Run("command", func(t *testing.T) {
		code, out, errs := runCLI(t, "dry-run", "--home", home, "--project", project, "--", "--print", "hello")
		if code != 0 {
			t.Fatalf("vfsim dry-run = %d\n%s%s", code, out, errs)
		}
		for _, w := range []string{
			"agent pi, profile eng",
			"  launch: pi --model base-model --thinking high --skill <composite-profile>/outfitter/plugin/skills/outfitter --print hello",
			`  + ` + home + `/.pi/agent/mcp.json "{}\n"`,
		} {
			if !strings.Contains(out, w+"\n") {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
		root := regexp.MustCompile(`\n  <composite-profile> = ` + regexp.QuoteMeta(filepath.Join(os.TempDir(), "outfitter-eng-pi-")) + `\S+ \(created in memory only\)\n`)
		if !root.MatchString(out) {
			t.Errorf("output lacks the composite root's line (%s):\n%s", root, out)
		}
	})
	t.Run("read-only lower layer", func(t *testing.T) {
		lower := faultfs.New(host, faultfs.ReadOnly())
		spec := sim.Spec{Home: home, Project: project}
		out := dryRunOn(context.Background(), lower, spec, seededOptions(dir+"/tmp"))
		if out.Result.Err != nil || out.ChangesErr != nil {
			t.Fatalf("dry run failed: %v, %v", out.Result.Err, out.ChangesErr)
		}
		if n := len(out.Durable.Added); n == 0 {
			t.Errorf("precondition: a real run would create native fallbacks; the dry run lists none")
		}
		for _, op := range lower.Ops() {
			if op.Mutates {
				t.Errorf("write-side operation reached the disk: %s %s", op.Kind, op.Path)
			}
		}
	})
	vfstest.WantUnchanged(t, host, dir, before, "the dry run changed the disk")
}

func TestDryRunUsage(t *testing.T) {
	t.Parallel()
	code, _, errs := runCLI(t, "dry-run", "--bogus")
	if code != 2 || !strings.Contains(errs, "usage:") {
		t.Errorf("vfsim dry-run --bogus = %d, %q; want 2 and the usage", code, errs)
	}
}

// TestRunOverlayMatchesCopy runs every catalog scenario on an overlay of
// the fixture directory and on the loaded copy: the reports are the same
// and the fixture directories are not changed.
func TestRunOverlayMatchesCopy(t *testing.T) {
	t.Parallel()
	catalog := filepath.Join("..", "..", "..", "fixtures", "catalog")
	dirs, err := filepath.Glob(filepath.Join(catalog, "*", "scenarios", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatalf("precondition: catalog scenarios under %s", catalog)
	}
	before := vfstest.Snapshot(t, osfs.New(), mustAbs(t, catalog))
	for _, file := range dirs {
		fixture := filepath.Dir(filepath.Dir(file))
		t.Run(filepath.Base(fixture)+"/"+filepath.Base(file), func(t *testing.T) {
			args := []string{"run", "--json", "--fixture", fixture, "--scenario", file}
			code, copyOut, errs := runCLI(t, args...)
			ovCode, ovOut, ovErrs := runCLI(t, append(args, "--overlay")...)
			if code != ovCode {
				t.Errorf("exit code %d on the copy, %d on the overlay\n%s%s", code, ovCode, errs, ovErrs)
			}
			if diff := cmp.Diff(copyOut, ovOut); diff != "" {
				t.Errorf("report (-copy +overlay):\n%s", diff)
			}
		})
	}
	vfstest.WantUnchanged(t, osfs.New(), mustAbs(t, catalog), before, "running on overlays changed the catalog on disk")
}

func TestRunOverlayNeedsDirectory(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, fixture string }{
		{"txtar", filepath.Join("..", "..", "..", "fixtures", "testdata", "x.txtar")},
		{"not a fixture", "."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := overlayOptions(true, tt.fixture, nil)
			if _, ok := err.(usageError); !ok {
				t.Errorf("overlayOptions(%q) = %v, want a usage error", tt.fixture, err)
			}
		})
	}
}

// TestRunOverlayReadsTheDirectory: with --overlay the runs happen on the
// fixture directory itself, read through an overlay, not on the copy
// loaded before: a file put in the directory after the load is seen, and
// what a run writes stays above the directory.
func TestRunOverlayReadsTheDirectory(t *testing.T) {
	t.Parallel()
	dir := writeFixture(t, false)
	fx, err := fixtures.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := fx.Scenario("one")
	if !ok {
		t.Fatal("precondition: the fixture's scenario one")
	}
	opts, err := overlayOptions(true, dir, sc)
	if err != nil || opts.Mount == nil {
		t.Fatalf("overlayOptions = %+v, %v; want a mount", opts, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "home", "late.txt"), []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := vfstest.Snapshot(t, osfs.New(), mustAbs(t, dir))
	fsys, err := opts.Mount(fx.Clone())
	if err != nil {
		t.Fatal(err)
	}
	late := report.HomeRoot + "/late.txt"
	if data, err := vfs.ReadFile(fsys, late); err != nil || string(data) != "late\n" {
		t.Errorf("%s on the overlay = %q, %v; want the file written to the directory", late, data, err)
	}
	if err := vfs.WriteFile(fsys, late, []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vfstest.WantUnchanged(t, osfs.New(), mustAbs(t, dir), before, "a write to the overlay reached the fixture directory")
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// BenchmarkDryRun measures a dry run over a home with 1000 unrelated files
// and the seven-profile project, in memory and on disk.
func BenchmarkDryRun(b *testing.B) {
	b.Run("memfs", func(b *testing.B) {
		mem := dryMachine(b, 1000)
		b.ReportAllocs()
		for b.Loop() {
			if out := dryRunOn(context.Background(), mem, fixtureSpec(), sim.Options{TempDir: "/tmp"}); out.Result.Err != nil {
				b.Fatal(out.Result.Err)
			}
		}
	})
	b.Run("osfs", func(b *testing.B) {
		dir := b.TempDir()
		host := osfs.New()
		if err := vfs.CopyTree(host, dir+report.FixtureRoot, dryMachine(b, 1000), report.FixtureRoot); err != nil {
			b.Fatal(err)
		}
		if err := os.Mkdir(dir+"/tmp", 0o755); err != nil {
			b.Fatal(err)
		}
		spec := sim.Spec{Home: dir + report.HomeRoot, Project: dir + report.ProjectRoot}
		b.ReportAllocs()
		for b.Loop() {
			if out := dryRunOn(context.Background(), host, spec, sim.Options{TempDir: dir + "/tmp"}); out.Result.Err != nil {
				b.Fatal(out.Result.Err)
			}
		}
	})
}

// TestPrintDelta: durable changes print one a line, sorted within each
// kind, and "none" only when there is none of any kind.
func TestPrintDelta(t *testing.T) {
	t.Parallel()
	dir := report.Entry{Type: vfs.TypeDir}
	link := report.Entry{Type: vfs.TypeSymlink, Target: "/t"}
	tests := []struct {
		name string
		d    report.Delta
		want []string
	}{
		{name: "nothing", want: []string{"  none"}},
		{
			name: "one added, one changed",
			d:    report.Delta{Added: map[string]report.Entry{"a": dir}, Changed: map[string]report.Change{"c": {Before: dir, After: link}}},
			want: []string{"  + /p/a (dir)", "  ~ /p/c (dir) -> -> /t"},
		},
		{
			name: "one changed, one removed",
			d:    report.Delta{Changed: map[string]report.Change{"c": {Before: link, After: dir}}, Removed: []string{"r"}},
			want: []string{"  ~ /p/c -> /t -> (dir)", "  - /p/r"},
		},
		{
			name: "two removed",
			d:    report.Delta{Removed: []string{"r1", "r2"}},
			want: []string{"  - /p/r1", "  - /p/r2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			printDelta(&b, tt.d, "/p/")
			got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("printDelta(%+v) lines (-want +got):\n%s", tt.d, diff)
			}
		})
	}
}

// TestFixtureViewEntriesAsLoaded: the entries the overlay's view of a
// fixture directory lists describe themselves as Lstat of the view does:
// with the modes and time of a loaded fixture, not the host's.
func TestFixtureViewEntriesAsLoaded(t *testing.T) {
	t.Parallel()
	dir := mustAbs(t, filepath.Join("..", "..", "..", "fixtures", "catalog", "owned_agent_state"))
	view := &fixtureView{dir: osfs.NewRooted(dir), rest: vfs.NewMemFS(vfs.MemOptions{})}
	list, err := view.ReadDir(report.FixtureRoot)
	if err != nil || len(list) == 0 {
		t.Fatalf("precondition: ReadDir(%s) of the view = %v, %v; want the fixture's entries", report.FixtureRoot, list, err)
	}
	for _, e := range list {
		name := report.FixtureRoot + "/" + e.Name()
		got, err := e.Info()
		if err != nil || got == nil {
			t.Fatalf("Info() of %s = %v, %v", name, got, err)
		}
		want, err := view.Lstat(name)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name() != e.Name() || got.Mode() != want.Mode() || !got.ModTime().Equal(fixtures.LoadTime()) {
			t.Errorf("Info() of %s = %s %v %v; want %s %v %v as Lstat of the view gives", name, got.Name(), got.Mode(), got.ModTime(), e.Name(), want.Mode(), fixtures.LoadTime())
		}
		wantMode := fixtures.DefaultFileMode
		if e.IsDir() {
			wantMode = fs.ModeDir | fixtures.DefaultDirMode
		}
		if (e.IsDir() || e.Type().IsRegular()) && got.Mode() != wantMode {
			t.Errorf("Info() of %s: mode %v, want a loaded fixture's %v", name, got.Mode(), wantMode)
		}
	}
}

// TestDryRunDurableLeavesOutTheComposite: the durable changes a dry run
// lists are those outside the composite root, whose files the run makes
// for the agent alone.
func TestDryRunDurableLeavesOutTheComposite(t *testing.T) {
	t.Parallel()
	out := dryRunOn(context.Background(), dryMachine(t, 10), fixtureSpec(), seededOptions("/tmp"))
	if out.Result.Err != nil || !out.Result.Launched || out.Result.Root == "" {
		t.Fatalf("precondition: the dry run reaches the launch with a composite root: %v", out.Result.Err)
	}
	rel := strings.TrimPrefix(out.Result.Root, "/")
	below := func(p string) bool { return p == rel || strings.HasPrefix(p, rel+"/") }
	var listed []string
	for p := range out.Durable.Added {
		listed = append(listed, p)
	}
	for p := range out.Durable.Changed {
		listed = append(listed, p)
	}
	listed = append(listed, out.Durable.Removed...)
	for _, p := range listed {
		if below(p) {
			t.Errorf("durable changes list %s, below the composite root %s", p, out.Result.Root)
		}
	}
}
