package writeback_test

import (
	"context"
	"encoding/json"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// captureEntry is one entry of a captured composite.
type captureEntry struct {
	Type   string `json:"type"`
	Target string `json:"target"`
	Text   string `json:"text"`
	SHA256 string `json:"sha256"`
}

type capture struct {
	Runs []struct {
		Options           struct{ AgentID string } `json:"options"`
		CompositeAtLaunch map[string]captureEntry  `json:"compositeAtLaunch"`
		CompositeAfterRun struct {
			Added   map[string]captureEntry `json:"added"`
			Changed map[string]struct {
				After captureEntry `json:"after"`
			} `json:"changed"`
			Removed []string `json:"removed"`
		} `json:"compositeAfterRun"`
		Result *struct {
			Warnings []string `json:"warnings"`
		} `json:"result"`
		Error *string `json:"error"`
	} `json:"runs"`
}

// captureOverrides are the state_persistence maps of the reference
// fixtures' selected profiles, by fixture name (the profile YAML files of
// the upstream fixtures hold them).
var captureOverrides = map[string]strategies{
	"strict_ci_profile": {
		"settings.json": composite.StrategyError, "mcp.json": composite.StrategyError,
		"cache/": composite.StrategyDiscard, "sessions/": composite.StrategyDiscard, composite.UnknownPath: composite.StrategyError,
	},
}

// claudeKeys are Claude's declared keys in declaration order.
var claudeKeys = []string{"settings.json", "agents/", "skills/", "commands/", "plugins/", "projects/", "debug/"}

// stateMessage matches the warnings of post-run classification.
var stateMessage = regexp.MustCompile(`^\S+ (wrote|replaced symlinked state path) |^state_persistence `)

// TestCaptures classifies each captured run: the composite at launch is
// the baseline, the captured changes are applied, and the warnings and the
// error must be upstream's. The durable side needs the whole pipeline and
// is compared by the sim package.
func TestCaptures(t *testing.T) {
	t.Parallel()
	for _, file := range golden.Captures(t) {
		fixture, _, _ := strings.Cut(file.Name, ".")
		t.Run(file.Name, func(t *testing.T) {
			t.Parallel()
			var c capture
			must(t, json.Unmarshal(file.Data, &c))
			for _, run := range c.Runs {
				paths := capturePaths(run.Options.AgentID, captureOverrides[fixture], run.CompositeAtLaunch)
				baseline, current := vfs.Tree{}, vfs.Tree{}
				for p, e := range run.CompositeAtLaunch {
					baseline[p] = entryOf(e)
					current[p] = entryOf(e)
				}
				for p, e := range run.CompositeAfterRun.Added {
					current[p] = entryOf(e)
				}
				for p, ch := range run.CompositeAfterRun.Changed {
					current[p] = entryOf(ch.After)
				}
				for _, p := range run.CompositeAfterRun.Removed {
					delete(current, p)
				}
				issues := writeback.Classify(writeback.Changes(baseline, current), paths)
				r, err := writeback.Handle(context.Background(), nil, "/composite", paths, issues, writeback.Options{Agent: run.Options.AgentID})
				if run.Error != nil {
					if got := errString(err); got != *run.Error {
						t.Errorf("error = %q, upstream %q", got, *run.Error)
					}
					continue
				}
				must(t, err)
				var want []string
				for _, w := range run.Result.Warnings {
					if stateMessage.MatchString(w) {
						want = append(want, w)
					}
				}
				if diff := cmp.Diff(want, r.Warnings); diff != "" {
					t.Errorf("warnings (-upstream +ours):\n%s", diff)
				}
				if pre := run.Result.Warnings[:len(run.Result.Warnings)-len(want)]; slices.ContainsFunc(pre, stateMessage.MatchString) {
					t.Errorf("upstream's state warnings %q are not last", run.Result.Warnings)
				}
			}
		})
	}
}

// capturePaths returns the state paths of a captured run: the adapter's
// declarations with the fixture's overrides, keybindings.json discard and,
// when the composite holds a generated settings.json, settings.json too.
func capturePaths(agent string, overrides strategies, atLaunch map[string]captureEntry) []composite.StatePath {
	if agent == "pi" {
		paths := piPaths(overrides)
		if atLaunch["settings.json"].Type == "file" {
			paths[1] = composite.StatePath{RelativePath: "settings.json", Strategy: composite.StrategyDiscard}
		}
		return paths
	}
	var paths []composite.StatePath
	for _, k := range claudeKeys {
		s, ok := overrides[k]
		if !ok {
			s = composite.StrategySymlink
		}
		paths = append(paths, composite.StatePath{RelativePath: k, Strategy: s, Directory: strings.HasSuffix(k, "/")})
	}
	return append(paths, composite.StatePath{RelativePath: composite.UnknownPath, Strategy: composite.StrategyWarn})
}

// entryOf converts a captured entry; a file without captured text stands
// for its content by its digest.
func entryOf(e captureEntry) vfs.Entry {
	switch e.Type {
	case "dir":
		return vfs.Entry{Type: vfs.TypeDir}
	case "symlink":
		return vfs.Entry{Type: vfs.TypeSymlink, Target: e.Target}
	}
	data := e.Text
	if data == "" {
		data = "sha256:" + e.SHA256
	}
	return vfs.Entry{Type: vfs.TypeFile, Data: []byte(data)}
}
