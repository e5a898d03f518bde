package composite_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// capture is the part of an upstream capture these tests compare.
type capture struct {
	Fixture string
	Runs    []struct {
		Options struct {
			ProfileID   string   `json:"profileId"`
			AgentID     string   `json:"agentId"`
			Strict      bool     `json:"strict"`
			PassThrough []string `json:"passThroughArgs"`
		}
		LaunchPlan        json.RawMessage
		CompositeAtLaunch map[string]capturedEntry
	}
}

type capturedEntry struct {
	Type   string  `json:"type"`
	Target string  `json:"target,omitempty"`
	Text   *string `json:"text,omitempty"`
}

// plan is a launch plan with an ordered environment, as captured.
type plan struct {
	Command string
	Args    []string
	Env     [][2]string
}

func decodePlan(t testing.TB, raw json.RawMessage) plan {
	t.Helper()
	var p struct {
		Command string
		Args    []string
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	var env struct{ Env json.RawMessage }
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	out := plan{Command: p.Command, Args: p.Args}
	dec := json.NewDecoder(bytes.NewReader(env.Env))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, _ := dec.Token()
		v, _ := dec.Token()
		out.Env = append(out.Env, [2]string{k.(string), v.(string)})
	}
	return out
}

// tokenize replaces machine paths by the capture's tokens, in upstream's order.
func tokenize(s, root string) string {
	if s == root {
		return "<composite-profile>"
	}
	for _, r := range [][2]string{{root, "<composite-profile>"}, {report.HomeRoot, "<home>"}, {report.ProjectRoot, "<project>"}, {report.CacheRoot, "<cache>"}, {report.FixtureRoot, "<fixture>"}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return s
}

// compared reports whether a composite entry is compared by content:
// everything outside outfitter/, plus profile.json and the plugin manifest.
func compared(p string) bool {
	return p != "outfitter" && !strings.HasPrefix(p, "outfitter/") || p == "outfitter/profile.json" || p == "outfitter/plugin/.claude-plugin/plugin.json"
}

// presence lists the Outfitter assets compared by presence only.
var presence = []string{
	"outfitter/outfitter-extension.js",
	"outfitter/pi-extension/privateCatalogOnboarding.js",
	"outfitter/shared/privateCatalogPolicy.cjs",
	"outfitter/plugin/skills/outfitter/SKILL.md",
}

// must fails the test (a *testing.T or a *rapid.T) on err.
func must(t interface {
	Helper()
	Fatal(args ...any)
}, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestUpstreamCaptures(t *testing.T) {
	t.Parallel()
	golden.UpstreamOrSkip(t, golden.UpstreamFixtures)
	for _, file := range golden.Captures(t) {
		name := file.Name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var c capture
			must(t, json.Unmarshal(file.Data, &c))
			fsys := golden.UpstreamMachine(t, name)
			must(t, fsys.MkdirAll("/tmp", 0o1777))
			rng := rand.NewChaCha8([32]byte{1})
			for i, run := range c.Runs {
				res, err := resolve.Load(fsys, resolve.Options{Home: report.HomeRoot, Project: report.ProjectRoot,
					ProfileID: run.Options.ProfileID, AgentID: run.Options.AgentID, Agents: composite.DefaultRegistry().Agents(), CreateConventionalDirs: true})
				must(t, err)
				r, err := composite.Plan(fsys, composite.Request{Result: res, PassThrough: run.Options.PassThrough, Strict: run.Options.Strict, Cwd: "/work"},
					composite.Options{Rand: rng, NoSweep: true})
				must(t, err)
				_, err = r.Materialize()
				must(t, err)
				lp, _, err := r.Launch()
				must(t, err)
				root := r.Composite.Root
				got := plan{Command: lp.Command}
				for _, a := range lp.Args {
					got.Args = append(got.Args, tokenize(a, root))
				}
				for _, e := range lp.Env {
					got.Env = append(got.Env, [2]string{e.Name, tokenize(e.Value, root)})
				}
				if diff := cmp.Diff(decodePlan(t, run.LaunchPlan), got); diff != "" {
					t.Errorf("run %d launch plan (-want +got):\n%s", i, diff)
				}
				tree := vfstest.Snapshot(t, fsys, root)
				gotEntries := map[string]capturedEntry{}
				var gotPresent, wantPresent []string
				for p, e := range tree {
					if slices.Contains(presence, p) {
						gotPresent = append(gotPresent, p)
					}
					if !compared(p) {
						continue
					}
					ce := capturedEntry{Type: string(e.Type), Target: tokenize(e.Target, root)}
					if e.Type == vfs.TypeFile {
						s := string(e.Data)
						ce.Text = &s
					}
					gotEntries[p] = ce
				}
				wantEntries := map[string]capturedEntry{}
				for p, e := range run.CompositeAtLaunch {
					if slices.Contains(presence, p) {
						wantPresent = append(wantPresent, p)
					}
					if compared(p) {
						wantEntries[p] = e
					}
				}
				if len(wantEntries) < 5 || len(wantPresent) == 0 {
					t.Fatalf("run %d: capture holds too few entries (%d) to compare", i, len(wantEntries))
				}
				if diff := cmp.Diff(wantEntries, gotEntries); diff != "" {
					t.Errorf("run %d composite at launch (-want +got):\n%s", i, diff)
				}
				slices.Sort(gotPresent)
				slices.Sort(wantPresent)
				if diff := cmp.Diff(wantPresent, gotPresent); diff != "" {
					t.Errorf("run %d outfitter assets present (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}
