package sources_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs/osfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// gitEnv is a hermetic environment for git: a home of its own, no system
// or global configuration, a fixed identity, no prompts.
func gitEnv(t testing.TB) []string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git is required in CI: %v", err)
		}
		t.Skipf("skipping: no git (%v)", err)
	}
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
	}
}

// repo is a local bare repository reached through a file:// URL, with a
// work tree to commit to it.
type repo struct {
	t    testing.TB
	env  []string
	work string
	bare string
}

// URL returns the repository's file:// URL.
func (r *repo) URL() string { return "file://" + r.bare }

// newRepo makes a bare repository whose main branch holds files.
func newRepo(t testing.TB, env []string, files map[string]string) *repo {
	t.Helper()
	dir := t.TempDir()
	r := &repo{t: t, env: env, work: filepath.Join(dir, "work"), bare: filepath.Join(dir, "repo.git")}
	r.git("", "init", "-q", "-b", "main", r.work)
	r.commit(files)
	r.git("", "clone", "-q", "--bare", r.work, r.bare)
	r.git(r.work, "remote", "add", "origin", r.bare)
	return r
}

// git runs git in dir and returns its trimmed output.
func (r *repo) git(dir string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files into the work tree, commits them and returns the
// commit.
func (r *repo) commit(files map[string]string) string {
	r.t.Helper()
	vfstest.WriteFiles(r.t, osfs.New(), r.work, files)
	r.git(r.work, "add", "-A")
	r.git(r.work, "commit", "-q", "-m", "c", "--allow-empty")
	return r.git(r.work, "rev-parse", "HEAD")
}

// push pushes the work tree's branch and tags to the bare repository.
func (r *repo) push() {
	r.t.Helper()
	r.git(r.work, "push", "-q", "--tags", "origin", "main")
}

// recorder is a Runner that runs git for real and fakes npm (it writes
// node_modules/.installed with its arguments), recording every command.
type recorder struct {
	git sources.Exec

	mu    sync.Mutex
	calls []string
}

func (r *recorder) Run(ctx context.Context, dir, name string, args ...string) (string, error) {
	r.mu.Lock()
	r.calls = append(r.calls, strings.TrimSpace(dir+" "+name+" "+strings.Join(args, " ")))
	r.mu.Unlock()
	if name == "npm" {
		if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
			return "", err
		}
		return "", os.WriteFile(filepath.Join(dir, "node_modules", ".installed"), []byte(strings.Join(args, " ")), 0o644)
	}
	return r.git.Run(ctx, dir, name, args...)
}

// commands returns the commands run so far and forgets them.
func (r *recorder) commands() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.calls
	r.calls = nil
	return out
}

func read(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
