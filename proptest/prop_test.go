package proptest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// property checks one world with a harness and returns the problems found
// and the world as played.
type property func(t TB, h harness, w proptest.World) ([]string, proptest.World)

// checkWorlds runs prop on generated worlds; onFail gets the world of each
// failing case (the last one is the shrunk world).
func checkWorlds(t rapid.TB, h harness, prop property, hint string, onFail func(proptest.World)) {
	t.Helper()
	if h.cache == nil {
		// One cache per property: worlds drawn from tiny alphabets repeat
		// files, and results are the same with and without it.
		h.cache = resolve.NewCache()
	}
	rapid.Check(t, func(rt *rapid.T) {
		w := proptest.PlatformWorldGen(h.platform).Draw(rt, "world")
		if problems, played := prop(rt, h, w); len(problems) > 0 {
			onFail(played)
			rt.Fatalf("%s%s", strings.Join(problems, "\n"), hint)
		}
	})
}

// runProperty checks prop on the real engine; the shrunk counterexample of
// a failure is written under testdata/counterexamples/<name>.
func runProperty(t *testing.T, name string, prop property) {
	t.Helper()
	runPlatformProperty(t, name, "", prop)
}

// runPlatformProperty is runProperty on worlds that run as platform p
// (proptest.PlatformWorldGen).
func runPlatformProperty(t *testing.T, name string, p vfs.Platform, prop property) {
	t.Helper()
	var last *proptest.World
	t.Cleanup(func() {
		if !t.Failed() || last == nil {
			return
		}
		if err := proptest.WriteCounterexample(proptest.CounterexampleDir, name, *last); err != nil {
			t.Errorf("%v", err)
			return
		}
		t.Logf("shrunk counterexample written; replay it with\n\t%s", proptest.ReplayCommand(name))
	})
	hint := fmt.Sprintf("\ncounterexample: %s/%s.{txtar,json}; replay: %s", proptest.CounterexampleDir, name, proptest.ReplayCommand(name))
	checkWorlds(t, harness{platform: p}, prop, hint, func(w proptest.World) { last = &w })
}

// step is one run as the model and the engine saw it.
type step struct {
	world proptest.World // the world when the run started
	run   proptest.Run
	model runModel
	res   *sim.Result
	obs   *runObs
	post  postRun
}

// steps walks the runs of an execution with the model, advancing the world
// description by each run's durable effects.
func steps(ex *execution) []step {
	w := ex.world
	var out []step
	for i, r := range ex.world.Runs {
		s := step{world: w, run: r, model: model(w, r), res: ex.out.Results[i], obs: ex.runs[i]}
		if s.model.launch && s.res.Launched && s.obs != nil && s.obs.ran {
			s.post = s.model.classify(w, r, changedPaths(s.res.AtLaunch, s.obs.end), s.obs.end)
			w = advance(w, s.model, s.obs.ops, s.post)
		}
		out = append(out, s)
	}
	return out
}

func classification(t TB, h harness, w proptest.World) ([]string, proptest.World) {
	ex := h.execute(t, w)
	var problems []string
	fail := func(i int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("run %d: ", i)+fmt.Sprintf(format, args...))
	}
	for i, s := range steps(ex) {
		if !s.model.launch {
			if s.res.Launched || s.res.Err == nil {
				fail(i, "model expects a failure before launch; engine launched=%v err=%v", s.res.Launched, s.res.Err)
			}
			continue
		}
		if !s.res.Launched || !s.obs.ran {
			fail(i, "engine did not launch: %v", s.res.Err)
			continue
		}
		want := append([]warning(nil), asWarnings(s.model.prelaunch)...)
		want = append(want, s.post.warnings...)
		if !warningsMatch(want, s.res.Warnings) {
			fail(i, "warnings differ:\n\twant %q\n\tgot  %q", texts(want), s.res.Warnings)
		}
		got := ""
		if s.res.Err != nil {
			got = s.res.Err.Error()
		}
		if got != s.post.err && !(s.post.errPre && strings.HasPrefix(got, strings.SplitN(s.post.err, "Could not persist", 2)[0])) {
			fail(i, "error differs:\n\twant %q\n\tgot  %q", s.post.err, got)
		}
		code := 0
		if n := len(s.obs.ops); n > 0 && s.obs.ops[n-1].Op.Op == fixtures.OpExit {
			code = s.obs.ops[n-1].Op.Code
		}
		if s.post.err != "" {
			code = 1
		}
		if s.res.ExitCode != code {
			fail(i, "exit code %d, want %d", s.res.ExitCode, code)
		}
	}
	return problems, ex.effective()
}

func asWarnings(list []string) []warning {
	out := make([]warning, len(list))
	for i, s := range list {
		out[i] = warning{text: s}
	}
	return out
}

func texts(ws []warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
		if w.prefix {
			out[i] += "…"
		}
	}
	return out
}

func warningsMatch(want []warning, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	for i, w := range want {
		if got[i] != w.text && !(w.prefix && strings.HasPrefix(got[i], w.text)) {
			return false
		}
	}
	return true
}

func precedence(t TB, h harness, w proptest.World) ([]string, proptest.World) {
	ex := h.execute(t, w)
	var problems []string
	for i, s := range steps(ex) {
		if !s.model.launch || !s.res.Launched {
			continue
		}
		for _, d := range s.model.decls {
			e, ok := s.res.AtLaunch[d.name()]
			isLink := ok && e.Type == vfs.TypeSymlink
			if s.model.strategy[d.key] != "symlink" {
				if isLink {
					problems = append(problems, fmt.Sprintf("run %d: %s (%s) is a link to %s", i, d.key, s.model.strategy[d.key], e.Target))
				}
				continue
			}
			want := report.FixtureRoot + "/" + s.model.source[d.key]
			if !isLink || e.Target != want {
				problems = append(problems, fmt.Sprintf("run %d: %s links to %q, want %q", i, d.key, e.Target, want))
			}
		}
	}
	return problems, ex.effective()
}

// allowance is what the model lets a scenario write durably (§6).
type allowance struct {
	// platform folds the paths compared ("" compares them exactly).
	platform vfs.Platform
	through  []string          // sources written through their links: anything at or below
	created  map[string]string // sources the engine may create: path → default content
	persist  []string          // prompt sources a persist/always answer may write
	files    []string          // files the agent edited, or always choices recorded in
}

func (a *allowance) allows(p string, before, after vfs.Entry, added, removed bool) bool {
	if a.platform != "" && a.platform != vfs.PlatformLinux {
		return a.folded().allows(vfs.FoldName(a.platform, p), before, after, added, removed)
	}
	under := func(list []string) bool {
		for _, s := range list {
			if p == s || strings.HasPrefix(p, s+"/") {
				return true
			}
		}
		return false
	}
	ancestor := func(list []string) bool {
		for _, s := range list {
			if strings.HasPrefix(s, p+"/") {
				return true
			}
		}
		return false
	}
	switch {
	case under(a.through) || under(a.persist):
		return true
	case removed:
		return false
	case added && after.Type == vfs.TypeDir && (ancestor(a.through) || ancestor(a.persist) || ancestor(keys(a.created))):
		return true
	}
	def, ok := a.created[p]
	if ok && (after.Type == vfs.TypeDir && added || after.Type == vfs.TypeFile && string(after.Data) == def &&
		(added || before.Type == vfs.TypeFile && strings.TrimSpace(string(before.Data)) == "")) {
		return true
	}
	for _, f := range a.files {
		if p == f && !added {
			return true
		}
	}
	return false
}

// folded returns the allowance with every path folded as its platform
// folds names, comparing exactly.
func (a *allowance) folded() *allowance {
	f := func(list []string) []string {
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = vfs.FoldName(a.platform, s)
		}
		return out
	}
	b := &allowance{through: f(a.through), persist: f(a.persist), files: f(a.files), created: map[string]string{}}
	for k, v := range a.created {
		b.created[vfs.FoldName(a.platform, k)] = v
	}
	return b
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func noCopyBack(t TB, h harness, w proptest.World) ([]string, proptest.World) {
	ex := h.execute(t, w)
	a := &allowance{platform: w.Platform, created: map[string]string{}}
	for _, s := range steps(ex) {
		if !s.model.launch || s.obs == nil || !s.obs.ran {
			continue
		}
		for _, d := range s.model.decls {
			src, ok := s.model.source[d.key]
			switch {
			case !ok:
			case s.model.strategy[d.key] == "symlink":
				if d.dir() {
					a.created[src] = ""
				} else {
					a.created[src] = defaultContent(src)
				}
				if touches(s.obs.ops, d.name(), w.Platform) {
					a.through = append(a.through, src)
				}
			case s.run.Interactive && s.run.Answers[d.key] != "discard":
				a.persist = append(a.persist, src)
			}
		}
		for _, op := range s.obs.ops {
			if op.Edited != nil {
				a.files = append(a.files, op.Edited.ProfileFile())
			}
		}
		if len(s.post.always) > 0 {
			a.files = append(a.files, s.world.Profiles[s.model.selected].ProfileFile())
		}
	}
	d := vfs.Diff(ex.before, ex.after)
	var problems []string
	for p, e := range d.Added {
		if seeded(ex.before, p, e) {
			continue
		}
		if !a.allows(p, vfs.Entry{}, e, true, false) {
			problems = append(problems, fmt.Sprintf("durable %s was added (%s %q)", p, e.Type, e.Data))
		}
	}
	for p, c := range d.Changed {
		if !a.allows(p, c.Before, c.After, false, false) {
			problems = append(problems, fmt.Sprintf("durable %s changed from %q to %q", p, c.Before.Data, c.After.Data))
		}
	}
	for _, p := range d.Removed {
		if !a.allows(p, vfs.Entry{}, vfs.Entry{}, false, true) {
			problems = append(problems, fmt.Sprintf("durable %s was removed", p))
		}
	}
	return sortedUnique(problems), ex.effective()
}

// seeded reports whether p, added, is the state copy of a synced
// profile's source (resolve.SyncedState) as the engine makes it from the
// checkout: the same entry at the same path below home/.outfitter/cache
// in before. It copies nothing back: the checkout is the profile's own.
func seeded(before vfs.Tree, p string, e vfs.Entry) bool {
	rest, ok := strings.CutPrefix(p, "home/.outfitter/state/")
	if !ok {
		return p == "home/.outfitter/state" && e.Type == vfs.TypeDir
	}
	src, ok := before["home/.outfitter/cache/"+rest]
	switch {
	case !ok:
		// A directory on the way to a seeded source.
		return e.Type == vfs.TypeDir && strings.Count(rest, "/") < 2
	case e.Type == vfs.TypeDir:
		return src.Type == vfs.TypeDir
	}
	return src.Type == e.Type && string(src.Data) == string(e.Data)
}

func refreshKeepsDurable(t TB, h harness, w proptest.World) ([]string, proptest.World) {
	ex := h.execute(t, w)
	var problems []string
	for i, obs := range ex.runs {
		if obs != nil && len(obs.refreshChanges) > 0 {
			problems = append(problems, fmt.Sprintf("run %d: a refresh changed durable %q", i, obs.refreshChanges))
		}
	}
	return problems, ex.effective()
}

func reportJSON(t TB, ex *execution) []byte {
	t.Helper()
	data, err := json.Marshal(ex.out.Report)
	if err != nil {
		t.Fatalf("encode report: %v", err)
	}
	return data
}

func determinism(t TB, h harness, w proptest.World) ([]string, proptest.World) {
	a, b := h.execute(t, w), h.execute(t, w)
	if ra, rb := reportJSON(t, a), reportJSON(t, b); !bytes.Equal(ra, rb) {
		return []string{fmt.Sprintf("reports differ:\n%s\n%s", ra, rb)}, a.effective()
	}
	return nil, a.effective()
}

// onDisk mounts the prepared machine on a rooted OS directory, removed when
// the harness's caller is done with it (after the comparison).
func onDisk(dirs *[]string) func(mem *vfs.MemFS) (sim.FS, error) {
	return func(mem *vfs.MemFS) (sim.FS, error) {
		dir, err := os.MkdirTemp("", "proptest-")
		if err != nil {
			return nil, err
		}
		*dirs = append(*dirs, dir)
		o := osfs.NewRooted(dir)
		for _, root := range []string{report.FixtureRoot, "/tmp"} {
			if err := vfs.CopyTree(o, root, mem, root); err != nil {
				return nil, err
			}
		}
		return o, nil
	}
}

func backendsAgree(t TB, h harness, w proptest.World) ([]string, proptest.World) {
	var dirs []string
	defer func() {
		for _, d := range dirs {
			_ = os.RemoveAll(d)
		}
	}()
	mem := h.execute(t, w)
	disk := h
	disk.mount = onDisk(&dirs)
	osx := disk.execute(t, w)
	if rm, ro := reportJSON(t, mem), reportJSON(t, osx); !bytes.Equal(rm, ro) {
		return []string{fmt.Sprintf("memfs and osfs reports differ:\n%s\n%s", rm, ro)}, mem.effective()
	}
	return nil, mem.effective()
}

func strictness(t TB, h harness, w proptest.World) ([]string, proptest.World) {
	w.Runs = w.Runs[:1]
	w.Runs[0].Strict = false
	loose := h.execute(t, w)
	h.strict = true
	strict := h.execute(t, w)
	var problems []string
	lr, sr := loose.out.Results[0], strict.out.Results[0]
	switch {
	case lr.Err == nil && len(lr.Warnings) > 0:
		if sr.Err == nil || !strings.HasPrefix(sr.Err.Error(), "Strict failed for ") {
			problems = append(problems, fmt.Sprintf("warnings %q without --strict, but the strict run ended with %v", lr.Warnings, sr.Err))
		}
	case lr.Err == nil:
		if !bytes.Equal(reportJSON(t, loose), reportJSON(t, strict)) {
			problems = append(problems, "a run without warnings reports differently under --strict")
		}
	}
	ld, sd := vfs.Diff(loose.before, loose.after), vfs.Diff(strict.before, strict.after)
	for p, e := range sd.Added {
		if le, ok := ld.Added[p]; !ok || !le.Equal(e) {
			problems = append(problems, fmt.Sprintf("the strict run added durable %s, the run without --strict did not", p))
		}
	}
	for p, c := range sd.Changed {
		if lc, ok := ld.Changed[p]; !ok || !lc.After.Equal(c.After) {
			problems = append(problems, fmt.Sprintf("the strict run changed durable %s, the run without --strict did not", p))
		}
	}
	for _, p := range sd.Removed {
		if !contains(ld.Removed, p) {
			problems = append(problems, fmt.Sprintf("the strict run removed durable %s, the run without --strict did not", p))
		}
	}
	return sortedUnique(problems), strict.effective()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestPropNoCopyBack(t *testing.T)     { runProperty(t, "no_copy_back", noCopyBack) }
func TestPropPrecedence(t *testing.T)     { runProperty(t, "precedence", precedence) }
func TestPropClassification(t *testing.T) { runProperty(t, "classification", classification) }
func TestPropStrict(t *testing.T)         { runProperty(t, "strict", strictness) }
func TestPropRefresh(t *testing.T)        { runProperty(t, "refresh", refreshKeepsDurable) }
func TestPropDeterminism(t *testing.T)    { runProperty(t, "determinism", determinism) }
func TestPropBackends(t *testing.T)       { runProperty(t, "backends", backendsAgree) }

// TestPropDarwinNoCopyBack checks, on worlds run as macOS whose agent
// writes its paths in other cases and normalizations, that nothing is
// copied back: every durable change is one a link, a prompt answer or an
// edit allows, paths compared as APFS folds them.
func TestPropDarwinNoCopyBack(t *testing.T) {
	runPlatformProperty(t, "darwin_no_copy_back", vfs.PlatformDarwin, noCopyBack)
}

// TestPropDarwinDeterminism checks that a macOS world gives the same
// report twice.
func TestPropDarwinDeterminism(t *testing.T) {
	runPlatformProperty(t, "darwin_determinism", vfs.PlatformDarwin, determinism)
}
