package composite_test

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"path"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

const (
	home    = "/h"
	project = "/p"
)

// world describes a small machine: profiles in the user source, other
// files by absolute path.
type world struct {
	profiles    map[string]string
	files       map[string]string
	links       map[string]string      // link name -> target
	modes       map[string]fs.FileMode // file name -> permission bits
	selected    string
	agent       string
	passThrough []string
	strict      bool
	env         []string // the process environment
	opts        composite.Options
	// edit, when set, changes the resolution before it is planned (for
	// results the resolver never gives).
	edit func(*resolve.Result)
}

// newFS writes the world into a fresh MemFS.
func (w world) newFS(t testing.TB) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	write := func(name, content string) {
		must(t, fsys.MkdirAll(path.Dir(name), 0o755))
		must(t, fsys.WriteFile(name, []byte(content), 0o644))
	}
	must(t, fsys.MkdirAll("/tmp", 0o1777))
	must(t, fsys.MkdirAll(project, 0o755))
	write(home+"/.outfitter/settings.yml", "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n")
	for id, doc := range w.profiles {
		write(home+"/.outfitter/profiles/"+id+"/profile.yml", doc)
	}
	for name, content := range w.files {
		write(name, content)
	}
	for name, perm := range w.modes {
		must(t, fsys.Chmod(name, perm))
	}
	for name, target := range w.links {
		must(t, fsys.MkdirAll(path.Dir(name), 0o755))
		must(t, fsys.Symlink(target, name))
	}
	return fsys
}

// plan resolves the world's profile and plans the run.
func (w world) plan(t testing.TB, fsys composite.FS) (*composite.Run, error) {
	t.Helper()
	mem := fsys
	if f, ok := fsys.(interface{ Inner() vfs.FS }); ok {
		mem = f.Inner().(composite.FS)
	}
	res := w.resolve(t, mem.(resolve.FS))
	if w.edit != nil {
		w.edit(res)
	}
	opts := w.opts
	if opts.Rand == nil {
		opts.Rand = rand.NewChaCha8([32]byte{7})
	}
	opts.NoSweep = true
	return composite.Plan(fsys, composite.Request{Result: res, PassThrough: w.passThrough, Strict: w.strict, Env: w.env}, opts)
}

// resolve resolves the world's selection on fsys as it stands (after
// the test's own edits, for a refresh), failing the test on error.
func (w world) resolve(t testing.TB, fsys resolve.FS) *resolve.Result {
	t.Helper()
	res, err := resolve.Load(fsys, resolve.Options{Home: home, Project: project, ProfileID: w.selected, AgentID: w.agent, Agents: composite.DefaultRegistry().Agents()})
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	return res
}

// mustPlan plans and fails the test on error.
func (w world) mustPlan(t testing.TB) (*vfs.MemFS, *composite.Run) {
	t.Helper()
	fsys := w.newFS(t)
	r, err := w.plan(t, fsys)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return fsys, r
}

// file returns the content of the planned generated file rel.
func file(t testing.TB, c *composite.Composite, rel string) (composite.File, bool) {
	t.Helper()
	for _, f := range c.Files {
		if f.RelativePath == rel {
			return f, true
		}
	}
	return composite.File{}, false
}

func readFile(t testing.TB, fsys vfs.FS, name string) string {
	t.Helper()
	data, err := vfs.ReadFile(fsys, name)
	must(t, err)
	return string(bytes.Clone(data))
}

// checkWarnings fails the test when the warnings got differ from want.
func checkWarnings(t testing.TB, want, got []string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// dirNames lists the names in the directory dir.
func dirNames(t testing.TB, fsys vfs.FS, dir string) []string {
	t.Helper()
	list, err := vfs.ReadDir(fsys, dir)
	if err != nil {
		t.Fatalf("ReadDir(%s): %v", dir, err)
	}
	names := make([]string, len(list))
	for i, e := range list {
		names[i] = e.Name()
	}
	return names
}
