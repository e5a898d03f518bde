package launch_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/launch"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/writeback"
)

func TestEnviron(t *testing.T) {
	t.Parallel()
	ev := func(kv ...string) []composite.EnvVar {
		var out []composite.EnvVar
		for i := 0; i < len(kv); i += 2 {
			out = append(out, composite.EnvVar{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name   string
		why    string
		base   []string
		layers [][]composite.EnvVar
		want   []string
	}{
		{name: "empty", want: nil},
		{name: "base only", base: []string{"A=1", "B=2"}, want: []string{"A=1", "B=2"}},
		{
			name:   "plan wins in place",
			why:    "a variable of the caller keeps its position and takes the plan's value",
			base:   []string{"A=1", "PI_CODING_AGENT_DIR=/old", "B=2"},
			layers: [][]composite.EnvVar{ev("PI_CODING_AGENT_DIR", "/tmp/root", "NEW", "x")},
			want:   []string{"A=1", "PI_CODING_AGENT_DIR=/tmp/root", "B=2", "NEW=x"},
		},
		{
			name:   "later layer wins",
			why:    "command defaults come first, the plan overrides them (upstream's {PI_SKIP_VERSION_CHECK: 1, ...plan.env})",
			base:   []string{"HOME=/h"},
			layers: [][]composite.EnvVar{ev("PI_SKIP_VERSION_CHECK", "1"), ev("PI_SKIP_VERSION_CHECK", "0")},
			want:   []string{"HOME=/h", "PI_SKIP_VERSION_CHECK=0"},
		},
		{
			name: "command defaults over the caller",
			why:  "upstream spawns with processEnv ∪ {PI_SKIP_VERSION_CHECK: 1, ...plan.env}",
			base: []string{"X=caller"},
			layers: [][]composite.EnvVar{
				ev("X", "default"),
			},
			want: []string{"X=default"},
		},
		{
			name:   "duplicate base names",
			why:    "the last entry of a name is the one os/exec keeps and the child sees; the layer replaces it, so the plan wins",
			base:   []string{"A=1", "B=x", "A=2"},
			layers: [][]composite.EnvVar{ev("A", "3")},
			want:   []string{"B=x", "A=3"},
		},
		{
			name: "duplicate PATH, last wins",
			why:  "the child's PATH is the last one given, so the result holds that one only",
			base: []string{"PATH=/first", "HOME=/h", "PATH=/last"},
			want: []string{"HOME=/h", "PATH=/last"},
		},
		{name: "malformed base entry kept", base: []string{"junk", "A=1"}, layers: [][]composite.EnvVar{ev("B", "2")}, want: []string{"junk", "A=1", "B=2"}},
		{name: "empty value", base: []string{"A=1"}, layers: [][]composite.EnvVar{ev("A", "")}, want: []string{"A="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := launch.Environ(tt.base, tt.layers...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Environ (-want +got):\n%s\nwhy: %s", diff, tt.why)
			}
		})
	}
}

func TestEnvironDoesNotModifyBase(t *testing.T) {
	t.Parallel()
	base := []string{"A=1"}
	launch.Environ(base, []composite.EnvVar{{Name: "A", Value: "2"}})
	if base[0] != "A=1" {
		t.Errorf("base changed to %q", base[0])
	}
}

func TestLookPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, plain, sub := filepath.Join(dir, "bin"), filepath.Join(dir, "plain"), filepath.Join(dir, "sub")
	for _, d := range []string{bin, plain, sub, filepath.Join(sub, "tool")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(plain, "tool"), []byte("not executable"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := func(dirs ...string) string { return strings.Join(dirs, string(os.PathListSeparator)) }
	tests := []struct {
		name    string
		why     string
		path    string
		want    string
		notFind bool
	}{
		{name: "found", path: list(bin), want: filepath.Join(bin, "tool")},
		{name: "first executable wins", why: "a non-executable file and a directory of that name are skipped", path: list(plain, sub, bin), want: filepath.Join(bin, "tool")},
		{name: "relative and empty entries skipped", path: list("", ".", "bin", bin), want: filepath.Join(bin, "tool")},
		{name: "empty PATH", path: "", notFind: true},
		{name: "not executable only", path: list(plain), notFind: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := launch.LookPath("tool", tt.path)
			if tt.notFind {
				if !errors.Is(err, exec.ErrNotFound) {
					t.Fatalf("LookPath = %q, %v; want exec.ErrNotFound", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("LookPath = %q, %v; want %q (%s)", got, err, tt.want, tt.why)
			}
		})
	}
}

func TestNotFoundErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		agent, command, want string
	}{
		{"pi", "pi", "Could not launch the 'pi' agent CLI: 'pi' is not installed or not on your PATH. Install Pi with `npm install -g @earendil-works/pi-coding-agent` (see https://pi.dev)."},
		{"claude", "claude", "Could not launch the 'claude' agent CLI: 'claude' is not installed or not on your PATH. Install Claude Code from https://claude.com/claude-code, then rerun with `--agent claude`."},
		{"mock-agent", "/opt/mock", "Could not launch the 'mock-agent' agent CLI: '/opt/mock' is not installed or not on your PATH."},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			var hint string
			if a, err := composite.DefaultRegistry().Lookup(tt.agent); err == nil {
				hint = composite.InstallHint(a)
			}
			err := &launch.NotFoundError{Agent: tt.agent, Command: tt.command, Hint: hint}
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() = %q\nwant      %q", got, tt.want)
			}
		})
	}
}

// session returns a session on the host whose composite root is a fresh
// temporary directory, with a pi-like plan and the caller's environment
// env.
func session(t *testing.T, env []string, args ...string) *sim.Session {
	t.Helper()
	root := t.TempDir()
	return &sim.Session{
		AgentID: "pi",
		Adapter: composite.Pi{},
		Plan: composite.LaunchPlan{Command: "pi", Args: args, Env: []composite.EnvVar{
			{Name: "PLAN_ONLY", Value: "plan"}, {Name: "SHARED", Value: "plan"}, {Name: "PI_CODING_AGENT_DIR", Value: root},
		}},
		Root: root,
		FS:   osfs.New(),
		Env:  env,
	}
}

func TestRunRefusesNonHostFS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fsys vfs.ReadWriteFS
	}{
		{"memfs", vfs.NewMemFS(vfs.MemOptions{})},
		{"rooted osfs", osfs.NewRooted(t.TempDir())},
		{"wrapped memfs", faultfs.New(vfs.NewMemFS(vfs.MemOptions{}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &sim.Session{Plan: composite.LaunchPlan{Command: "pi"}, Root: "/tmp/outfitter-x", FS: tt.fsys}
			_, err := launch.New(launch.Options{}).Run(context.Background(), s)
			if !errors.Is(err, launch.ErrNotHost) {
				t.Errorf("Run = %v, want ErrNotHost", err)
			}
		})
	}
}

func TestRunMissingCommand(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	// has holds an executable pi; a PATH that lists it first and an empty
	// directory last is the child's empty one, as os/exec keeps the last.
	has := t.TempDir()
	if err := os.WriteFile(filepath.Join(has, "pi"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     []string
		opts    launch.Options
		command string
	}{
		{name: "not on PATH", env: []string{"PATH=" + empty}, command: "pi"},
		{name: "no PATH at all", env: []string{}, command: "pi"},
		{name: "PATH empty", env: []string{"PATH="}, command: "pi"},
		{name: "PATH twice, the last without the CLI", env: []string{"PATH=" + has, "PATH=" + empty}, command: "pi"},
		{
			name:    "configured program missing",
			opts:    launch.Options{Commands: map[string]launch.Command{"pi": {Path: filepath.Join(empty, "node")}}},
			command: filepath.Join(empty, "node"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := session(t, tt.env)
			_, err := launch.New(tt.opts).Run(context.Background(), s)
			nf, ok := errors.AsType[*launch.NotFoundError](err)
			if !ok {
				t.Fatalf("Run = %v, want a *NotFoundError", err)
			}
			if nf.Agent != "pi" || nf.Command != tt.command {
				t.Errorf("NotFoundError{Agent: %q, Command: %q}, want pi, %q", nf.Agent, nf.Command, tt.command)
			}
			if nf.Hint == "" || !strings.HasSuffix(err.Error(), nf.Hint) {
				t.Errorf("message %q lacks the install hint", err)
			}
		})
	}
}

// TestRunWithoutEnvironment: a session whose environment was left out
// (sim.Options.Env nil) fails with an error naming that option, not with
// upstream's "not installed" message, which would send the caller to
// install a CLI that is there; an empty environment, a process's, keeps
// upstream's message (TestRunMissingCommand).
func TestRunWithoutEnvironment(t *testing.T) {
	t.Parallel()
	_, err := launch.New(launch.Options{}).Run(context.Background(), session(t, nil))
	oe, ok := errors.AsType[*resolve.OptionError](err)
	if !ok || oe.Option != "sim.Options.Env" || !strings.Contains(err.Error(), "os.Environ()") || !strings.Contains(err.Error(), "'pi'") {
		t.Fatalf("Run = %v, want an *OptionError naming sim.Options.Env and os.Environ()", err)
	}
}

// TestRunFindsCommandInLastPATH gives PATH twice: the CLI is in the
// directory of the last one, the one the child sees, and is found there.
func TestRunFindsCommandInLastPATH(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("precondition: /bin/sh: %v", err)
	}
	empty, has := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(has, "pi"), []byte("#!/bin/sh\nexit 4\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := session(t, []string{"PATH=" + empty, "PATH=" + has})
	exit, err := launch.New(launch.Options{Stdout: io.Discard, Stderr: io.Discard}).Run(context.Background(), s)
	if err != nil || exit != (writeback.Exit{Exited: true, Code: 4}) {
		t.Errorf("Run = %+v, %v; want the pi of the last PATH, exit code 4", exit, err)
	}
}

func TestRunBadWorkingDirIsNotMissingCLI(t *testing.T) {
	t.Parallel()
	s := session(t, nil)
	opts := launch.Options{Commands: map[string]launch.Command{"pi": {Path: "/bin/sh", Args: []string{"-c", "exit 0"}}}, Dir: filepath.Join(s.Root, "missing")}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("precondition: /bin/sh: %v", err)
	}
	_, err := launch.New(opts).Run(context.Background(), s)
	if err == nil {
		t.Fatal("Run succeeded in a missing directory")
	}
	if _, ok := errors.AsType[*launch.NotFoundError](err); ok {
		t.Errorf("Run = %v: a missing working directory reported as a missing CLI", err)
	}
}

// lines collects a child's stdout and signals each line.
type lines struct {
	r    *io.PipeReader
	w    *io.PipeWriter
	each chan string
}

func newLines() *lines {
	r, w := io.Pipe()
	l := &lines{r: r, w: w, each: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.each <- sc.Text()
		}
		close(l.each)
	}()
	return l
}

func TestProcess(t *testing.T) {
	bin := fakeAgent(t)
	command := map[string]launch.Command{"pi": {Path: bin, Args: []string{"--from-command"}, Env: []composite.EnvVar{{Name: "PI_SKIP_VERSION_CHECK", Value: "1"}, {Name: "SHARED", Value: "default"}}}}

	t.Run("exit code", func(t *testing.T) {
		t.Parallel()
		s := session(t, []string{"FAKEAGENT_SCRIPT=write note.txt \"hi\\n\"\nexit 7"})
		opts := launch.Options{Commands: command, Stdout: io.Discard, Stderr: io.Discard}
		exit, err := launch.New(opts).Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(writeback.Exit{Exited: true, Code: 7}, exit); diff != "" {
			t.Errorf("exit (-want +got):\n%s", diff)
		}
		data, err := os.ReadFile(filepath.Join(s.Root, "note.txt"))
		if err != nil || string(data) != "hi\n" {
			t.Errorf("note.txt = %q, %v: the child did not find its config dir", data, err)
		}
	})

	t.Run("args and environment", func(t *testing.T) {
		t.Parallel()
		script := "args\nenv PLAN_ONLY\nenv SHARED\nenv CALLER\nenv PI_SKIP_VERSION_CHECK\nenv PI_CODING_AGENT_DIR"
		env := []string{"CALLER=caller", "SHARED=caller", "PI_CODING_AGENT_DIR=/wrong", "FAKEAGENT_SCRIPT=" + script}
		s := session(t, env, "--model", "m", "--", "pass through")
		var out bytes.Buffer
		opts := launch.Options{Commands: command, Stdout: &out, Stderr: io.Discard}
		exit, err := launch.New(opts).Run(context.Background(), s)
		if err != nil || exit.Code != 0 {
			t.Fatalf("Run = %+v, %v", exit, err)
		}
		args, _ := json.Marshal([]string{"--from-command", "--model", "m", "--", "pass through"})
		want := strings.Join([]string{
			"args " + string(args),
			"env PLAN_ONLY=plan",
			"env SHARED=plan",
			"env CALLER=caller",
			"env PI_SKIP_VERSION_CHECK=1",
			"env PI_CODING_AGENT_DIR=" + s.Root,
		}, "\n") + "\n"
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("child's view (-want +got):\n%s", diff)
		}
	})

	for _, tt := range []struct {
		sig  syscall.Signal
		name string
		code int
	}{
		{syscall.SIGINT, "SIGINT", 130},
		{syscall.SIGTERM, "SIGTERM", 143},
		{syscall.SIGHUP, "SIGHUP", 129},
	} {
		t.Run("forwards "+tt.name, func(t *testing.T) {
			t.Parallel()
			s := session(t, []string{"FAKEAGENT_SCRIPT=wait"})
			sigs := make(chan os.Signal, 1)
			out := newLines()
			opts := launch.Options{Commands: command, Stdout: out.w, Stderr: io.Discard, Signals: sigs}
			type result struct {
				exit writeback.Exit
				err  error
			}
			done := make(chan result, 1)
			go func() {
				exit, err := launch.New(opts).Run(context.Background(), s)
				out.w.Close()
				done <- result{exit, err}
			}()
			if line := <-out.each; line != "ready" {
				t.Fatalf("first line %q, want ready", line)
			}
			sigs <- tt.sig
			r := <-done
			if r.err != nil {
				t.Fatal(r.err)
			}
			if diff := cmp.Diff(writeback.Exit{Signal: tt.name}, r.exit); diff != "" {
				t.Errorf("exit (-want +got):\n%s", diff)
			}
			if got := writeback.ExitCode(r.exit, nil); got != tt.code {
				t.Errorf("exit code %d, want %d", got, tt.code)
			}
		})
	}

	t.Run("cancel sends SIGTERM", func(t *testing.T) {
		t.Parallel()
		s := session(t, []string{"FAKEAGENT_SCRIPT=wait"})
		out := newLines()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		opts := launch.Options{Commands: command, Stdout: out.w, Stderr: io.Discard}
		done := make(chan error, 1)
		var exit writeback.Exit
		go func() {
			var err error
			exit, err = launch.New(opts).Run(ctx, s)
			out.w.Close()
			done <- err
		}()
		if line := <-out.each; line != "ready" {
			t.Fatalf("first line %q, want ready", line)
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run error %v, want context.Canceled", err)
		}
		if exit.Signal != "SIGTERM" {
			t.Errorf("exit %+v, want killed by SIGTERM", exit)
		}
	})
}

func TestSignalName(t *testing.T) {
	t.Parallel()
	for sig, want := range map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGKILL: "SIGKILL", syscall.Signal(77): "SIG77"} {
		if got := launch.SignalName(sig); got != want {
			t.Errorf("SignalName(%d) = %q, want %q", int(sig), got, want)
		}
	}
}
