package resolve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestLoadRejectsUnusableOptions: a caller who leaves out the agents, the
// home or the project (or gives a relative path) gets, before anything is
// read, an *OptionError that names the option and says what to give,
// rather than an unknown agent with an empty name or a missing default
// profile.
func TestLoadRejectsUnusableOptions(t *testing.T) {
	t.Parallel()
	fsys := memTree(t, vfstest.Tree{userSettings: file("default_profile: a\nprofile_sources: [{path: ./profiles}]\n"), "home/.outfitter/profiles/a.yml": file("{}\n")})
	tests := []struct {
		name   string
		opts   resolve.Options
		option string
		says   []string
	}{
		{"no agents", resolve.Options{Home: home, Project: project}, "resolve.Options.Agents",
			[]string{"resolve.Options.Agents is nil", "composite.DefaultRegistry().Agents()"}},
		{"no home", resolve.Options{Project: project, Agents: agents()}, "resolve.Options.Home",
			[]string{`resolve.Options.Home is "", not an absolute path`, "home directory"}},
		{"relative home", resolve.Options{Home: "w/home", Project: project, Agents: agents()}, "resolve.Options.Home",
			[]string{`resolve.Options.Home is "w/home", not an absolute path`}},
		{"no project", resolve.Options{Home: home, Agents: agents()}, "resolve.Options.Project",
			[]string{`resolve.Options.Project is "", not an absolute path`, "project directory"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := resolve.Load(fsys, tc.opts)
			oe, ok := errors.AsType[*resolve.OptionError](err)
			if !ok || oe.Option != tc.option {
				t.Fatalf("Load = %v, want an *OptionError naming %s", err, tc.option)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Load = %q, want it to say %q", err, s)
				}
			}
		})
	}
	// The same options, given, load.
	if _, err := resolve.Load(fsys, resolve.Options{Home: home, Project: project, Agents: agents()}); err != nil {
		t.Errorf("Load with every option = %v", err)
	}
}
