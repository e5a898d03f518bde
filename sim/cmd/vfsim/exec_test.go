package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/sim/simtest"
)

// execWorld is a home and a project on the host for vfsim exec, with the
// fake agent on PATH as pi and claude.
type execWorld struct {
	t                       *testing.T
	home, project, tmp, bin string
	vfsim                   string
}

const execSettings = "default_profile: solo\nprofile_sources:\n  - path: ./profiles\n"

func newExecWorld(t *testing.T, vfsim, agent string, files map[string]string) *execWorld {
	t.Helper()
	root := t.TempDir()
	w := &execWorld{t: t, home: root + "/home", project: root + "/project", tmp: root + "/tmp", bin: root + "/bin", vfsim: vfsim}
	for _, d := range []string{w.home, w.project, w.tmp, w.bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"pi", "claude"} {
		if err := os.Symlink(agent, filepath.Join(w.bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	all := map[string]string{
		w.home + "/.outfitter/settings.yml":              execSettings,
		w.home + "/.outfitter/profiles/solo/profile.yml": "id: solo\ncontrols:\n  model: solo-model\n",
	}
	for name, text := range files {
		all[strings.ReplaceAll(name, "<home>", w.home)] = text
	}
	for name, text := range all {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// command returns vfsim exec with the world's home and project, the
// agent's script, HOME and TMPDIR inside the world and PATH holding only
// the fake agent.
func (w *execWorld) command(script string, args ...string) *exec.Cmd {
	cmd := exec.Command(w.vfsim, append([]string{"exec", "--home", w.home, "--project", w.project}, args...)...)
	cmd.Dir = w.project
	cmd.Env = []string{"HOME=" + w.home, "TMPDIR=" + w.tmp, "PATH=" + w.bin, "FAKEAGENT_SCRIPT=" + script}
	return cmd
}

// run runs vfsim exec and returns its output and exit code.
func (w *execWorld) run(script string, args ...string) (stdout, stderr string, code int) {
	w.t.Helper()
	cmd := w.command(script, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return out.String(), errOut.String(), ee.ExitCode()
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return out.String(), errOut.String(), 0
}

func (w *execWorld) read(name string) string {
	w.t.Helper()
	data, err := os.ReadFile(strings.ReplaceAll(name, "<home>", w.home))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(data)
}

// leftovers lists what the runs left in the temporary directory.
func (w *execWorld) leftovers() []string {
	entries, _ := os.ReadDir(w.tmp)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// buildVfsim builds this command into a temporary directory.
func buildVfsim(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "vfsim")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", out, ".")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build vfsim: %v\n%s", err, msg)
	}
	return out
}

// TestExec runs vfsim exec end to end with a fake agent CLI, both built
// by the test, on a home and a project in temporary directories.
func TestExec(t *testing.T) {
	agent := simtest.FakeAgent(t)
	vfsim := buildVfsim(t)

	t.Run("summary before the agent's output", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, nil)
		stdout, stderr, code := w.run(`print "agent says hello"`)
		if code != 0 {
			t.Fatalf("exit code %d\n%s", code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		want := []string{
			"Outfitter will ask Pi to open `/login` automatically if Pi reports no available models after startup.",
			"→ resolving profile solo",
			"✓ profile layer solo  " + w.home + "/.outfitter/profiles/solo",
			"✓ merged controls  model=solo-model",
			"✓ prepared composite profile  ",
			"↳ launching pi …",
			"agent says hello",
		}
		if len(lines) != len(want) {
			t.Fatalf("stdout:\n%s\nwant %d lines", stdout, len(want))
		}
		for i := range want {
			if !strings.HasPrefix(lines[i], want[i]) {
				t.Errorf("line %d = %q, want %q", i, lines[i], want[i])
			}
		}
		if left := w.leftovers(); len(left) != 0 {
			t.Errorf("left in the temporary directory: %q", left)
		}
	})

	t.Run("state write durable, unknown write warned", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, nil)
		_, stderr, code := w.run("write settings.json \"{\\\"theme\\\":\\\"dark\\\"}\\n\"\nwrite scratch.txt \"temporary\\n\"")
		if code != 0 {
			t.Fatalf("exit code %d\n%s", code, stderr)
		}
		if got := w.read("<home>/.pi/agent/settings.json"); got != "{\"theme\":\"dark\"}\n" {
			t.Errorf("durable settings = %q", got)
		}
		if want := "pi wrote undeclared composite profile state 'scratch.txt' and it was not persisted.\n"; stderr != want {
			t.Errorf("stderr %q, want %q", stderr, want)
		}
		if left := w.leftovers(); len(left) != 0 {
			t.Errorf("the unknown write survived in %q", left)
		}
	})

	t.Run("configured pi gets no login notice", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, map[string]string{"<home>/.pi/agent/auth.json": `{"anthropic":{"type":"api_key"}}`})
		stdout, _, code := w.run("")
		if code != 0 || strings.Contains(stdout, "/login") {
			t.Errorf("exit code %d, stdout:\n%s", code, stdout)
		}
	})

	t.Run("exit code", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, nil)
		if _, stderr, code := w.run("exit 7", "--agent", "claude"); code != 7 {
			t.Errorf("exit code %d, want 7\n%s", code, stderr)
		}
	})

	t.Run("strict", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, map[string]string{"<home>/.outfitter/profiles/solo/profile.yml": "id: solo\ncontrols:\n  temperature: 1\n"})
		stdout, stderr, code := w.run(`print "started"`, "--strict")
		if code != 1 || strings.Contains(stdout, "started") {
			t.Errorf("exit code %d, stdout %q: want 1 and no agent", code, stdout)
		}
		if want := "Strict failed for pi: pi adapter cannot translate requested control 'temperature'.\n"; stderr != want {
			t.Errorf("stderr %q, want %q", stderr, want)
		}
	})

	t.Run("missing CLI", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, nil)
		if err := os.Remove(filepath.Join(w.bin, "claude")); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := w.run("", "--agent", "claude")
		want := "Could not launch the 'claude' agent CLI: 'claude' is not installed or not on your PATH. Install Claude Code from https://claude.com/claude-code, then rerun with `--agent claude`.\n"
		if code != 1 || stderr != want {
			t.Errorf("exit code %d, stderr %q; want 1, %q", code, stderr, want)
		}
	})

	t.Run("debug keeps the composite", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, nil)
		stdout, _, code := w.run("args", "--debug", "--", "-p", "hi")
		if code != 0 || !strings.HasPrefix(stdout, "--debug: keeping composite profile directory "+w.tmp+"/outfitter-solo-pi-") {
			t.Errorf("exit code %d, stdout:\n%s", code, stdout)
		}
		if !strings.Contains(stdout, `"--debug","-p","hi"]`) || len(w.leftovers()) != 1 {
			t.Errorf("stdout %s; left %q: want the pass-through args and the root kept", stdout, w.leftovers())
		}
	})

	t.Run("profile edit refreshes the composite", func(t *testing.T) {
		t.Parallel()
		w := newExecWorld(t, vfsim, agent, nil)
		profile := w.home + "/.outfitter/profiles/solo/profile.yml"
		script := strings.Join([]string{
			"waitfor outfitter/profile.json " + strconv.Quote("solo-model"),
			"edit " + profile + " " + strconv.Quote("id: solo\ncontrols:\n  model: edited-model\n"),
			"waitfor outfitter/profile.json " + strconv.Quote("edited-model"),
		}, "\n")
		stdout, stderr, code := w.run(script)
		if code != 0 || strings.Count(stdout, "saw outfitter/profile.json\n") != 2 || stderr != "" {
			t.Errorf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})

	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run("forwards "+tt.sig.String(), func(t *testing.T) {
			t.Parallel()
			w := newExecWorld(t, vfsim, agent, nil)
			cmd := w.command("wait")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			for sc.Scan() && sc.Text() != "ready" {
			}
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			for sc.Scan() {
			}
			err = cmd.Wait()
			ee, ok := errors.AsType[*exec.ExitError](err)
			if !ok || ee.ExitCode() != tt.code {
				t.Errorf("vfsim ended with %v, want exit code %d\n%s", err, tt.code, errOut.String())
			}
			if left := w.leftovers(); len(left) != 0 {
				t.Errorf("left in the temporary directory: %q", left)
			}
		})
	}
}
