package proptest_test

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// recorder is a rapid.TB that records a failure instead of failing the
// test, so that a property can be expected to fail.
type recorder struct {
	name   string
	failed bool
	msgs   []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Name() string              { return r.name }
func (r *recorder) Logf(string, ...any)       {}
func (r *recorder) Log(...any)                {}
func (r *recorder) Skipf(string, ...any)      {}
func (r *recorder) Skip(...any)               {}
func (r *recorder) SkipNow()                  {}
func (r *recorder) Errorf(f string, a ...any) { r.fail(fmt.Sprintf(f, a...)) }
func (r *recorder) Error(a ...any)            { r.fail(fmt.Sprint(a...)) }
func (r *recorder) Fatalf(f string, a ...any) { r.fail(fmt.Sprintf(f, a...)) }
func (r *recorder) Fatal(a ...any)            { r.fail(fmt.Sprint(a...)) }
func (r *recorder) FailNow()                  { r.fail("FailNow") }
func (r *recorder) Fail()                     { r.fail("Fail") }
func (r *recorder) Failed() bool              { return r.failed }
func (r *recorder) fail(msg string)           { r.failed = true; r.msgs = append(r.msgs, msg) }

// copyBack is a mutant engine that copies a changed undeclared file of the
// composite back to the agent's native directory after the agent exits.
func copyBack(a sim.Agent) sim.Agent {
	return sim.AgentFunc(func(ctx context.Context, s *sim.Session) (writeback.Exit, error) {
		exit, err := a.Run(ctx, s)
		if data, rerr := s.FS.ReadFile(s.Root + "/u.txt"); rerr == nil {
			native := report.HomeRoot + "/.outfitter-copied"
			if merr := s.FS.MkdirAll(native, 0o755); merr == nil {
				_ = s.FS.WriteFile(native+"/u.txt", data, 0o644)
			}
		}
		return exit, err
	})
}

// lowerLinks is a mutant file system that links a profile-owned state path
// to the first folder holding it in a fixed location order, lowest
// precedence first, instead of the highest-precedence one.
type lowerLinks struct{ *vfs.MemFS }

func (l lowerLinks) Symlink(oldname, newname string) error {
	if i := strings.Index(oldname, "/cli_specific/"); i >= 0 {
		suffix := oldname[i:]
		for _, loc := range proptest.Locs() {
			dir := report.FixtureRoot + "/" + loc.Dir()
			entries, err := l.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if cand := path.Join(dir, e.Name()) + suffix; cand != oldname {
					if _, err := l.Lstat(cand); err == nil {
						return l.MemFS.Symlink(cand, newname)
					}
				}
			}
		}
	}
	return l.MemFS.Symlink(oldname, newname)
}

// dropWarning is a mutant engine that loses the last warning of every run.
func dropWarning(out *sim.Outcome) {
	for _, r := range out.Results {
		if n := len(r.Warnings); n > 0 {
			r.Warnings = r.Warnings[:n-1]
		}
	}
}

// TestPropMutants shows that the properties bite: each fails on a mutant
// of the engine and shrinks to a world of a few files.
func TestPropMutants(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, why string
		h         harness
		prop      property
	}{
		{
			name: "copy_back", why: "an undeclared file copied back is a durable write no rule allows",
			h: harness{agent: copyBack}, prop: noCopyBack,
		},
		{
			name: "lower_link", why: "a link to a lower folder's state file breaks precedence",
			h: harness{mount: func(mem *vfs.MemFS) (sim.FS, error) { return lowerLinks{mem}, nil }}, prop: precedence,
		},
		{
			name: "drop_warning", why: "a lost warning differs from the classification model",
			h: harness{result: dropWarning}, prop: classification,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var last *proptest.World
			var rec *recorder
			// Each attempt is a fresh rapid run with its own seed.
			for attempt := 0; attempt < 5 && (rec == nil || !rec.failed); attempt++ {
				rec = &recorder{name: t.Name()}
				checkWorlds(rec, c.h, c.prop, "", func(w proptest.World) { last = &w })
			}
			if !rec.failed || last == nil {
				t.Fatalf("the property held on the mutant (%s)", c.why)
			}
			files := last.FixtureFiles()
			t.Logf("shrunk counterexample (%d files):\n%s\n%s", len(files), last.Txtar(), last.ScenarioJSON())
			switch {
			case len(files) <= 8:
			case raceEnabled:
				// Shrinking is bounded by time and the race detector
				// slows it tenfold; .ci/run checks the size without it.
				t.Logf("the counterexample has %d files; under -race shrinking stopped early", len(files))
			default:
				t.Errorf("the counterexample has %d files, want a few (at most 8)", len(files))
			}
		})
	}
}
