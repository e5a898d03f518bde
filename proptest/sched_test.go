package proptest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/vfs"
)

// TestScheduleText: a schedule's text reads back as the schedule, and a
// malformed text is refused.
func TestScheduleText(t *testing.T) {
	t.Parallel()
	s := proptest.Schedule{0, 0, 1, 2, 2, 2, 0}
	if got := s.String(); got != "0*2 1*1 2*3 0*1" {
		t.Errorf("String = %q", got)
	}
	back, err := proptest.ParseSchedule(s.String())
	if err != nil || !slices.Equal(back, s) {
		t.Errorf("ParseSchedule(String) = %v, %v; want %v", back, err, s)
	}
	for _, bad := range []string{"0", "a*1", "1*0", "-1*2"} {
		if _, err := proptest.ParseSchedule(bad); err == nil {
			t.Errorf("ParseSchedule(%q) accepted", bad)
		}
	}
}

// lockPair is a session that takes two locks in the given order, writes
// a file under them and releases them.
func lockPair(t *testing.T, first, second, file string) func(int, *proptest.SchedFS) {
	return func(_ int, fsys *proptest.SchedFS) {
		a, err := fsys.Lock(first)
		if err != nil {
			t.Error(err)
			return
		}
		defer a.Unlock()
		b, err := fsys.Lock(second)
		if err != nil {
			t.Error(err)
			return
		}
		defer b.Unlock()
		if err := fsys.WriteFile(file, []byte("x"), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// TestSchedulerFindsADeadlock: two sessions that take two locks in
// opposite orders deadlock under some schedule with one preemption, and
// the scheduler reports it instead of hanging; the same strategy gives
// the same schedule every time.
func TestSchedulerFindsADeadlock(t *testing.T) {
	t.Parallel()
	deadlocks := 0
	for at := 1; at < 12; at++ {
		mem := vfs.NewMemFS(vfs.MemOptions{})
		sessions := []func(int, *proptest.SchedFS){lockPair(t, "/a", "/b", "/f0"), lockPair(t, "/b", "/a", "/f1")}
		s, err := proptest.RunSessions(mem, 2, proptest.Switch{Order: []int{0, 1}, At: at}, 0, func(i int, fsys *proptest.SchedFS) { sessions[i](i, fsys) })
		if err != nil {
			if !strings.Contains(err.Error(), "deadlock") {
				t.Errorf("at %d: %v, want a deadlock", at, err)
			}
			deadlocks++
			continue
		}
		again, _ := proptest.RunSessions(vfs.NewMemFS(vfs.MemOptions{}), 2, proptest.NewReplay(s), 0, func(i int, fsys *proptest.SchedFS) { sessions[i](i, fsys) })
		if !slices.Equal(again, s) {
			t.Errorf("at %d: replay of %s played %s", at, s, again)
		}
	}
	if deadlocks == 0 {
		t.Error("no schedule with one preemption deadlocked the sessions that lock in opposite orders")
	}
}

// TestSchedulerSerializesLocks: under every random schedule, a session
// never holds a lock another holds: a counter read and written back
// under the lock by three sessions ends at three.
func TestSchedulerSerializesLocks(t *testing.T) {
	t.Parallel()
	for seed := range uint64(50) {
		mem := vfs.NewMemFS(vfs.MemOptions{})
		if err := mem.WriteFile("/n", nil, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := proptest.RunSessions(mem, 3, proptest.NewRandom(seed), 0, func(_ int, fsys *proptest.SchedFS) {
			u, err := vfs.LockFile(fsys, "/n")
			if err != nil {
				t.Error(err)
				return
			}
			defer u.Unlock()
			data, _ := fsys.ReadFile("/n")
			if err := fsys.WriteFile("/n", append(data, 'x'), 0o644); err != nil {
				t.Error(err)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := mem.ReadFile("/n"); string(data) != "xxx" {
			t.Errorf("seed %d, schedule %s: counter %q, want xxx", seed, s, data)
		}
	}
}
