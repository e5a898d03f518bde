package resolve

import (
	"slices"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

// TestCacheHoldsAtMostItsLimit: the cache never holds more things (parsed
// files, flattened stacks, source scans) than its limit; a file or a
// source scan that finds it full starts it over, and a stack that finds it
// full is not kept.
func TestCacheHoldsAtMostItsLimit(t *testing.T) {
	t.Parallel()
	c := &Cache{limit: 4}
	held := func() int {
		n := len(c.resolutions) + len(c.sources)
		for _, byKey := range c.entries {
			n += len(byKey)
		}
		return n
	}
	agents := internalAgents()
	p, issue := c.parseProfile([]byte("id: a\n"), "a", "/src/a.yml", agents)
	if issue != nil {
		t.Fatal(issue)
	}
	layers := []Layer{{ID: "a", Profile: p}}
	steps := []struct {
		name string
		do   func()
		want int
	}{
		{"a stack", func() { c.resolveProfile(layers, "a", "/p") }, 2},
		{"a source scan", func() { c.noteScan(nil, "/src", agents, nil, 1) }, 3},
		{"a settings file", func() { c.settingsFile([]byte("{}\n"), "/h/settings.yml", ScopeUser, agents) }, 4},
		{"a stack when full", func() { c.resolveProfile(layers, "a", "/q") }, 4},
		{"a source scan when full", func() { c.noteScan(nil, "/other", agents, nil, 1) }, 1},
		{"more files", func() {
			for _, doc := range []string{"{}\n", "default_agent: pi\n", "default_agent: claude\n"} {
				c.settingsFile([]byte(doc), "/h/settings.yml", ScopeUser, agents)
			}
		}, 4},
		{"a file when full", func() { c.settingsFile([]byte("default_profile: x\n"), "/h/settings.yml", ScopeUser, agents) }, 1},
	}
	if held() != 1 {
		t.Fatalf("precondition: the cache holds %d things after one file, want 1", held())
	}
	for _, s := range steps {
		s.do()
		if got := held(); got != s.want {
			t.Fatalf("after %s: the cache holds %d things, want %d (limit %d)", s.name, got, s.want, c.limit)
		}
	}
}

// TestSourceScansKeptWhileMissing: a load that misses a directory's kept
// scans keeps its own scan for the first keepAfterMisses misses in a row,
// then only when the count of misses is a power of two; a directory of
// fewer than minMemoProfiles profile files is never kept.
func TestSourceScansKeptWhileMissing(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	for _, files := range []int{minMemoProfiles - 1, minMemoProfiles, minMemoProfiles + 5} {
		c := NewCache()
		c.reset()
		c.sources["/src"] = &sourceDir{files: files}
		var kept []int
		for miss := 1; miss <= 20; miss++ {
			if _, keep := c.sourceHit(m, "/src", internalAgents()); keep {
				kept = append(kept, miss)
			}
		}
		want := []int{1, 2, 3, 4, 8, 16}
		if files < minMemoProfiles {
			want = nil
		}
		if !slices.Equal(kept, want) {
			t.Errorf("%d files: scans kept at misses %v, want %v", files, kept, want)
		}
	}
}

// TestSourceScansKeptPerDirectory: a scan of minMemoProfiles profile files
// or more is kept with its snapshot, the latest first, at most
// maxSourceMemos to a directory; a smaller one is not.
func TestSourceScansKeptPerDirectory(t *testing.T) {
	t.Parallel()
	c := NewCache()
	var snaps []*vfs.MemFS
	for range 4 {
		s := vfs.NewMemFS(vfs.MemOptions{})
		if err := s.MkdirAll("/src", 0o755); err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, s)
	}
	c.noteScan(snaps[0], "/src", internalAgents(), nil, minMemoProfiles-1)
	if n := len(c.sources["/src"].memos); n != 0 {
		t.Fatalf("a scan of %d files kept %d memos, want none", minMemoProfiles-1, n)
	}
	for _, s := range snaps[1:] {
		c.noteScan(s, "/src", internalAgents(), nil, minMemoProfiles)
	}
	var kept []*vfs.MemFS
	for _, m := range c.sources["/src"].memos {
		kept = append(kept, m.snap)
	}
	if !slices.Equal(kept, []*vfs.MemFS{snaps[3], snaps[2]}) {
		t.Errorf("kept the scans of snapshots %v, want the last two of %v, latest first", kept, snaps[1:])
	}
}
