package proptest

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

// A Schedule is the order in which sessions moved: the session (0-based)
// that made each step. Its text form ([Schedule.String]) is run-length
// encoded, "0*12 1*40 0*7", and [ParseSchedule] reads it back, so a
// printed schedule can be replayed with [Replay].
type Schedule []int

// String returns the schedule as runs of "<session>*<steps>" separated by
// spaces.
func (s Schedule) String() string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d*%d", s[i], j-i)
		i = j
	}
	return b.String()
}

// ParseSchedule reads the text form of a [Schedule].
func ParseSchedule(text string) (Schedule, error) {
	var s Schedule
	for _, run := range strings.Fields(text) {
		id, count, ok := strings.Cut(run, "*")
		i, err1 := strconv.Atoi(id)
		n, err2 := strconv.Atoi(count)
		if !ok || err1 != nil || err2 != nil || i < 0 || n < 1 {
			return nil, fmt.Errorf("schedule: bad run %q, want <session>*<steps>", run)
		}
		for range n {
			s = append(s, i)
		}
	}
	return s, nil
}

// A Strategy chooses which session makes the next step.
type Strategy interface {
	// Next returns one of runnable (the sessions that can move, in
	// increasing order, never empty) for the step numbered step (from 0).
	Next(step int, runnable []int) int
}

// Replay follows a schedule: at each step the session it names; when
// that session cannot move, or past the schedule's end, the session that
// moved last if it can, else the lowest that can. A failing schedule
// replays exactly, and a schedule with runs left out still runs every
// session to its end, each run going on as long as it can: leaving out a
// run removes a context switch.
type Replay struct {
	s    Schedule
	last int
}

// NewReplay returns the [Replay] strategy of s.
func NewReplay(s Schedule) *Replay { return &Replay{s: s, last: -1} }

// Next returns the schedule's session for step, or the default.
func (r *Replay) Next(step int, runnable []int) int {
	pick := runnable[0]
	switch {
	case step < len(r.s) && slices.Contains(runnable, r.s[step]):
		pick = r.s[step]
	case slices.Contains(runnable, r.last):
		pick = r.last
	}
	r.last = pick
	return pick
}

// Runs returns the schedule's runs: the sessions that moved and for how
// many steps each, consecutive runs of one session merged.
func (s Schedule) Runs() [][2]int {
	var runs [][2]int
	for _, id := range s {
		if n := len(runs); n > 0 && runs[n-1][0] == id {
			runs[n-1][1]++
			continue
		}
		runs = append(runs, [2]int{id, 1})
	}
	return runs
}

// ScheduleOf returns the schedule of runs, as [Schedule.Runs] gives them.
func ScheduleOf(runs [][2]int) Schedule {
	var s Schedule
	for _, r := range runs {
		for range r[1] {
			s = append(s, r[0])
		}
	}
	return s
}

// Random chooses uniformly among the sessions that can move.
type Random struct{ rng *rand.Rand }

// NewRandom returns a [Random] strategy drawing from seed.
func NewRandom(seed uint64) *Random { return &Random{rng: rand.New(rand.NewPCG(seed, 0x5eed))} }

// Next returns a runnable session drawn at random.
func (r *Random) Next(_ int, runnable []int) int { return runnable[r.rng.IntN(len(runnable))] }

// PCT is the probabilistic concurrency testing strategy (Burckhardt et
// al., 2010): each session gets a random distinct priority, the runnable
// session of highest priority moves, and at depth-1 steps drawn at random
// below a bound the session that moves drops below every other. A bug
// that needs d ordering constraints is found with probability at least
// 1/(n k^(d-1)) per schedule, for n sessions and k steps.
type PCT struct {
	prio    map[int]int // session -> priority, higher runs first
	changes []int       // the steps at which the mover's priority drops
	low     int
}

// NewPCT returns a PCT strategy for n sessions, with depth-1 priority
// changes among the first steps steps, drawn from seed.
func NewPCT(seed uint64, n, depth, steps int) *PCT {
	rng := rand.New(rand.NewPCG(seed, 0x9c7))
	p := &PCT{prio: map[int]int{}}
	for i, s := range rng.Perm(n) {
		p.prio[s] = depth + i
	}
	for range depth - 1 {
		p.changes = append(p.changes, rng.IntN(max(steps, 1)))
	}
	p.low = depth - 1
	return p
}

// Next returns the runnable session of highest priority, after lowering
// it at a change point.
func (p *PCT) Next(step int, runnable []int) int {
	best := func() int {
		b := runnable[0]
		for _, s := range runnable[1:] {
			if p.prio[s] > p.prio[b] {
				b = s
			}
		}
		return b
	}
	s := best()
	if slices.Contains(p.changes, step) {
		p.prio[s] = p.low
		p.low--
		s = best()
	}
	return s
}

// Switch is a schedule with at most one preemption: before step At the
// session Order[0] moves whenever it can; from At on the sessions are
// preferred in Order from the second on (Order[0] last). Between them,
// every Order and every At up to the length of a run enumerate, for two
// sessions, every schedule with at most one preemption: the bounded
// exhaustive search of CHESS (Musuvathi and Qadeer, 2007).
type Switch struct {
	Order []int
	At    int
}

// Next returns the preferred runnable session.
func (w Switch) Next(step int, runnable []int) int {
	order := w.Order
	if step >= w.At {
		order = append(slices.Clone(order[1:]), order[0])
	}
	for _, s := range order {
		if slices.Contains(runnable, s) {
			return s
		}
	}
	return runnable[0]
}

// sessionState is where a session stands in a scheduled run.
type sessionState int

const (
	starting sessionState = iota // not parked yet
	ready                        // parked at a step, can move
	running                      // has the turn
	blocked                      // waits for a lock another session holds
	done                         // returned
)

// errAborted ends the sessions of a run the scheduler gave up on.
var errAborted = errors.New("proptest: scheduled run aborted")

// DefaultMaxSteps bounds the steps of a scheduled run: beyond it [Run]
// gives up, as sessions that never end are a failure too.
const DefaultMaxSteps = 200_000

// Sched runs sessions on one file system one file operation at a time:
// every call of a session's [SchedFS] is a step, the session waits for
// its turn before it, and a [Strategy] decides which session moves next.
// Code between two calls runs while every other session waits, so the
// schedule decides the whole interleaving and a run is reproducible from
// its schedule alone. A session that waits for a lock ([vfs.LockFS]) held
// by another cannot move until the lock is released; when no session can
// move and some still wait, the run is a deadlock.
type Sched struct {
	mu       sync.Mutex
	cond     *sync.Cond
	state    []sessionState
	turn     int
	aborted  bool
	trace    Schedule
	maxSteps int
}

// RunSessions runs n sessions, session(i, fsys) for each i in its own goroutine
// with fsys the view of inner that schedules its steps, and returns the
// schedule they followed. The error reports a deadlock or a run of more
// than maxSteps steps (0 means [DefaultMaxSteps]); the sessions of such a
// run are stopped at their next step.
func RunSessions(inner vfs.ReadWriteFS, n int, strategy Strategy, maxSteps int, session func(i int, fsys *SchedFS)) (Schedule, error) {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	s := &Sched{state: make([]sessionState, n), turn: -1, maxSteps: maxSteps}
	s.cond = sync.NewCond(&s.mu)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.finish(i)
			defer func() {
				if r := recover(); r != nil && r != errAborted { //nolint:errorlint // the sentinel itself
					panic(r)
				}
			}()
			fsys := &SchedFS{inner: inner, s: s, id: i}
			s.step(i)
			session(i, fsys)
		}()
	}
	err := s.control(strategy)
	wg.Wait()
	return s.trace, err
}

// control hands out turns until every session is done.
func (s *Sched) control(strategy Strategy) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for s.turn != -1 || slices.Contains(s.state, starting) {
			s.cond.Wait()
		}
		var runnable []int
		waiting := false
		for i, st := range s.state {
			switch st {
			case ready:
				runnable = append(runnable, i)
			case blocked:
				waiting = true
			}
		}
		var err error
		switch {
		case len(runnable) == 0 && !waiting:
			return nil
		case len(runnable) == 0:
			err = fmt.Errorf("deadlock after %d steps: every live session waits for a lock", len(s.trace))
		case len(s.trace) >= s.maxSteps:
			err = fmt.Errorf("no end after %d steps", s.maxSteps)
		}
		if err != nil {
			s.aborted = true
			s.cond.Broadcast()
			return err
		}
		pick := strategy.Next(len(s.trace), runnable)
		if !slices.Contains(runnable, pick) {
			pick = runnable[0]
		}
		s.trace = append(s.trace, pick)
		s.state[pick], s.turn = running, pick
		s.cond.Broadcast()
	}
}

// step parks session id until it has the turn.
func (s *Sched) step(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.park(id, ready)
}

// park gives up the turn in state st and waits for it to come back; the
// caller holds s.mu.
func (s *Sched) park(id int, st sessionState) {
	s.state[id] = st
	if s.turn == id {
		s.turn = -1
	}
	s.cond.Broadcast()
	for s.turn != id && !s.aborted {
		s.cond.Wait()
	}
	if s.aborted {
		panic(errAborted)
	}
}

// block parks session id until a lock is released and it has the turn.
func (s *Sched) block(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.park(id, blocked)
}

// released makes every session that waits for a lock able to move.
func (s *Sched) released() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, st := range s.state {
		if st == blocked {
			s.state[i] = ready
		}
	}
}

// finish marks session id done and gives up its turn.
func (s *Sched) finish(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state[id] = done
	if s.turn == id {
		s.turn = -1
	}
	s.cond.Broadcast()
}

// SchedFS is one session's view of the file system of a [RunSessions]: every
// call waits for the session's turn, then runs on the file system
// underneath. Lock waits by the scheduler's rules, never in the file
// system: a lock another session holds parks the session until it is
// released.
type SchedFS struct {
	inner vfs.ReadWriteFS
	s     *Sched
	id    int
}

var (
	_ vfs.ReadWriteFS = (*SchedFS)(nil)
	_ vfs.LockFS      = (*SchedFS)(nil)
	_ vfs.SyncDirFS   = (*SchedFS)(nil)
)

func (f *SchedFS) step() { f.s.step(f.id) }

// Open opens the named file for reading.
func (f *SchedFS) Open(name string) (fs.File, error) { f.step(); return f.inner.Open(name) }

// Stat returns a FileInfo for the named file, following links.
func (f *SchedFS) Stat(name string) (fs.FileInfo, error) { f.step(); return f.inner.Stat(name) }

// Lstat returns a FileInfo for the named file without following a final link.
func (f *SchedFS) Lstat(name string) (fs.FileInfo, error) { f.step(); return f.inner.Lstat(name) }

// ReadFile reads the named file.
func (f *SchedFS) ReadFile(name string) ([]byte, error) { f.step(); return f.inner.ReadFile(name) }

// ReadDir lists the named directory.
func (f *SchedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.step()
	return f.inner.ReadDir(name)
}

// ReadLink returns the target of a symbolic link.
func (f *SchedFS) ReadLink(name string) (string, error) { f.step(); return f.inner.ReadLink(name) }

// WriteFile writes a whole file.
func (f *SchedFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	f.step()
	return f.inner.WriteFile(name, data, perm)
}

// OpenFile opens the named file with flags; reads and writes of the
// open file belong to the step of the call that made them possible.
func (f *SchedFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f.step()
	return f.inner.OpenFile(name, flag, perm)
}

// Mkdir creates a directory.
func (f *SchedFS) Mkdir(name string, perm fs.FileMode) error {
	f.step()
	return f.inner.Mkdir(name, perm)
}

// MkdirAll creates a directory and its parents.
func (f *SchedFS) MkdirAll(name string, perm fs.FileMode) error {
	f.step()
	return f.inner.MkdirAll(name, perm)
}

// Remove removes a file, link or empty directory.
func (f *SchedFS) Remove(name string) error { f.step(); return f.inner.Remove(name) }

// RemoveAll removes a tree.
func (f *SchedFS) RemoveAll(name string) error { f.step(); return f.inner.RemoveAll(name) }

// Rename renames oldname to newname.
func (f *SchedFS) Rename(oldname, newname string) error {
	f.step()
	return f.inner.Rename(oldname, newname)
}

// Symlink creates newname as a link to oldname.
func (f *SchedFS) Symlink(oldname, newname string) error {
	f.step()
	return f.inner.Symlink(oldname, newname)
}

// Chmod changes a mode.
func (f *SchedFS) Chmod(name string, mode fs.FileMode) error {
	f.step()
	return f.inner.Chmod(name, mode)
}

// Chtimes changes times.
func (f *SchedFS) Chtimes(name string, atime, mtime time.Time) error {
	f.step()
	return f.inner.Chtimes(name, atime, mtime)
}

// Lock takes the lock of name: a step, then, while another session holds
// the lock, the session waits without moving until a lock is released.
func (f *SchedFS) Lock(name string) (vfs.Unlocker, error) { return f.lock(name, true) }

// TryLock takes the lock of name if it is free: a step.
func (f *SchedFS) TryLock(name string) (vfs.Unlocker, error) { return f.lock(name, false) }

func (f *SchedFS) lock(name string, wait bool) (vfs.Unlocker, error) {
	f.step()
	for {
		u, err := vfs.TryLock(f.inner, name)
		if err == nil {
			return &schedLock{f: f, u: u}, nil
		}
		if !wait || !errors.Is(err, vfs.ErrLocked) {
			return nil, err
		}
		f.s.block(f.id)
	}
}

// schedLock is a lock taken through a [SchedFS]: its release is a step,
// and lets the sessions that wait for a lock move again.
type schedLock struct {
	f *SchedFS
	u vfs.Unlocker
}

func (l *schedLock) Unlock() error {
	l.f.step()
	err := l.u.Unlock()
	l.f.s.released()
	return err
}

// SyncDir commits a directory's entries.
func (f *SchedFS) SyncDir(name string) error { f.step(); return vfs.SyncDir(f.inner, name) }
