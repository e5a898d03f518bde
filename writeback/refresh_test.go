package writeback_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

const nativeSettings = `{"packages":["npm:pi-subagents",{"source":"npm:kept-package"}],"theme":"dark"}`

// liveRun is a pi composite with its baseline, before any agent write.
func liveRun(t *testing.T) (*vfs.MemFS, []composite.StatePath, vfs.Tree) {
	t.Helper()
	paths := piPaths(nil)
	fsys := materialize(t, vfstest.Tree{"home/u/.pi/agent/settings.json": vfstest.File(nativeSettings)}, generated, paths)
	baseline, err := writeback.Snapshot(fsys, root, paths)
	must(t, err)
	return fsys, paths, baseline
}

func files(fs ...composite.File) func() ([]composite.File, error) {
	return func() ([]composite.File, error) { return fs, nil }
}

// TestRefreshNeverWritesThroughLinks is upstream's hazard: a refresh that
// newly reconciles pi's settings.json while the composite's settings.json
// is still the link to the durable settings. Upstream overwrites the
// durable file; here the link is replaced and the path becomes discard.
func TestRefreshNeverWritesThroughLinks(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	reconciled := `{"packages":[{"source":"npm:kept-package"}],"theme":"dark"}` + "\n"
	r, err := writeback.Refresh(fsys, root, baseline, paths, home+"/.outfitter/profiles/default/profile.yml", files(
		composite.File{RelativePath: "outfitter/profile.json", Content: `{"id":"default","label":"New"}` + "\n"},
		composite.File{RelativePath: "settings.json", Content: reconciled},
		composite.File{RelativePath: "keybindings.json", Content: "{}\n"},
	))
	must(t, err)
	if got := describe(fsys, piAgent+"/settings.json"); got != nativeSettings {
		t.Errorf("durable settings.json = %q, want it unchanged", got)
	}
	if got := describe(fsys, root+"/settings.json"); got != reconciled {
		t.Errorf("composite settings.json = %q, want the reconciled file", got)
	}
	if diff := cmp.Diff([]string{"settings.json"}, r.Replaced); diff != "" {
		t.Errorf("replaced (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"outfitter/profile.json", "settings.json", "keybindings.json"}, r.Written); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	sp := r.StatePaths[1]
	if sp.RelativePath != "settings.json" || sp.Strategy != composite.StrategyDiscard || sp.SourcePath != "" {
		t.Errorf("settings.json state path = %+v, want discard without a source", sp)
	}
	if paths[1].Strategy != composite.StrategySymlink {
		t.Errorf("Refresh modified its input state paths")
	}
	// The agent then writes settings.json: not durable, and not reported.
	put(t, fsys, root, map[string]string{"settings.json": `{"theme":"light"}`})
	issues, err := writeback.Detect(fsys, root, r.StatePaths, r.Baseline)
	must(t, err)
	if len(issues) != 0 {
		t.Errorf("issues after refresh = %v, want none", issues)
	}
	if got := describe(fsys, piAgent+"/settings.json"); got != nativeSettings {
		t.Errorf("durable settings.json after the agent's write = %q, want it unchanged", got)
	}
}

func TestRefresh(t *testing.T) {
	t.Parallel()
	t.Run("regenerated files are not reported", func(t *testing.T) {
		t.Parallel()
		fsys, paths, baseline := liveRun(t)
		r, err := writeback.Refresh(fsys, root, baseline, paths, "w", files(
			composite.File{RelativePath: "outfitter/profile.json", Content: "{}"},
			composite.File{RelativePath: ".mcp.json", Content: `{"mcpServers":{"new":{}}}`},
			composite.File{RelativePath: "generated.txt", Content: "g"},
		))
		must(t, err)
		issues, err := writeback.Detect(fsys, root, r.StatePaths, r.Baseline)
		must(t, err)
		if len(issues) != 0 || len(r.Replaced) != 0 {
			t.Errorf("issues %v, replaced %v; want none", issues, r.Replaced)
		}
		// With the old baseline, the regenerated .mcp.json would be reported.
		old, err := writeback.Detect(fsys, root, paths, baseline)
		must(t, err)
		if len(old) == 0 {
			t.Errorf("precondition: the old baseline sees no change")
		}
	})
	t.Run("a new file is 0644, a rewritten one keeps its mode", func(t *testing.T) {
		t.Parallel()
		fsys, paths, baseline := liveRun(t)
		must(t, vfs.Chmod(fsys, root+"/.mcp.json", 0o600))
		_, err := writeback.Refresh(fsys, root, baseline, paths, "w", files(
			composite.File{RelativePath: ".mcp.json", Content: "{}\n"},
			composite.File{RelativePath: "generated.txt", Content: "g"},
		))
		must(t, err)
		for name, want := range map[string]fs.FileMode{".mcp.json": 0o600, "generated.txt": 0o644} {
			e, err := vfs.EntryOf(fsys, root+"/"+name)
			must(t, err)
			if e.Mode != want {
				t.Errorf("%s: mode %v, want %v", name, e.Mode, want)
			}
		}
	})
	t.Run("a replaced link stays replaced", func(t *testing.T) {
		t.Parallel()
		fsys, paths, baseline := liveRun(t)
		must(t, vfs.Remove(fsys, root+"/sessions"))
		put(t, fsys, root, map[string]string{"sessions/x.log": "x"})
		r, err := writeback.Refresh(fsys, root, baseline, paths, "w", files(composite.File{RelativePath: "keybindings.json", Content: "{}\n"}))
		must(t, err)
		issues, err := writeback.Detect(fsys, root, r.StatePaths, r.Baseline)
		must(t, err)
		want := []writeback.Issue{{Path: "sessions/", Strategy: composite.StrategySymlink}}
		if diff := cmp.Diff(want, issues); diff != "" {
			t.Errorf("issues (-want +got):\n%s", diff)
		}
	})
	t.Run("undeclared link replaced becomes discard", func(t *testing.T) {
		t.Parallel()
		fsys, paths, baseline := liveRun(t)
		must(t, vfs.Remove(fsys, root+"/.mcp.json"))
		must(t, vfs.Symlink(fsys, piAgent+"/settings.json", root+"/.mcp.json"))
		r, err := writeback.Refresh(fsys, root, baseline, paths, "w", files(composite.File{RelativePath: ".mcp.json", Content: "{}\n"}))
		must(t, err)
		if got := describe(fsys, piAgent+"/settings.json"); got != nativeSettings {
			t.Errorf("link target = %q, want it unchanged", got)
		}
		if got := r.StatePaths[0]; got != (composite.StatePath{RelativePath: ".mcp.json", Strategy: composite.StrategyDiscard}) {
			t.Errorf("first state path = %+v, want .mcp.json discard", got)
		}
	})
}

func TestRefreshFailures(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	tests := []struct {
		name     string
		setup    func(*testing.T, *vfs.MemFS)
		fail     string // a name whose first WriteFile fails
		generate func() ([]composite.File, error)
		want     string
	}{
		{
			name:     "generate fails",
			generate: func() ([]composite.File, error) { return nil, boom },
			want:     "Could not safely update compositeProfile from w: boom",
		},
		{
			name:     "output escapes the root",
			generate: files(composite.File{RelativePath: ".mcp.json", Content: "x"}, composite.File{RelativePath: "../outside.txt", Content: "x"}),
			want:     "Could not safely update compositeProfile from w: CompositeProfile file output path '/tmp/outside.txt' must stay under compositeProfile root '" + root + "'.",
		},
		{
			name:     "top-level name starting with dots",
			generate: files(composite.File{RelativePath: ".mcp.json", Content: "x"}, composite.File{RelativePath: "..foo", Content: "x"}),
			want:     "Could not safely update compositeProfile from w: CompositeProfile file output path '" + root + "/..foo' must stay under compositeProfile root '" + root + "'.",
		},
		{
			name:     "output below a link",
			generate: files(composite.File{RelativePath: ".mcp.json", Content: "x"}, composite.File{RelativePath: "plugins/generated.json", Content: "x"}),
			want:     "Could not safely update compositeProfile from w: generated file plugins/generated.json lies below the symbolic link " + root + "/plugins",
		},
		{
			name:     "output is a directory",
			setup:    func(t *testing.T, fsys *vfs.MemFS) { put(t, fsys, root, map[string]string{"d/x": "x"}) },
			generate: files(composite.File{RelativePath: ".mcp.json", Content: "x"}, composite.File{RelativePath: "d", Content: "x"}),
			want:     "Could not safely update compositeProfile from w: open " + root + "/d: is a directory",
		},
		{
			name:     "write fails midway",
			fail:     root + "/keybindings.json",
			generate: files(composite.File{RelativePath: ".mcp.json", Content: "x"}, composite.File{RelativePath: "settings.json", Content: "x"}, composite.File{RelativePath: "new.json", Content: "x"}, composite.File{RelativePath: "keybindings.json", Content: "x"}),
			want:     "Could not safely update compositeProfile from w: open " + root + "/keybindings.json: no space left on device",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys, paths, baseline := liveRun(t)
			if tt.setup != nil {
				tt.setup(t, fsys)
			}
			before := vfstest.Snapshot(t, fsys, "/")
			ffs := faultfs.New(fsys, faultfs.OnNthOf(faultfs.KindWriteFile, 1, vfs.ErrNoSpace).If(func(op faultfs.Op) bool { return op.Path == tt.fail }))
			_, err := writeback.Refresh(ffs, root, baseline, paths, "w", tt.generate)
			var re *writeback.RefreshError
			if !errors.As(err, &re) || err.Error() != tt.want {
				t.Fatalf("Refresh error = %v, want %q", err, tt.want)
			}
			vfstest.WantUnchanged(t, fsys, "/", before, "machine changed by a failed refresh")
		})
	}
}

func TestRefreshBaseline(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	must(t, vfs.Remove(fsys, root+"/.mcp.json"))
	issues, err := writeback.Detect(fsys, root, paths, baseline)
	must(t, err)
	if diff := cmp.Diff([]writeback.Issue{{Path: ".mcp.json", Strategy: composite.StrategyWarn, Unknown: true}}, issues); diff != "" {
		t.Fatalf("precondition: issues with the old baseline (-want +got):\n%s", diff)
	}
	put(t, fsys, root, map[string]string{"outfitter/plugin/a.md": "a"})
	must(t, writeback.RefreshBaseline(fsys, root, baseline, []string{root + "/.mcp.json", "outfitter"}))
	if _, ok := baseline[".mcp.json"]; ok {
		t.Errorf("baseline still holds the deleted .mcp.json")
	}
	if e := baseline["outfitter/plugin/a.md"]; string(e.Data) != "a" {
		t.Errorf("baseline lacks the refreshed descendant: %+v", e)
	}
	issues, err = writeback.Detect(fsys, root, paths, baseline)
	must(t, err)
	if len(issues) != 0 {
		t.Errorf("issues with the refreshed baseline = %v, want none", issues)
	}
	err = writeback.RefreshBaseline(fsys, root, baseline, []string{"/etc/passwd"})
	if got, want := errString(err), "CompositeProfile file output path '/etc/passwd' must stay under compositeProfile root '"+root+"'."; got != want {
		t.Errorf("RefreshBaseline error = %q, want %q", got, want)
	}
}

// TestRefreshBaselineAtTheFileSystemRoot: with "/" as the composite root,
// every other path is under it and the root itself is not.
func TestRefreshBaselineAtTheFileSystemRoot(t *testing.T) {
	t.Parallel()
	fsys := vfstest.MemWith(t, "/", vfstest.Tree{"a.json": vfstest.File("{}")})
	baseline := vfs.Tree{}
	must(t, writeback.RefreshBaseline(fsys, "/", baseline, []string{"/a.json"}))
	if e := baseline["a.json"]; string(e.Data) != "{}" {
		t.Errorf("baseline[a.json] = %+v, want the file", e)
	}
	err := writeback.RefreshBaseline(fsys, "/", baseline, []string{"/"})
	if got, want := errString(err), "CompositeProfile file output path '/' must stay under compositeProfile root '/'."; got != want {
		t.Errorf("RefreshBaseline error = %q, want %q", got, want)
	}
}

func TestWatchPaths(t *testing.T) {
	t.Parallel()
	got := writeback.WatchPaths([]composite.File{
		{RelativePath: "a", SourceInputs: []string{"/p/profile.yml", "/p/base.yml"}},
		{RelativePath: "b"},
		{RelativePath: "c", SourceInputs: []string{"/p/base.yml", "/h/settings.json"}},
	})
	if diff := cmp.Diff([]string{"/p/profile.yml", "/p/base.yml", "/h/settings.json"}, got); diff != "" {
		t.Errorf("WatchPaths (-want +got):\n%s", diff)
	}
}

// TestRefreshRefusesARootReplacedByALink: an agent that replaces the
// composite root by a link to durable state must not have a refresh write
// into that state.
func TestRefreshRefusesARootReplacedByALink(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	const durable = "/h/.pi/agent"
	must(t, m.MkdirAll(durable, 0o755))
	must(t, m.WriteFile(durable+"/keybindings.json", []byte(`{"mine":"ctrl+k"}`), 0o644))
	must(t, m.MkdirAll("/tmp", 0o755))
	must(t, m.Symlink(durable, "/tmp/outfitter-x-pi-AAAAAA"))
	before := vfstest.Snapshot(t, m, "/h")
	generate := func() ([]composite.File, error) {
		return []composite.File{{RelativePath: "keybindings.json", Content: "{}\n"}, {RelativePath: "outfitter/profile.json", Content: "{}\n"}}, nil
	}
	_, err := writeback.Refresh(m, "/tmp/outfitter-x-pi-AAAAAA", vfs.Tree{}, nil, "/p/profile.yml", generate)
	var re *writeback.RefreshError
	if !errors.As(err, &re) {
		t.Fatalf("Refresh = %v, want a *RefreshError", err)
	}
	vfstest.WantUnchanged(t, m, "/h", before, "refresh through a replaced root changed durable state")
}

// refreshedFiles is a refresh that rewrites a generated file, replaces
// the settings.json link by a reconciled file, and writes a new file two
// new directories down (a rollback removes both).
var refreshedFiles = files(
	composite.File{RelativePath: "outfitter/profile.json", Content: `{"id":"default","label":"New"}` + "\n"},
	composite.File{RelativePath: "settings.json", Content: `{"theme":"dark"}` + "\n"},
	composite.File{RelativePath: "outfitter/new/deeper/deep.json", Content: "{}\n"},
)

// afterWrite returns a predicate that selects the operations of kind on
// name once name has been written (the re-fingerprinting's reads).
func afterWrite(kind faultfs.Kind, name string) func(faultfs.Op) bool {
	written := false
	return func(op faultfs.Op) bool {
		if op.Path == name && op.Kind == faultfs.KindWriteFile {
			written = true
			return false
		}
		return written && op.Kind == kind && op.Path == name
	}
}

// TestRefreshRollsBackWhenTheBaselineFails: when re-fingerprinting fails
// after the new files were written, the caller keeps its old baseline and
// would blame the agent for the refresh's own writes (a replaced link,
// undeclared files); so the refresh is rolled back, and the composite
// matches the old baseline again.
func TestRefreshRollsBackWhenTheBaselineFails(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	before := vfstest.Snapshot(t, fsys, "/")
	ffs := faultfs.New(fsys, faultfs.When(afterWrite(faultfs.KindReadFile, root+"/outfitter/new/deeper/deep.json"), vfs.ErrIO))
	_, err := writeback.Refresh(ffs, root, baseline, paths, "w", refreshedFiles)
	var re *writeback.RefreshError
	if !errors.As(err, &re) || !errors.Is(err, vfs.ErrIO) {
		t.Fatalf("Refresh = %v, want a *RefreshError wrapping the injected EIO", err)
	}
	if len(ffs.Injected()) == 0 {
		t.Fatalf("precondition: no read of the written file failed")
	}
	vfstest.WantUnchanged(t, fsys, "/", before, "machine after the failed refresh")
	issues, err := writeback.Detect(fsys, root, paths, baseline)
	must(t, err)
	if len(issues) != 0 {
		t.Errorf("issues against the kept baseline = %v, want none", issues)
	}
}

// TestRefreshRollbackFailureIsReported: when the disk fails again while
// the refresh is rolled back, the error names the rollback too.
func TestRefreshRollbackFailureIsReported(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	profile := root + "/outfitter/profile.json"
	ffs := faultfs.New(fsys,
		faultfs.When(afterWrite(faultfs.KindReadFile, profile), vfs.ErrIO),
		faultfs.OnNthOf(faultfs.KindWriteFile, 2, vfs.ErrNoSpace).If(func(op faultfs.Op) bool { return op.Path == profile }),
	)
	_, err := writeback.Refresh(ffs, root, baseline, paths, "w", refreshedFiles)
	if !errors.Is(err, vfs.ErrIO) || !errors.Is(err, vfs.ErrNoSpace) || !strings.Contains(err.Error(), "rollback of outfitter/profile.json") {
		t.Fatalf("Refresh = %v, want the EIO and the rollback's ENOSPC", err)
	}
}

// TestRefreshAtEveryFailurePoint: whichever single operation of a refresh
// fails, either the refresh succeeds and its new baseline describes the
// composite, or it fails and the machine is as it was, so that the old
// baseline does.
func TestRefreshAtEveryFailurePoint(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	counter := faultfs.New(fsys)
	if _, err := writeback.Refresh(counter, root, baseline, paths, "w", refreshedFiles); err != nil {
		t.Fatal(err)
	}
	total := counter.Count()
	t.Logf("%d operations, each a failure point", total)
	if total < 10 {
		t.Fatalf("precondition: the refresh took %d operations", total)
	}
	for n := 1; n <= total; n++ {
		fsys, paths, baseline := liveRun(t)
		before := vfstest.Snapshot(t, fsys, "/")
		r, err := writeback.Refresh(faultfs.New(fsys, faultfs.OnNth(n, vfs.ErrIO)), root, baseline, paths, "w", refreshedFiles)
		if err == nil {
			paths, baseline = r.StatePaths, r.Baseline
		} else {
			vfstest.WantUnchanged(t, fsys, "/", before, fmt.Sprintf("operation %d failed (%v); machine after", n, err))
		}
		issues, derr := writeback.Detect(fsys, root, paths, baseline)
		must(t, derr)
		if len(issues) != 0 {
			t.Errorf("operation %d failed (refresh error %v); issues against the caller's baseline = %v, want none", n, err, issues)
		}
	}
}
