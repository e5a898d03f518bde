package proptest_test

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// The budget of the concurrency properties, and the replay of one of
// their failures.
var (
	schedN      = flag.Int("sched.n", 0, "schedules checked by TestPropConcurrentSessions (0: 10,000, or 1,000 under -race)")
	schedReplay = flag.String("sched.replay", "", "replay one schedule of TestPropConcurrentSessions: <world seed>:<schedule>")
)

// schedBudget is the number of schedules TestPropConcurrentSessions
// checks: 10,000, or 1,000 in a -race build, where every step costs about
// ten times as much (-sched.n=10000 runs the full count there too).
func schedBudget() int {
	switch {
	case *schedN > 0:
		return *schedN
	case raceEnabled:
		return 1000
	}
	return 10000
}

// The machine of the concurrent sessions: one home, one profile whose
// state paths are asked about (prompt), pi.
const (
	concHome    = "/h"
	concProject = "/p"
	concProfile = concHome + "/.outfitter/profiles/eng/profile.yml"
	concDurable = concHome + "/.pi/agent"
)

// concKeys are the prompt state paths a session writes and answers
// "always" for.
var concKeys = []string{"mcp.json", "models.json", "trust.json"}

// concNow is the clock of the machine and of every session's sweep.
var concNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// concSession is what one session does: its agent writes key in the
// composite (a prompt path, answered "always"), adds files session files
// through the sessions/ link (durable at once), and, when old is set,
// leaves its root with a modification time eight days old, as a session
// open for a week whose agent only writes below the root's top level.
type concSession struct {
	key   string
	files int
	old   bool
}

// concWorld is the sessions of one check, drawn from a seed.
type concWorld struct {
	seed     uint64
	sessions []concSession
}

func newConcWorld(seed uint64) concWorld {
	rng := rand.New(rand.NewPCG(seed, 35))
	n := 2
	if rng.IntN(3) == 0 {
		n = 3
	}
	w := concWorld{seed: seed}
	for range n {
		w.sessions = append(w.sessions, concSession{key: concKeys[rng.IntN(len(concKeys))], files: rng.IntN(3), old: rng.IntN(2) == 0})
	}
	return w
}

// distinct reports whether the sessions' durable writes do not overlap:
// every session answers for its own key.
func (w concWorld) distinct() bool {
	seen := map[string]bool{}
	for _, s := range w.sessions {
		if seen[s.key] {
			return false
		}
		seen[s.key] = true
	}
	return true
}

func (w concWorld) String() string {
	var parts []string
	for i, s := range w.sessions {
		parts = append(parts, fmt.Sprintf("session %d: %s, %d files, old %v", i, s.key, s.files, s.old))
	}
	return fmt.Sprintf("world %d (%s)", w.seed, strings.Join(parts, "; "))
}

// concMachine is the machine before the sessions.
func concMachine(t testing.TB) *vfs.MemFS {
	t.Helper()
	mem := vfs.NewMemFS(vfs.MemOptions{Clock: func() time.Time { return concNow }})
	for name, content := range map[string]string{
		concHome + "/.outfitter/settings.yml": "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		concProfile:                           "id: eng\nstate_persistence:\n  mcp.json: prompt\n  models.json: prompt\n  trust.json: prompt\n",
	} {
		if err := mem.MkdirAll(name[:strings.LastIndexByte(name, '/')], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mem.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{concProject, concDurable + "/sessions"} {
		if err := mem.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := mem.Mkdir("/tmp", 0o1777); err != nil {
		t.Fatal(err)
	}
	return mem
}

// concAgent is the agent of session i.
func concAgent(i int, s concSession) sim.Agent {
	return sim.AgentFunc(func(_ context.Context, sess *sim.Session) (writeback.Exit, error) {
		fsys, root := sess.FS, sess.Root
		if err := fsys.WriteFile(root+"/"+s.key, []byte(sessionText(i)), 0o644); err != nil {
			return writeback.Exit{}, err
		}
		for j := range s.files {
			if err := fsys.WriteFile(fmt.Sprintf("%s/sessions/s%d-%d.jsonl", root, i, j), []byte(sessionText(i)), 0o644); err != nil {
				return writeback.Exit{}, err
			}
		}
		if s.old {
			week := concNow.Add(-8 * 24 * time.Hour)
			if err := fsys.Chtimes(root, week, week); err != nil {
				return writeback.Exit{}, err
			}
		}
		if _, err := fsys.ReadFile(root + "/" + s.key); err != nil {
			return writeback.Exit{}, fmt.Errorf("the composite root went away under the running agent: %w", err)
		}
		return writeback.Exit{Exited: true}, nil
	})
}

func sessionText(i int) string { return "written by session " + strconv.Itoa(i) + "\n" }

// always answers "always" to every prompt.
var always = writeback.PrompterFunc(func(context.Context, writeback.PromptRequest) (writeback.Choice, error) {
	return writeback.ChoiceAlways, nil
})

// concOutcome is a scheduled run of a world's sessions.
type concOutcome struct {
	schedule proptest.Schedule
	err      error
	results  []*sim.Result
	tree     string
	swept    []string // the live roots another session removed
}

// rootWatch is a session's scheduled file system that tells the roots it
// creates (outfitter-* in /tmp) and the removals of another session's
// live root, a root its session has not removed itself yet.
type rootWatch struct {
	*proptest.SchedFS
	id    int
	live  map[string]int // root -> session, shared by the sessions of a run
	swept *[]string
}

func (f *rootWatch) Mkdir(name string, perm fs.FileMode) error {
	err := f.SchedFS.Mkdir(name, perm)
	if err == nil && strings.HasPrefix(name, "/tmp/outfitter-") {
		f.live[name] = f.id
	}
	return err
}

func (f *rootWatch) RemoveAll(name string) error {
	err := f.SchedFS.RemoveAll(name)
	if owner, ok := f.live[name]; ok {
		if owner != f.id {
			*f.swept = append(*f.swept, fmt.Sprintf("session %d removed the live root of session %d (%s)", f.id, owner, name))
		}
		delete(f.live, name)
	}
	return err
}

// runConc runs the sessions of w on a fresh machine under strategy.
func runConc(t testing.TB, w concWorld, strategy proptest.Strategy) concOutcome {
	t.Helper()
	mem := concMachine(t)
	out := concOutcome{results: make([]*sim.Result, len(w.sessions))}
	live := map[string]int{}
	out.schedule, out.err = proptest.RunSessions(mem, len(w.sessions), strategy, 0, func(i int, sched *proptest.SchedFS) {
		// The sessions move one at a time: the map needs no lock.
		fsys := &rootWatch{SchedFS: sched, id: i, live: live, swept: &out.swept}
		spec := sim.Spec{Home: concHome, Project: concProject, Agent: "pi", Interactive: true}
		opts := sim.Options{Clock: func() time.Time { return concNow }, Rand: rand.NewChaCha8([32]byte{byte(i + 1)}), TempDir: "/tmp", Prompter: always}
		out.results[i] = sim.Execute(context.Background(), fsys, spec, concAgent(i, w.sessions[i]), opts)
	})
	if out.err == nil {
		tree, err := vfs.Snapshot(mem, "/")
		if err != nil {
			t.Fatal(err)
		}
		out.tree = treeText(tree)
	}
	return out
}

// treeText is a tree as text: every entry with its kind, mode, content
// and target, in path order.
func treeText(tree vfs.Tree) string {
	var b strings.Builder
	for _, p := range tree.Paths() {
		e := tree[p]
		fmt.Fprintf(&b, "%s %v %v %q %q\n", p, e.Type, e.Mode, e.Data, e.Target)
	}
	return b.String()
}

// concProblems checks the properties of one scheduled run: every session
// ended well (its root was never swept under it), every "always" answer
// is in the profile, every durable file is one session's whole content,
// no session swept a live root, nothing is left in the temporary
// directory, and, when the sessions' writes do not overlap, the machine
// ends as one of the serial runs leaves it.
func concProblems(w concWorld, o concOutcome, serial map[string]bool) []string {
	if o.err != nil {
		return []string{o.err.Error()}
	}
	var problems []string
	for i, r := range o.results {
		if r.Err != nil {
			problems = append(problems, fmt.Sprintf("session %d failed: %v", i, r.Err))
		}
	}
	problems = append(problems, o.swept...)
	files := map[string]string{}
	for _, line := range strings.Split(o.tree, "\n") {
		if name, rest, ok := strings.Cut(line, " "); ok {
			files["/"+name] = rest
		}
	}
	profile := files[concProfile]
	for i, s := range w.sessions {
		if !strings.Contains(profile, s.key+": symlink") {
			problems = append(problems, fmt.Sprintf("session %d's \"always\" for %s is not in the profile: %s", i, s.key, profile))
		}
		var whole []string
		for j, other := range w.sessions {
			if other.key == s.key {
				whole = append(whole, strconv.Quote(sessionText(j)))
			}
		}
		got := files[concDurable+"/"+s.key]
		if !slices.ContainsFunc(whole, func(q string) bool { return strings.Contains(got, " "+q+" ") }) {
			problems = append(problems, fmt.Sprintf("durable %s is %s, want one session's whole content", s.key, got))
		}
		for j := range s.files {
			if _, ok := files[fmt.Sprintf("%s/sessions/s%d-%d.jsonl", concDurable, i, j)]; !ok {
				problems = append(problems, fmt.Sprintf("session %d's file s%d-%d.jsonl is lost", i, i, j))
			}
		}
	}
	for name := range files {
		if strings.HasPrefix(name, "/tmp/") || strings.HasSuffix(name, ".lock") {
			problems = append(problems, "left behind: "+name)
		}
	}
	if w.distinct() && len(problems) == 0 && !serial[o.tree] {
		problems = append(problems, "the machine ends in a state no serial order of the sessions gives:\n"+o.tree)
	}
	slices.Sort(problems)
	return problems
}

// serialTrees returns the machines the sessions leave when they run one
// after the other, in every order.
func serialTrees(t testing.TB, w concWorld) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, order := range permutations(len(w.sessions)) {
		o := runConc(t, w, proptest.Switch{Order: order, At: proptest.DefaultMaxSteps})
		if problems := concProblems(w, o, map[string]bool{o.tree: true}); len(problems) > 0 {
			t.Fatalf("%v: the serial order %v fails: %s", w, order, problems)
		}
		out[o.tree] = true
	}
	return out
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int(nil), p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// shrink returns a schedule with as few context switches as it finds
// that still fails. It first looks for one with a single preemption, in
// the order of [proptest.Switch] (every order of the sessions, every
// step of the first one's run); failing that, it leaves out runs of the
// schedule (halves, quarters, down to single runs) while the replay
// fails: a run left out is a switch the replay does not make.
func shrink(t testing.TB, w concWorld, s proptest.Schedule, serial map[string]bool) (proptest.Schedule, []string) {
	t.Helper()
	for _, order := range permutations(len(w.sessions)) {
		whole := runConc(t, w, proptest.Switch{Order: order, At: proptest.DefaultMaxSteps})
		for at := 1; at < len(whole.schedule); at++ {
			o := runConc(t, w, proptest.Switch{Order: order, At: at})
			if p := concProblems(w, o, serial); len(p) > 0 {
				return o.schedule, p
			}
		}
	}
	fails := func(s proptest.Schedule) []string {
		return concProblems(w, runConc(t, w, proptest.NewReplay(s)), serial)
	}
	problems := fails(s)
	runs := s.Runs()
	for chunk := len(runs) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i+chunk <= len(runs); {
			cand := proptest.ScheduleOf(append(slices.Clone(runs[:i]), runs[i+chunk:]...))
			if p := fails(cand); len(p) > 0 {
				runs, problems = cand.Runs(), p
				continue
			}
			i += chunk
		}
	}
	return proptest.ScheduleOf(runs), problems
}

// TestPropConcurrentSessions runs two or three sessions of random worlds
// on one home under schedules chosen by every strategy of the scheduler:
// every schedule of two sessions with at most one preemption, random
// schedules and PCT schedules of depth 2 and 3, 10,000 schedules in all
// (see schedBudget). A failure prints the world's seed and the shortest
// failing schedule found, which -sched.replay replays.
func TestPropConcurrentSessions(t *testing.T) {
	if *schedReplay != "" {
		replayConc(t, *schedReplay)
		return
	}
	budget := schedBudget()
	checked := 0
	for seed := uint64(1); checked < budget; seed++ {
		w := newConcWorld(seed)
		serial := serialTrees(t, w)
		var strategies []proptest.Strategy
		switch seed % 3 {
		case 0:
			// Bounded exhaustive: the serial length bounds At.
			for _, order := range permutations(len(w.sessions)) {
				o := runConc(t, w, proptest.Switch{Order: order, At: proptest.DefaultMaxSteps})
				for at := 1; at < len(o.schedule); at++ {
					strategies = append(strategies, proptest.Switch{Order: order, At: at})
				}
			}
		case 1:
			for k := range 50 {
				strategies = append(strategies, proptest.NewRandom(seed<<8|uint64(k)))
			}
		case 2:
			for k := range 50 {
				strategies = append(strategies, proptest.NewPCT(seed<<8|uint64(k), len(w.sessions), 2+k%2, 600))
			}
		}
		for _, strategy := range strategies {
			if checked >= budget {
				break
			}
			checked++
			o := runConc(t, w, strategy)
			if problems := concProblems(w, o, serial); len(problems) > 0 {
				s, problems := shrink(t, w, o.schedule, serial)
				t.Fatalf("%v, after %d schedules:\n%s\nshortest failing schedule (%d steps): %s\nreplay: go test ./proptest -run TestPropConcurrentSessions -sched.replay='%d:%s'",
					w, checked, strings.Join(problems, "\n"), len(s), s, w.seed, s)
			}
		}
	}
	t.Logf("%d schedules checked", checked)
}

// replayConc replays one schedule, "<world seed>:<schedule>".
func replayConc(t *testing.T, text string) {
	seedText, schedText, ok := strings.Cut(text, ":")
	seed, err := strconv.ParseUint(seedText, 10, 64)
	if !ok || err != nil {
		t.Fatalf("-sched.replay %q: want <world seed>:<schedule>", text)
	}
	s, err := proptest.ParseSchedule(schedText)
	if err != nil {
		t.Fatal(err)
	}
	w := newConcWorld(seed)
	o := runConc(t, w, proptest.NewReplay(s))
	t.Logf("%v\nplayed: %s", w, o.schedule)
	if problems := concProblems(w, o, serialTrees(t, w)); len(problems) > 0 {
		t.Fatalf("%s", strings.Join(problems, "\n"))
	}
}
