package sim_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// The environment of the helper process of TestSIGKILL.
const (
	killDirEnv   = "VFSIM_KILL_DIR"   // the machine's host directory
	killPointEnv = "VFSIM_KILL_POINT" // the write-back operation to stop at
)

// The durable files of the killed run: before and after it.
var killFiles = map[string][2]string{
	"h/.pi/agent/auth.json":                 {"SECRET", "NEW SECRET"},
	"h/.pi/agent/models.json":               {"{\"providers\":{\"old\":{}}}\n", "{\"providers\":{\"new\":{}}}\n"},
	"h/.outfitter/profiles/eng/profile.yml": {"id: eng\nstate_persistence:\n  auth.json: prompt\n  models.json: prompt\n  plugins/: prompt\n", "id: eng\nstate_persistence:\n  auth.json: prompt\n  models.json: symlink\n  plugins/: prompt\n"},
}

// killPlugins is the number of files the agent writes in plugins/, a
// directory state path the write-back persists, each a new durable file.
const killPlugins = 7

func init() {
	for i := range killPlugins {
		killFiles[fmt.Sprintf("h/.pi/agent/plugins/p%d.json", i)] = [2]string{"", fmt.Sprintf("{\"plugin\":%d}\n", i)}
	}
}

// killMachine writes the machine of TestScenarioPowerCut below dir.
func killMachine(t *testing.T, dir string) *osfs.FS {
	t.Helper()
	fsys := osfs.NewRooted(dir)
	files := map[string]string{
		"h/.outfitter/settings.yml": "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		"h/.pi/agent/settings.json": "{\"theme\":\"dark\"}\n",
	}
	for name, v := range killFiles {
		if v[0] != "" {
			files[name] = v[0]
		}
	}
	vfstest.WriteFiles(t, fsys, "/", files)
	for _, d := range []string{"/tmp", "/p"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

// killRun is the interactive run of TestScenarioPowerCut on fsys; after
// marks the agent's return (the write-back starts).
func killRun(fsys vfs.ReadWriteFS, after func()) *sim.Result {
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		if err := s.FS.WriteFile(s.Root+"/auth.json", []byte("NEW SECRET"), 0o600); err != nil {
			return writeback.Exit{}, err
		}
		if err := s.FS.WriteFile(s.Root+"/models.json", []byte("{\"providers\":{\"new\":{}}}\n"), 0o644); err != nil {
			return writeback.Exit{}, err
		}
		for i := range killPlugins {
			name := fmt.Sprintf("%s/plugins/p%d.json", s.Root, i)
			if err := s.FS.WriteFile(name, []byte(fmt.Sprintf("{\"plugin\":%d}\n", i)), 0o644); err != nil {
				return writeback.Exit{}, err
			}
		}
		after()
		return writeback.Exit{Exited: true}, nil
	})
	opts := sim.Options{
		Clock:    func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Prompter: answers{},
	}
	return sim.Execute(context.Background(), fsys, sim.Spec{Home: "/h", Project: "/p", Interactive: true}, agent, opts)
}

// TestSIGKILLHelper is the process TestSIGKILL kills: the run on the OS
// below $VFSIM_KILL_DIR, which prints "stop" and waits to be killed when
// its write-back reaches operation $VFSIM_KILL_POINT, and otherwise prints
// "ops N" (the write-back's operation count) at the end. Without the
// variables it is skipped: it only runs as TestSIGKILL's child.
func TestSIGKILLHelper(t *testing.T) {
	dir := os.Getenv(killDirEnv)
	if dir == "" {
		t.Skip("the helper process of TestSIGKILL, run by it")
	}
	point, err := strconv.Atoi(os.Getenv(killPointEnv))
	if err != nil {
		t.Fatal(err)
	}
	var writeback atomic.Bool
	var ops atomic.Int64
	stop := faultfs.When(func(faultfs.Op) bool {
		if !writeback.Load() {
			return false
		}
		if ops.Add(1) == int64(point) {
			fmt.Println("stop")
			select {} // killed here, before the operation runs
		}
		return false
	}, vfs.ErrIO)
	fsys := faultfs.New(osfs.NewRooted(dir), stop)
	r := killRun(fsys, func() { writeback.Store(true) })
	if r.Err != nil {
		t.Fatalf("run: %v", r.Err)
	}
	fmt.Printf("ops %d\n", ops.Load())
}

// TestSIGKILL starts a process that runs an interactive session on the
// OS backend, in a temporary directory, whose agent changes two
// prompt-strategy state paths and whose write-back persists both and
// records "always" in the profile, and kills it with SIGKILL before each
// operation of its write-back in turn (the process stops itself there and
// waits; nothing is timed). After each kill the durable files hold their
// old or their new content, whole, with no other file beside them but a
// temporary file of vfs.ReplaceFile or an empty lock file; then the next
// run on the same directory succeeds, leaves every durable file new and
// removes the temporary files the kill left (vfs.ReplaceFile removes them
// when it next writes their name).
func TestSIGKILL(t *testing.T) {
	t.Parallel()
	if os.Getenv(killDirEnv) != "" {
		t.Skip("inside the helper process")
	}
	// The write-back's operation count, from a run that is not killed.
	dir := t.TempDir()
	killMachine(t, dir)
	out, err := helper(dir, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	total, err := strconv.Atoi(strings.TrimPrefix(lastLine(out), "ops "))
	if err != nil || !strings.HasPrefix(lastLine(out), "ops ") {
		t.Fatalf("the helper's run did not finish: %q", out)
	}
	if total < 200 {
		t.Fatalf("precondition: the write-back has %d operations, want 200 kill points or more", total)
	}
	t.Logf("%d kill points", total)
	// The kills are independent and mostly wait for the disk (each run
	// syncs): a few at a time.
	// Every point is queued first, so that a worker a failed helper call
	// stops (t.Fatal in vfstest's helpers) blocks nothing.
	points := make(chan int, total)
	for point := 1; point <= total; point++ {
		points <- point
	}
	close(points)
	var wg sync.WaitGroup
	var strays atomic.Int64
	for range killWorkers {
		wg.Go(func() {
			for point := range points {
				strays.Add(int64(killAt(t, point)))
			}
		})
	}
	wg.Wait()
	t.Logf("%d temporary files left by kills, each removed by the next run", strays.Load())
	if strays.Load() == 0 {
		t.Errorf("precondition: no kill left a temporary file, so their removal went untested")
	}
}

// killWorkers is the number of kill points tried at once.
const killWorkers = 16

// killAt runs the helper on a fresh machine, kills it before write-back
// operation point, and checks the machine, then the next run on it.
func killAt(t *testing.T, point int) (strays int) {
	t.Helper()
	dir := t.TempDir()
	fsys := killMachine(t, dir)
	out, err := helper(dir, point)
	if err != nil || lastLine(out) != "stop" {
		t.Errorf("kill point %d: the helper did not stop: %q, %v", point, out, err)
		return 0
	}
	strays = checkKilled(t, dir, point, false)
	if r := killRun(fsys, func() {}); r.Err != nil {
		t.Errorf("kill point %d: the next run failed: %v", point, r.Err)
		return 0
	}
	checkKilled(t, dir, point, true)
	return strays
}

// helper runs TestSIGKILLHelper on dir, killing it when it says "stop",
// and returns the lines of its protocol ("stop", "ops N").
func helper(dir string, point int) (string, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestSIGKILLHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), killDirEnv+"="+dir, killPointEnv+"="+strconv.Itoa(point))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	var lines []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		l := sc.Text()
		if l == "stop" || strings.HasPrefix(l, "ops ") {
			lines = append(lines, l)
		}
		if l == "stop" {
			if err := cmd.Process.Kill(); err != nil {
				return "", err
			}
			break
		}
	}
	_ = cmd.Wait()
	if len(lines) == 0 {
		return "", fmt.Errorf("the helper said nothing; stderr: %s", stderr.String())
	}
	return strings.Join(lines, "\n"), nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// checkKilled checks the durable files below dir after a kill (old or
// new, whole; only ReplaceFile's temporary files or empty lock files
// beside them) or after the next run (new, nothing beside them).
func checkKilled(t *testing.T, dir string, point int, next bool) (strays int) {
	t.Helper()
	for name, v := range killFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		got := string(data)
		switch {
		case v[0] == "" && errors.Is(err, fs.ErrNotExist) && !next:
			// Absent before the run and still absent: the old state.
		case err != nil:
			t.Errorf("kill point %d (next run %v): %s: %v", point, next, name, err)
		case next && got != v[1]:
			t.Errorf("kill point %d, after the next run: %s = %q, want the new content", point, name, got)
		case got != v[0] && got != v[1]:
			t.Errorf("kill point %d: %s = %q, want the old or the new content whole", point, name, got)
		}
		list, err := os.ReadDir(filepath.Join(dir, filepath.Dir(name)))
		if errors.Is(err, fs.ErrNotExist) && !next {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(name)
		for _, e := range list {
			if !strings.HasPrefix(e.Name(), "."+base+".") {
				continue
			}
			fi, _ := e.Info()
			switch {
			case vfs.IsStrayTemp(e.Name(), base) && !next:
				strays++
			case (e.Name() == "."+base+".lock" || e.Name() == "."+base+".replace.lock") && fi != nil && fi.Size() == 0:
				// A lock file (of a read-modify-write, or of ReplaceFile) its
				// killed holder could not remove: unlocked, the next lock of
				// the file takes it and removes it.
			default:
				t.Errorf("kill point %d (next run %v): %s left beside %s", point, next, e.Name(), name)
			}
		}
	}
	return strays
}
