package resolve_test

import (
	"fmt"
	"math"
	"path"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"pgregory.net/rapid"
)

// Directories of the source memo tests: a profile source, and a directory
// outside it that links may point into.
const (
	memoSource    = "/w/home/.outfitter/profiles"
	memoElsewhere = "/w/elsewhere"
)

// frozenTree builds tree below /w in a MemFS whose clock never moves, so
// that no change is visible in a directory's time alone.
func frozenTree(t vfstest.TB, tree vfstest.Tree) *vfs.MemFS {
	t.Helper()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fsys := vfs.NewMemFS(vfs.MemOptions{Clock: func() time.Time { return at }})
	vfstest.Build(t, fsys, "/w", tree)
	return fsys
}

// memoTree is a source of two folder profiles, a flat one and files that
// are no profiles, with no link; linked adds a flat profile and a folder
// profile that are links out of the source.
func memoTree(linked bool) vfstest.Tree {
	tree := vfstest.Tree{
		"home/.outfitter/settings.yml":             file("default_profile: p0\nprofile_sources:\n  - path: ./profiles\n"),
		"home/.outfitter/profiles/p0/profile.yml":  file("inherits: [p1]\nlabel: Zero\n"),
		"home/.outfitter/profiles/p1/profile.yml":  file("controls:\n  model: one\n"),
		"home/.outfitter/profiles/p2.yml":          file("label: Two\n"),
		"elsewhere/x.yml":                          file("label: Linked\n"),
		"elsewhere/d/profile.yml":                  file("label: In a linked folder\n"),
		"project/.outfitter/settings.yml":          file("default_agent: pi\n"),
		"home/.outfitter/profiles/p1/notes/a.txt":  file("not a profile\n"),
		"home/.outfitter/profiles/README.md":       file("# profiles\n"),
		"home/.outfitter/profiles/p3/profile.yaml": file("label: not a folder profile\n"),
	}
	if linked {
		tree["home/.outfitter/profiles/p2.yml"] = vfstest.Link("../../../elsewhere/x.yml")
		tree["home/.outfitter/profiles/p6"] = vfstest.Dir()
		tree["home/.outfitter/profiles/p6/profile.yml"] = vfstest.Link("/w/elsewhere/d/profile.yml")
	}
	return tree
}

// sameLoad checks that a cached load of fsys equals an uncached one.
func sameLoad(t vfstest.TB, fsys *vfs.MemFS, cache *resolve.Cache, id, step string) {
	t.Helper()
	sameLoadFor(t, fsys, cache, agents(), id, step)
}

// sameLoadFor is sameLoad for the given agents.
func sameLoadFor(t vfstest.TB, fsys *vfs.MemFS, cache *resolve.Cache, a *resolve.Agents, id, step string) {
	t.Helper()
	opts := resolve.Options{Agents: a, Home: home, Project: project, ProfileID: id}
	want, wantErr := resolve.Load(fsys, opts)
	opts.Cache = cache
	got, err := resolve.Load(fsys, opts)
	if (wantErr == nil) != (err == nil) || wantErr != nil && wantErr.Error() != err.Error() {
		t.Fatalf("%s: error %v, want %v", step, err, wantErr)
	}
	if d := cmp.Diff(want, got, objectComparer); d != "" {
		t.Fatalf("%s (-without +with cache):\n%s", step, d)
	}
}

// TestSourceMemoNoticesChanges loads clones of a tree through a cache
// that has seen the tree, each clone changed in one way that a memo of
// the source directory could miss: the cached load must always equal an
// uncached one. The clock never moves, so only the content tells.
func TestSourceMemoNoticesChanges(t *testing.T) {
	t.Parallel()
	plain, linked := frozenTree(t, memoTree(false)), frozenTree(t, memoTree(true))
	cache := resolve.NewCache()
	for range 2 {
		sameLoad(t, plain.Clone(), cache, "p0", "the tree itself")
		sameLoad(t, linked.Clone(), cache, "p2", "the linked tree itself")
	}
	for _, tc := range []struct {
		name   string
		linked bool
		id     string
		change func(*vfs.MemFS) error
	}{
		{"a profile rewritten, same length", false, "p0", func(m *vfs.MemFS) error {
			return m.WriteFile(memoSource+"/p1/profile.yml", []byte("controls:\n  model: two\n"), 0o644)
		}},
		{"a profile added", false, "p4", func(m *vfs.MemFS) error {
			return m.WriteFile(memoSource+"/p4.yml", []byte("label: Four\n"), 0o644)
		}},
		{"a profile removed", false, "p0", func(m *vfs.MemFS) error { return m.RemoveAll(memoSource + "/p1") }},
		{"a folder renamed", false, "p0", func(m *vfs.MemFS) error { return m.Rename(memoSource+"/p1", memoSource+"/p5") }},
		{"the file a flat link names changes", true, "p2", func(m *vfs.MemFS) error {
			return m.WriteFile(memoElsewhere+"/x.yml", []byte("label: Changed\n"), 0o644)
		}},
		{"the file a folder's profile.yml links to changes", true, "p6", func(m *vfs.MemFS) error {
			return m.WriteFile(memoElsewhere+"/d/profile.yml", []byte("label: Changed\n"), 0o644)
		}},
		{"a folder profile becomes a link out", false, "p1", func(m *vfs.MemFS) error {
			if err := m.Remove(memoSource + "/p1/profile.yml"); err != nil {
				return err
			}
			return m.Symlink(memoElsewhere+"/x.yml", memoSource+"/p1/profile.yml")
		}},
		{"a folder becomes a link to a folder", false, "p1", func(m *vfs.MemFS) error {
			if err := m.RemoveAll(memoSource + "/p1"); err != nil {
				return err
			}
			return m.Symlink(memoElsewhere+"/d", memoSource+"/p1")
		}},
		{"the source becomes a link", false, "p1", func(m *vfs.MemFS) error {
			if err := m.Rename(memoSource, "/w/home/.outfitter/old"); err != nil {
				return err
			}
			if err := m.MkdirAll(memoElsewhere+"/src/p1", 0o755); err != nil {
				return err
			}
			if err := m.WriteFile(memoElsewhere+"/src/p1/profile.yml", []byte("label: Moved\n"), 0o644); err != nil {
				return err
			}
			return m.Symlink(memoElsewhere+"/src", memoSource)
		}},
		{"the source is removed", false, "p0", func(m *vfs.MemFS) error { return m.RemoveAll(memoSource) }},
		{"a notes file below a folder changes", false, "p0", func(m *vfs.MemFS) error {
			return m.WriteFile(memoSource+"/p1/notes/a.txt", []byte("changed\n"), 0o644)
		}},
		{"a profile made unreadable as a directory", false, "p0", func(m *vfs.MemFS) error {
			if err := m.Remove(memoSource + "/p0/profile.yml"); err != nil {
				return err
			}
			return m.Mkdir(memoSource+"/p0/profile.yml", 0o755)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := plain
			if tc.linked {
				base = linked
			}
			m := base.Clone()
			if err := tc.change(m); err != nil {
				t.Fatal(err)
			}
			sameLoad(t, m, cache, tc.id, "after the change")
			sameLoad(t, m, cache, tc.id, "again")
			// The unchanged tree still loads as itself from the same cache.
			sameLoad(t, base.Clone(), cache, tc.id, "the tree itself, afterwards")
		})
	}
}

// TestSourceMemoFollowsAgents loads one tree through one cache for two
// sets of agents, which type a profile's agent block differently: a scan
// kept for one set is not reused for the other.
func TestSourceMemoFollowsAgents(t *testing.T) {
	t.Parallel()
	tree := memoTree(false)
	tree["home/.outfitter/profiles/p7/profile.yml"] = file("controls:\n  acme: {flavor: lemon}\n")
	base := frozenTree(t, tree)
	cache := resolve.NewCache()
	acme := acmeAgents(t)
	for i, a := range []*resolve.Agents{agents(), agents(), acme, acme, agents()} {
		sameLoadFor(t, base.Clone(), cache, a, "p7", fmt.Sprintf("load %d", i))
	}
}

// TestPropSourceMemoMatchesUncachedLoads applies random changes to a
// profile source, on clones and in place, loading through one cache after
// each: every load equals an uncached load of the same file system.
func TestPropSourceMemoMatchesUncachedLoads(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		m := frozenTree(t, memoTree(rapid.Bool().Draw(t, "linked")))
		cache := resolve.NewCache()
		names := []string{"p0", "p1", "p2", "p3"}
		texts := []string{"label: A\n", "inherits: [p1]\n", "controls:\n  model: m\n", "label: [bad]\n", "label: B\n"}
		steps := rapid.IntRange(1, 12).Draw(t, "steps")
		for i := range steps {
			if rapid.Bool().Draw(t, fmt.Sprintf("clone before step %d", i)) {
				m = m.Clone()
			}
			name := rapid.SampledFrom(names).Draw(t, fmt.Sprintf("name %d", i))
			text := rapid.SampledFrom(texts).Draw(t, fmt.Sprintf("text %d", i))
			folder := memoSource + "/" + name
			var err error
			switch op := rapid.IntRange(0, 6).Draw(t, fmt.Sprintf("op %d", i)); op {
			case 0:
				_ = m.RemoveAll(memoSource + "/" + name + ".yml")
				if err = m.MkdirAll(folder, 0o755); err == nil {
					err = m.WriteFile(folder+"/profile.yml", []byte(text), 0o644)
				}
			case 1:
				_ = m.RemoveAll(folder)
				err = m.WriteFile(folder+".yml", []byte(text), 0o644)
			case 2:
				_ = m.RemoveAll(folder)
				_ = m.RemoveAll(folder + ".yml")
			case 3:
				_ = m.RemoveAll(folder + ".yml")
				err = m.Symlink(memoElsewhere+"/x.yml", folder+".yml")
			case 4:
				err = m.WriteFile(memoElsewhere+"/x.yml", []byte(text), 0o644)
			case 5:
				err = m.WriteFile(memoElsewhere+"/d/profile.yml", []byte(text), 0o644)
			case 6:
				_ = m.RemoveAll(folder)
				err = m.Symlink(memoElsewhere+"/d", folder)
			}
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			for _, id := range []string{"p0", name} {
				sameLoad(t, m, cache, id, fmt.Sprintf("step %d, %s", i, id))
			}
		}
	})
}

// TestCachedLoadDoesNotGrowWithProfiles checks that a cached load of an
// unchanged source does not list and read it again: its allocations are
// about the same with 1,000 profiles in the source as with 10 (not
// parallel: AllocsPerRun counts every goroutine's allocations).
func TestCachedLoadDoesNotGrowWithProfiles(t *testing.T) {
	// allocs measures a cached load of a source holding n profiles that
	// held start when the cache first saw it.
	allocs := func(start, n int) float64 {
		fsys := memTree(t, profilesTree(start))
		opts := resolve.Options{Agents: agents(), Home: home, Project: project, Cache: resolve.NewCache()}
		if _, err := resolve.Load(fsys.Clone(), opts); err != nil {
			t.Fatal(err)
		}
		grown := profilesTree(n)
		for name := range profilesTree(start) {
			delete(grown, name)
		}
		// Built beside the source and moved in, since Build makes every
		// folder it names.
		vfstest.Build(t, fsys, "/grown", grown)
		const from = "/grown/home/.outfitter/profiles"
		added, err := vfs.ReadDir(fsys, from)
		if err != nil && n > start {
			t.Fatal(err)
		}
		for _, e := range added {
			if err := fsys.Rename(path.Join(from, e.Name()), path.Join(memoSource, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		least := math.Inf(1)
		for range 5 {
			least = min(least, testing.AllocsPerRun(10, func() {
				if _, err := resolve.Load(fsys, opts); err != nil {
					t.Fatal(err)
				}
			}))
		}
		return least
	}
	few := allocs(10, 10)
	for _, start := range []int{1000, 1} {
		// From one profile, too few to keep a scan of, the source grows
		// to 1,000: the cache learns the new count and keeps one.
		if many := allocs(start, 1000); many > 2*few {
			t.Errorf("a cached load allocates %v times with 1,000 profiles in the source (%d when first loaded), %v with 10: want at most twice as many", many, start, few)
		}
	}
}
