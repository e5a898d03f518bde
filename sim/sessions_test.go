package sim_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// The environment of the helper processes of TestConcurrentSessions.
const (
	sessionsDirEnv = "VFSIM_SESSIONS_DIR" // the machine's host directory
	sessionEnv     = "VFSIM_SESSION"      // the session's number
)

// concurrentSessions is the number of processes TestConcurrentSessions
// starts at once.
const concurrentSessions = 8

// sessionKeys are the prompt state paths the sessions answer "always"
// for, session i for sessionKeys[i%len(sessionKeys)].
var sessionKeys = []string{"auth.json", "settings.json", "mcp.json", "models.json", "trust.json"}

// TestConcurrentSessionsHelper is one session of TestConcurrentSessions:
// an interactive pi run on the OS below $VFSIM_SESSIONS_DIR whose agent
// writes its prompt path and a session file through the sessions/ link,
// and answers "always". It prints "ok" when the run succeeded. Without
// the variables it is skipped: it only runs as TestConcurrentSessions's
// child.
func TestConcurrentSessionsHelper(t *testing.T) {
	dir := os.Getenv(sessionsDirEnv)
	if dir == "" {
		t.Skip("a helper process of TestConcurrentSessions, run by it")
	}
	i, err := strconv.Atoi(os.Getenv(sessionEnv))
	if err != nil {
		t.Fatal(err)
	}
	key := sessionKeys[i%len(sessionKeys)]
	text := fmt.Sprintf("{\"session\":%d}\n", i)
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		if err := s.FS.WriteFile(s.Root+"/"+key, []byte(text), 0o600); err != nil {
			return writeback.Exit{}, err
		}
		if err := s.FS.WriteFile(fmt.Sprintf("%s/sessions/s%d.jsonl", s.Root, i), []byte(text), 0o644); err != nil {
			return writeback.Exit{}, err
		}
		return writeback.Exit{Exited: true}, nil
	})
	opts := sim.Options{TempDir: "/tmp", Prompter: writeback.PrompterFunc(func(context.Context, writeback.PromptRequest) (writeback.Choice, error) {
		return writeback.ChoiceAlways, nil
	})}
	r := sim.Execute(context.Background(), osfs.NewRooted(dir), sim.Spec{Home: "/h", Project: "/p", Agent: "pi", Interactive: true}, agent, opts)
	if r.Err != nil {
		t.Fatalf("session %d: %v", i, r.Err)
	}
	// A session that starts while another's agent is between its
	// truncation of a durable file and its write finds the file blank
	// and in use: it leaves it as it is and says so. Any other warning
	// is a failure.
	warnings := slices.DeleteFunc(slices.Clone(r.Warnings), func(w string) bool {
		return strings.HasSuffix(w, "' is blank but in use by another session; left as it is.")
	})
	if len(warnings) > 0 {
		t.Fatalf("session %d: warnings %q", i, warnings)
	}
	fmt.Println("ok")
}

// TestConcurrentSessions starts eight processes at once, each an
// interactive session of one profile on one home on the OS backend (a
// temporary directory), each persisting a state path and answering
// "always" for it, some for the same path. Every session must succeed,
// every answer must be in the profile, every durable file must hold one
// session's whole content, every session file must be there, and no
// composite root, temporary file or lock file may be left. Nothing is
// timed: the processes run as the kernel schedules them.
func TestConcurrentSessions(t *testing.T) {
	t.Parallel()
	if os.Getenv(sessionsDirEnv) != "" {
		t.Skip("inside a helper process")
	}
	dir := t.TempDir()
	fsys := osfs.NewRooted(dir)
	prompts := ""
	for _, k := range sessionKeys {
		prompts += "  " + k + ": prompt\n"
	}
	vfstest.WriteFiles(t, fsys, "/", map[string]string{
		"h/.outfitter/settings.yml":             "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		"h/.outfitter/profiles/eng/profile.yml": "id: eng\nstate_persistence:\n" + prompts,
	})
	for _, d := range []string{"/tmp", "/p", "/h/.pi/agent/sessions"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	outs := make([]string, concurrentSessions)
	errs := make([]error, concurrentSessions)
	for i := range concurrentSessions {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentSessionsHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), sessionsDirEnv+"="+dir, sessionEnv+"="+strconv.Itoa(i))
			out, err := cmd.CombinedOutput()
			outs[i], errs[i] = string(out), err
		})
	}
	wg.Wait()
	for i := range concurrentSessions {
		if errs[i] != nil || !strings.Contains(outs[i], "ok\n") {
			t.Errorf("session %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	profile, err := os.ReadFile(filepath.Join(dir, "h/.outfitter/profiles/eng/profile.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for k, key := range sessionKeys {
		if k >= concurrentSessions {
			break
		}
		if !strings.Contains(string(profile), "  "+key+": symlink\n") {
			t.Errorf("the \"always\" for %s is lost:\n%s", key, profile)
		}
		data, err := os.ReadFile(filepath.Join(dir, "h/.pi/agent", key))
		var whole []string
		for i := k; i < concurrentSessions; i += len(sessionKeys) {
			whole = append(whole, fmt.Sprintf("{\"session\":%d}\n", i))
		}
		if err != nil || !slices.Contains(whole, string(data)) {
			t.Errorf("durable %s = %q, %v; want one of %q", key, data, err, whole)
		}
	}
	for i := range concurrentSessions {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("h/.pi/agent/sessions/s%d.jsonl", i))); err != nil {
			t.Errorf("session %d's file: %v", i, err)
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(p, ".lock") || strings.HasSuffix(p, ".tmp") || strings.HasPrefix(rel, "tmp/") {
			t.Errorf("left behind: %s", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
