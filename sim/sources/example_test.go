package sources_test

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs"
)

// fakeGit is a Runner that plays git on a memory file system: a clone
// writes one profile into the checkout, anything else succeeds. A program
// gives sources.Exec{} (the real git and npm, on the host's paths), a
// test a Runner like this one or Exec with local bare repositories.
type fakeGit struct{ fsys *vfs.MemFS }

// Run logs the command and plays it.
func (g fakeGit) Run(_ context.Context, _, name string, args ...string) (string, error) {
	fmt.Println("run:", name, strings.Join(args, " "))
	if name == "git" && args[0] == "clone" {
		dir := args[len(args)-1]
		file := path.Join(dir, "profiles", "reviewer", "profile.yml")
		if err := g.fsys.MkdirAll(path.Dir(file), 0o755); err != nil {
			return "", err
		}
		return "", g.fsys.WriteFile(file, []byte("id: reviewer\ncontrols:\n  model: team-model\n"), 0o644)
	}
	return "", nil
}

// Sync is `outfitter sync`: each remote profile source of the settings is
// cloned (or updated) into the cache, and its profiles are validated.
func ExampleSync() {
	m := vfs.NewMemFS(vfs.MemOptions{})
	_ = m.MkdirAll("/h/.outfitter", 0o755)
	_ = m.MkdirAll("/p", 0o755)
	_ = m.WriteFile("/h/.outfitter/settings.yml", []byte("profile_sources:\n  - uri: https://git.example.test/team.git\n    path: profiles\n"), 0o644)

	res, err := sources.Sync(context.Background(), m, sources.Options{
		Home: "/h", Project: "/p", Runner: fakeGit{m},
		Progress: func(line string) { fmt.Println(line) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range res.Messages {
		fmt.Println(line)
	}

	// The synced profile is one a run can select.
	run, err := resolve.Load(m, resolve.Options{Home: "/h", Project: "/p", ProfileID: "reviewer", Agents: composite.DefaultRegistry().Agents()})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("resolved:", run.ProfileID, "from", run.Sources[0].Source.URI, "synced:", run.Sources[0].Synced)
	// Output:
	// outfitter: cloning catalog https://git.example.test/team.git:profiles…
	// run: git clone --depth 1 --single-branch -- https://git.example.test/team.git /h/.outfitter/cache/repos/aHR0cHM6Ly9naXQuZXhhbXBsZS50ZXN0L3RlYW0uZ2l0Iw
	// updated: https://git.example.test/team.git:profiles -> /h/.outfitter/cache/repos/aHR0cHM6Ly9naXQuZXhhbXBsZS50ZXN0L3RlYW0uZ2l0Iw (1 profile validated.)
	// resolved: reviewer from https://git.example.test/team.git synced: true
}
