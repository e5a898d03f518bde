package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

type persistAll struct{ asked []string }

func (p *persistAll) Prompt(_ context.Context, req writeback.PromptRequest) (writeback.Choice, error) {
	p.asked = append(p.asked, req.Path)
	return writeback.ChoicePersist, nil
}

func promptMachine(t *testing.T) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	vfstest.WriteFiles(t, fsys, "/", map[string]string{
		"h/.outfitter/settings.yml":             "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n",
		"h/.outfitter/profiles/eng/profile.yml": "id: eng\nstate_persistence:\n  auth.json: prompt\n",
		"h/.pi/agent/auth.json":                 "SECRET",
		"h/.pi/agent/settings.json":             "{\"theme\":\"dark\"}\n",
	})
	if err := fsys.MkdirAll("/tmp", 0o1777); err != nil {
		t.Fatal(err)
	}
	if err := fsys.MkdirAll("/p", 0o755); err != nil {
		t.Fatal(err)
	}
	return fsys
}

// TestRootReplacedByLinkThenPersist: the agent replaces its config
// directory by a link to ~/.pi/agent; the user answers "persist".
func TestRootReplacedByLinkThenPersist(t *testing.T) {
	fsys := promptMachine(t)
	p := &persistAll{}
	agent := sim.AgentFunc(func(ctx context.Context, s *sim.Session) (writeback.Exit, error) {
		if err := s.FS.RemoveAll(s.Root); err != nil {
			return writeback.Exit{}, err
		}
		return writeback.Exit{Exited: true}, s.FS.Symlink("/h/.pi/agent", s.Root)
	})
	r := sim.Execute(context.Background(), fsys, sim.Spec{Home: "/h", Project: "/p", Interactive: true}, agent, sim.Options{Prompter: p})
	t.Logf("err=%v asked=%v warnings=%q", r.Err, p.asked, r.Warnings)
	if data, err := fsys.ReadFile("/h/.pi/agent/auth.json"); err != nil || string(data) != "SECRET" {
		t.Errorf("~/.pi/agent/auth.json = %q, %v; want %q", data, err, "SECRET")
	}
}

// TestCleanupFailureIsTheRunsError: a run that succeeds but cannot remove
// its composite root fails with the cleanup's error, which is not lost.
func TestCleanupFailureIsTheRunsError(t *testing.T) {
	t.Parallel()
	mem := promptMachine(t)
	fsys := faultfs.New(mem, faultfs.When(func(op faultfs.Op) bool {
		return op.Kind == faultfs.KindRemoveAll && strings.HasPrefix(op.Path, "/tmp/outfitter-")
	}, vfs.ErrIO))
	agent := sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) {
		return writeback.Exit{Exited: true}, nil
	})
	r := sim.Execute(context.Background(), fsys, sim.Spec{Home: "/h", Project: "/p"}, agent, sim.Options{})
	if !errors.Is(r.Err, vfs.ErrIO) || !strings.Contains(r.Err.Error(), "clean up composite root") {
		t.Errorf("run error %v, want the cleanup's", r.Err)
	}
	if r.ExitCode != 1 {
		t.Errorf("exit code %d, want 1", r.ExitCode)
	}
}
