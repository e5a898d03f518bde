package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/aferofs"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestBackendWithoutLinks runs a catalog fixture on afero's MemMapFs, which
// has no symbolic links: state paths are copied with upstream's notice,
// and the run then stops with an error naming the missing capability
// (classification needs Lstat), never pretending the copies are links.
func TestBackendWithoutLinks(t *testing.T) {
	t.Parallel()
	fx, err := fixtures.LoadFS(fixtures.Catalog(), "explicit_repo_profile")
	if err != nil {
		t.Fatal(err)
	}
	mem := fx.Clone()
	noLinks := aferofs.ToVFS(afero.NewMemMapFs()).(sim.FS)
	if err := vfs.CopyTree(noLinks, report.FixtureRoot, mem, report.FixtureRoot); err != nil {
		t.Fatal(err)
	}
	if err := noLinks.MkdirAll("/tmp", 0o777); err != nil {
		t.Fatal(err)
	}
	spec := sim.Spec{Home: report.HomeRoot, Project: report.ProjectRoot, Agent: "pi", Profile: "code-audit"}
	agent := sim.AgentFunc(func(context.Context, *sim.Session) (w writeback.Exit, err error) {
		t.Error("the agent ran although the baseline cannot be taken")
		return w, nil
	})
	r := sim.Execute(context.Background(), noLinks, spec, agent, sim.Options{})
	if !errors.Is(r.Err, errors.ErrUnsupported) || !strings.Contains(r.Err.Error(), "lstat") {
		t.Fatalf("run error = %v, want an error wrapping errors.ErrUnsupported that names lstat", r.Err)
	}
	copied := 0
	for _, m := range r.Messages {
		if strings.Contains(m, "could not be symlinked (symlinks are unavailable on this platform); copied") {
			copied++
		}
	}
	if copied == 0 {
		t.Errorf("no copy-fallback notice among the run's messages: %q", r.Messages)
	}
	if r.ExitCode != 1 {
		t.Errorf("exit code = %d, want 1", r.ExitCode)
	}
}
