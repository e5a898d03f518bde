package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// wantOptionError fails unless err is an *resolve.OptionError naming
// option whose message says each of says.
func wantOptionError(t *testing.T, err error, option string, says ...string) {
	t.Helper()
	oe, ok := errors.AsType[*resolve.OptionError](err)
	if !ok || oe.Option != option {
		t.Fatalf("err = %v, want an *OptionError naming %s", err, option)
	}
	for _, s := range says {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("err = %q, want it to say %q", err, s)
		}
	}
}

// TestExecuteNamesTheOptionLeftOut: a run whose Spec or Options leave out
// what no run can do without fails with an error naming the field and
// saying what to give, where it failed before with a missing default
// profile (no home), ran without the project's settings (no project) or
// failed to make a directory under /tmp (a memory FS without it).
func TestExecuteNamesTheOptionLeftOut(t *testing.T) {
	t.Parallel()
	exits := sim.AgentFunc(func(context.Context, *sim.Session) (writeback.Exit, error) {
		return writeback.Exit{Exited: true}, nil
	})
	noTmp := func() *vfs.MemFS {
		m := exampleMachine()
		if err := m.RemoveAll("/tmp"); err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name   string
		fsys   *vfs.MemFS
		spec   sim.Spec
		opts   sim.Options
		option string
		says   []string
	}{
		{"no home", exampleMachine(), sim.Spec{Project: "/p"}, sim.Options{TempDir: "/tmp"}, "sim.Spec.Home", []string{`sim.Spec.Home is "", not an absolute path`, "home directory"}},
		{"relative project", exampleMachine(), sim.Spec{Home: "/h", Project: "p"}, sim.Options{TempDir: "/tmp"}, "sim.Spec.Project", []string{`"p", not an absolute path`}},
		{"no project", exampleMachine(), sim.Spec{Home: "/h"}, sim.Options{TempDir: "/tmp"}, "sim.Spec.Project", []string{"project directory"}},
		{"no temporary directory", noTmp(), sim.Spec{Home: "/h", Project: "/p"}, sim.Options{}, "sim.Options.TempDir", []string{`is "", a directory the file system does not hold ("" means /tmp)`, "os.TempDir()"}},
		{"a missing temporary directory", exampleMachine(), sim.Spec{Home: "/h", Project: "/p"}, sim.Options{TempDir: "/nope"}, "sim.Options.TempDir", []string{`is "/nope"`}},
		{"a relative temporary directory", exampleMachine(), sim.Spec{Home: "/h", Project: "/p"}, sim.Options{TempDir: "tmp"}, "sim.Options.TempDir", []string{`"tmp", not an absolute path`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			before := vfstest.Snapshot(t, tc.fsys, "/")
			res := sim.Execute(context.Background(), tc.fsys, tc.spec, exits, tc.opts)
			wantOptionError(t, res.Err, tc.option, tc.says...)
			if res.Launched || res.ExitCode != 1 {
				t.Errorf("launched %v, exit code %d; want no launch and 1", res.Launched, res.ExitCode)
			}
			if strings.HasPrefix(tc.option, "sim.Spec.") || strings.Contains(tc.name, "relative") {
				vfstest.WantUnchanged(t, tc.fsys, "/", before, "a run refused before it starts changed the machine")
			}
		})
	}
}

// TestProfilesOptionsNamesTheOptionLeftOut: listing or linting profiles
// without a home or project names the field.
func TestProfilesOptionsNamesTheOptionLeftOut(t *testing.T) {
	t.Parallel()
	m := exampleMachine()
	_, err := sim.ListProfiles(m, sim.ProfilesOptions{Project: "/p"})
	wantOptionError(t, err, "sim.ProfilesOptions.Home", "home directory")
	_, err = sim.LintProfiles(m, sim.ProfilesOptions{Home: "/h"})
	wantOptionError(t, err, "sim.ProfilesOptions.Project", "project directory")
}
