package writeback_test

import (
	"context"
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

type strategies = map[string]composite.Strategy

// generated are pi's generated files of the tests' composite.
var generated = vfstest.Tree{
	"outfitter/profile.json": vfstest.File(`{"id":"default"}` + "\n"),
	".mcp.json":              vfstest.File(`{"mcpServers":{}}` + "\n"),
	"keybindings.json":       vfstest.File("{}\n"),
}

// TestSituations runs every row of the classification table (§4.4): an
// agent action on a materialized pi composite, then Detect and Handle.
func TestSituations(t *testing.T) {
	t.Parallel()
	in := func(rel string) string { return path.Join(root, rel) }
	write := func(rel, text string) func(*testing.T, *vfs.MemFS) {
		return func(t *testing.T, fsys *vfs.MemFS) {
			t.Helper()
			must(t, vfs.MkdirAll(fsys, path.Dir(in(rel)), 0o755))
			must(t, vfs.WriteFile(fsys, in(rel), []byte(text), 0o644))
		}
	}
	tests := []struct {
		name, why string
		overrides strategies
		agent     func(*testing.T, *vfs.MemFS)
		want      []string
		wantErr   string
		// durable lists the durable files the action changes, with their
		// new content; every other durable entry must stay as it was.
		durable map[string]string
	}{
		{
			name:    "edit through symlinked file",
			agent:   write("settings.json", `{"theme":"light"}`),
			durable: map[string]string{"home/u/.pi/agent/settings.json": `{"theme":"light"}`},
		},
		{
			name:    "create through symlinked dir",
			agent:   write("sessions/x.json", "{}"),
			durable: map[string]string{"home/u/.pi/agent/sessions/x.json": "{}"},
		},
		{
			name: "delete through symlinked dir",
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				must(t, vfs.Remove(fsys, in("plugins/old.txt")))
			},
			durable: map[string]string{"home/u/.pi/agent/plugins/old.txt": ""},
			why:     "an empty content in durable marks a removal",
		},
		{
			name: "symlinked file replaced by a file",
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				must(t, vfs.Remove(fsys, in("settings.json")))
				write("settings.json", "{}")(t, fsys)
			},
			want: []string{"pi replaced symlinked state path 'settings.json' and the change was not persisted."},
		},
		{
			name: "symlinked dir replaced by a dir",
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				must(t, vfs.Remove(fsys, in("sessions")))
				write("sessions/replacement.log", "x")(t, fsys)
			},
			want: []string{"pi replaced symlinked state path 'sessions/' and the change was not persisted."},
			why:  "the new children lie below a symlink key and are not reported",
		},
		{
			name: "symlink deleted",
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				must(t, vfs.Remove(fsys, in("auth.json")))
			},
			want: []string{"pi replaced symlinked state path 'auth.json' and the change was not persisted."},
		},
		{
			name: "symlink retargeted",
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				must(t, vfs.Remove(fsys, in("cache")))
				must(t, vfs.Symlink(fsys, "/elsewhere", in("cache")))
			},
			want: []string{"pi replaced symlinked state path 'cache/' and the change was not persisted."},
		},
		{
			name:      "change within a warn dir",
			overrides: strategies{"cache/": composite.StrategyWarn},
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				write("cache/a/entry.txt", "x")(t, fsys)
				write("cache/b.txt", "y")(t, fsys)
			},
			want: []string{"pi wrote 'cache/' with state_persistence 'warn' and it was not persisted."},
			why:  "several changes within one declared path make one issue",
		},
		{
			name:      "change within an error path",
			overrides: strategies{"settings.json": composite.StrategyError},
			agent:     write("settings.json", "{}"),
			wantErr:   "pi wrote 'settings.json' with state_persistence 'error' and it was not persisted.",
		},
		{
			name:      "change within a prompt path, non-interactive",
			overrides: strategies{"mcp.json": composite.StrategyPrompt},
			agent:     write("mcp.json", "{}"),
			want: []string{
				"pi wrote 'mcp.json' with state_persistence 'prompt' and it was not persisted.",
				"state_persistence prompt for 'mcp.json' skipped: non-interactive session.",
			},
		},
		{
			name:      "change within a discard path",
			overrides: strategies{"tmp/": composite.StrategyDiscard},
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				write("tmp/x", "x")(t, fsys)
				write("keybindings.json", `{"a":"b"}`)(t, fsys)
			},
		},
		{
			name:  "generated file under outfitter",
			agent: write("outfitter/profile.json", `{"mutated":true}`),
		},
		{
			name:  "generated file outside outfitter",
			agent: write(".mcp.json", `{"mutated":true}`),
			want:  []string{"pi wrote undeclared composite profile state '.mcp.json' and it was not persisted."},
		},
		{
			name:  "undeclared write, unknown warn",
			agent: write("unexpected.txt", "x"),
			want:  []string{"pi wrote undeclared composite profile state 'unexpected.txt' and it was not persisted."},
		},
		{
			name:  "undeclared dir and file, unknown warn",
			agent: write("scratch/native-note.txt", "x"),
			want: []string{
				"pi wrote undeclared composite profile state 'scratch' and it was not persisted.",
				"pi wrote undeclared composite profile state 'scratch/native-note.txt' and it was not persisted.",
			},
		},
		{
			name:      "undeclared write, unknown prompt",
			overrides: strategies{composite.UnknownPath: composite.StrategyPrompt},
			agent:     write("unexpected.txt", "x"),
			want: []string{
				"pi wrote undeclared composite profile state 'unexpected.txt' and it was not persisted.",
				"state_persistence 'prompt' cannot persist undeclared writes; 'unexpected.txt' was reported instead.",
			},
		},
		{
			name:      "undeclared write, unknown error",
			overrides: strategies{composite.UnknownPath: composite.StrategyError},
			agent:     write("undeclared-state.json", "{}"),
			wantErr:   "pi wrote undeclared composite profile state 'undeclared-state.json' and it was not persisted.",
		},
		{
			name:      "undeclared write, unknown discard",
			overrides: strategies{composite.UnknownPath: composite.StrategyDiscard},
			agent:     write("unexpected.txt", "x"),
		},
		{
			name: "generated file deleted, no refresh",
			agent: func(t *testing.T, fsys *vfs.MemFS) {
				must(t, vfs.Remove(fsys, in(".mcp.json")))
			},
			want: []string{"pi wrote undeclared composite profile state '.mcp.json' and it was not persisted."},
		},
		{
			name:  "file named unknown",
			agent: write("unknown", "x"),
			want:  []string{"pi wrote undeclared composite profile state 'unknown' and it was not persisted."},
			why:   "the pseudo-path is not a declared path",
		},
		{
			name:  "mode change only",
			agent: func(t *testing.T, fsys *vfs.MemFS) { must(t, vfs.Chmod(fsys, in(".mcp.json"), 0o600)) },
			why:   "fingerprints compare content, never modes",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			paths := piPaths(tt.overrides)
			durable := vfstest.Tree{"home/u/.pi/agent/plugins/old.txt": vfstest.File("old")}
			fsys := materialize(t, durable, generated, paths)
			before := vfstest.Snapshot(t, fsys, home)
			baseline, err := writeback.Snapshot(fsys, root, paths)
			must(t, err)
			atBaseline := fsys.Clone()
			tt.agent(t, fsys)
			issues, err := writeback.Detect(fsys, root, paths, baseline)
			must(t, err)
			since, err := writeback.DetectSince(atBaseline, fsys, root, paths)
			must(t, err)
			if diff := cmp.Diff(issues, since); diff != "" {
				t.Errorf("DetectSince differs from Detect (-Detect +DetectSince):\n%s", diff)
			}
			r, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{Agent: "pi"})
			if got := errString(err); got != tt.wantErr {
				t.Fatalf("Handle error = %q, want %q", got, tt.wantErr)
			}
			if tt.wantErr == "" {
				if diff := cmp.Diff(tt.want, r.Warnings); diff != "" {
					t.Errorf("warnings (-want +got):\n%s", diff)
				}
			}
			if len(r.Writes) != 0 {
				t.Errorf("durable writes = %v, want none", r.Writes)
			}
			wantDurable := vfs.Tree{}
			for k, e := range before {
				wantDurable[k] = e
			}
			for p, text := range tt.durable {
				rel := path.Clean(p[len("home/u/"):])
				if text == "" {
					delete(wantDurable, rel)
					continue
				}
				wantDurable[rel] = vfs.Entry{Type: vfs.TypeFile, Mode: 0o644, Data: []byte(text)}
			}
			if diff := cmp.Diff(wantDurable, vfstest.Snapshot(t, fsys, home)); diff != "" {
				t.Errorf("durable tree (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClassifyOnePerKey gives Classify changed paths out of order and one
// of them twice: each declared key and each undeclared path is one issue,
// in Compare's order.
func TestClassifyOnePerKey(t *testing.T) {
	t.Parallel()
	paths := piPaths(map[string]composite.Strategy{"cache/": composite.StrategyWarn})
	changed := []string{"cache/b", "z.txt", "cache/a", "Z.txt", "z.txt", "cache", "a.txt", "outfitter/x"}
	want := []writeback.Issue{
		{Path: "a.txt", Strategy: composite.StrategyWarn, Unknown: true},
		{Path: "cache/", Strategy: composite.StrategyWarn},
		{Path: "z.txt", Strategy: composite.StrategyWarn, Unknown: true},
		{Path: "Z.txt", Strategy: composite.StrategyWarn, Unknown: true},
	}
	if diff := cmp.Diff(want, writeback.Classify(changed, paths)); diff != "" {
		t.Errorf("Classify (-want +got):\n%s", diff)
	}
}

// TestDetectSinceRootGone: when the agent removes the composite root or
// puts a file in its place, the two machines cannot be compared node by
// node; DetectSince still reports what Detect reports from a baseline
// snapshot, and an unreadable machine before the run is an error naming
// the composite.
func TestDetectSinceRootGone(t *testing.T) {
	t.Parallel()
	paths := piPaths(nil)
	agents := map[string]func(*testing.T, *vfs.MemFS){
		"removed": func(t *testing.T, fsys *vfs.MemFS) { must(t, vfs.RemoveAll(fsys, root)) },
		"replaced by file": func(t *testing.T, fsys *vfs.MemFS) {
			must(t, vfs.RemoveAll(fsys, root))
			must(t, vfs.WriteFile(fsys, root, nil, 0o644))
		},
	}
	for name, agent := range agents {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := materialize(t, nil, generated, paths)
			baseline, err := writeback.Snapshot(fsys, root, paths)
			must(t, err)
			before := fsys.Clone()
			agent(t, fsys)
			want, err := writeback.Detect(fsys, root, paths, baseline)
			must(t, err)
			if len(want) == 0 {
				t.Fatal("Detect reports nothing")
			}
			got, err := writeback.DetectSince(before, fsys, root, paths)
			must(t, err)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("DetectSince differs from Detect (-Detect +DetectSince):\n%s", diff)
			}
		})
	}
	t.Run("unreadable before", func(t *testing.T) {
		t.Parallel()
		fsys := materialize(t, nil, generated, paths)
		before := faultfs.New(fsys.Clone(), faultfs.When(func(faultfs.Op) bool { return true }, vfs.ErrIO))
		_, err := writeback.DetectSince(before, fsys, root, paths)
		if !errors.Is(err, vfs.ErrIO) || !strings.Contains(errString(err), root) {
			t.Fatalf("DetectSince error = %v, want an I/O error naming %s", err, root)
		}
	})
}

// TestSnapshotRootNotADirectory: an agent that puts a file or a link where
// the composite root was leaves a snapshot of one entry, "": the root's
// own.
func TestSnapshotRootNotADirectory(t *testing.T) {
	t.Parallel()
	paths := piPaths(nil)
	for name, node := range map[string]vfstest.Node{"file": vfstest.File("x"), "link": vfstest.Link("/elsewhere")} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := vfstest.MemWith(t, "/", vfstest.Tree{root[1:]: node})
			got, err := writeback.Snapshot(fsys, root, paths)
			must(t, err)
			e, err := vfs.EntryOf(fsys, root)
			must(t, err)
			if diff := cmp.Diff(vfs.Tree{"": e}, got); diff != "" {
				t.Errorf("Snapshot (-want +got):\n%s", diff)
			}
		})
	}
}
