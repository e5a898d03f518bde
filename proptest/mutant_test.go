package proptest_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
// of the engine and shrinks to a world of a few files. rapid's shrinking is
// bounded by time (-rapid.shrinktime), so the size is checked only when
// shrinking finished within it; when it may have been cut short (a loaded
// machine, -race) the case is skipped with the size it reached.
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
	budget := shrinkBudget(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var last *proptest.World
			var rec *recorder
			var firstFail time.Time
			var took time.Duration
			// Each attempt is a fresh rapid run with its own seed.
			for attempt := 0; attempt < 5 && (rec == nil || !rec.failed); attempt++ {
				rec = newRecorder(t)
				firstFail = time.Time{}
				checkWorlds(rec, c.h, c.prop, "", func(w proptest.World) {
					if firstFail.IsZero() {
						firstFail = time.Now()
					}
					last = &w
				})
				took = time.Since(firstFail)
			}
			if !rec.failed || last == nil {
				t.Fatalf("the property held on the mutant (%s)", c.why)
			}
			files := last.FixtureFiles()
			t.Logf("shrunk counterexample (%d files; %v from the first failure to the end):\n%s\n%s",
				len(files), took.Round(time.Millisecond), last.Txtar(), last.ScenarioJSON())
			switch {
			case len(files) <= 8:
			case took >= budget:
				// rapid shrinks until a round finds nothing smaller or
				// until -rapid.shrinktime has passed since shrinking
				// began (a recorder is no *testing.T, so no test
				// deadline shortens that), and says not which. Shrinking
				// begins after the first failure, so a run that ended
				// within the limit of it finished shrinking; this one did
				// not, and its size may be the machine's load rather
				// than the generator's.
				t.Skipf("the counterexample has %d files, but shrinking may have stopped on its time limit "+
					"(-rapid.shrinktime=%v; %v from the first failure to the end): the size is not checked",
					len(files), budget, took.Round(time.Millisecond))
			default:
				t.Errorf("the counterexample has %d files, want a few (at most 8); shrinking finished, "+
					"%v from the first failure to the end, within -rapid.shrinktime=%v",
					len(files), took.Round(time.Millisecond), budget)
			}
		})
	}
}

// newRecorder is a recorder for one rapid run of t. Its name is t's with
// a random suffix: rapid replays a fail file saved under the same name
// (testdata/rapid/<name>) instead of generating and shrinking, and a
// mutant's expected failure saved by one run must not stand in for the
// shrinking of the next. The fail file it saves is removed when t ends.
func newRecorder(t *testing.T) *recorder {
	name := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '_'
	}, t.Name()) + fmt.Sprintf("-%016x", rand.Uint64())
	t.Cleanup(func() { _ = os.RemoveAll(filepath.Join("testdata", "rapid", name)) })
	return &recorder{name: name}
}

// shrinkBudget is rapid's time limit on shrinking a counterexample, set by
// -rapid.shrinktime or RAPID_SHRINKTIME.
func shrinkBudget(t *testing.T) time.Duration {
	t.Helper()
	if f := flag.Lookup("rapid.shrinktime"); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			if d, ok := g.Get().(time.Duration); ok {
				return d
			}
		}
	}
	t.Fatal("rapid has no duration flag -rapid.shrinktime: cannot tell whether shrinking finished")
	return 0
}
