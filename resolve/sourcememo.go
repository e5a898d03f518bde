package resolve

import (
	"io/fs"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

// The source memo lets a cached run skip re-listing and re-reading the
// profile sources of a [*vfs.MemFS] whose source directories are as they
// were. A scan is made on a clone of the file system and kept with it; a
// later run reuses it when the run's file system still shares the
// directory's entries with that clone. Clones share their unchanged nodes
// (copy-on-write), and a shared node is never changed in place, so shared
// entries hold what the scan read. [vfs.DiffFS] tells: it calls its Skip
// option for exactly the entries that are not shared. Runs on clones of
// one fixture share everything they did not change; unrelated trees share
// nothing and fail the check after one comparison per entry, even when
// their files are alike. Only scans that read nothing outside the
// directory's subtree are kept: no link as the directory, an entry or a
// folder's profile.yml, no read error.

// maxSourceMemos is the number of scans kept per directory name, most
// recent first: runs alternating between two fixtures keep each one's.
const maxSourceMemos = 2

// keepAfterMisses is the number of loads in a row that may miss a
// directory's memo and still keep a scan each; past it, only the loads
// whose count of misses is a power of two do. A workload that never
// repeats its trees (every property case a new one) then pays for a
// clone and a kept scan about log2(loads) times, not on every load.
const keepAfterMisses = 4

// minMemoProfiles is the number of profile files below which a directory
// is scanned rather than memoized: checking a memo costs about what
// reading one profile does.
const minMemoProfiles = 2

// sourceDir holds the kept scans of one directory name. Invariant: every
// field changes under the cache's lock; memos is replaced, never
// modified in place.
type sourceDir struct {
	memos []*sourceMemo
	// misses counts the loads since the last one that used a memo.
	misses int
	// files is the number of profile files the last scan found.
	files int
}

// sourceMemo is one kept scan. Invariant: never modified after noteScan;
// its profiles and issues are shared and copied by their readers.
type sourceMemo struct {
	snap   *vfs.MemFS
	mtime  time.Time // of the directory in snap
	agents *Agents   // the profiles were parsed for
	found  []scanned
}

// sourceHit returns the kept scan of dir, parsed for agents, that m
// still holds, or nil and whether this load should scan a clone to keep.
func (c *Cache) sourceHit(m *vfs.MemFS, dir string, agents *Agents) (*sourceMemo, bool) {
	c.mu.Lock()
	d := c.sources[dir]
	var memos []*sourceMemo
	if d != nil {
		memos = d.memos
	}
	c.mu.Unlock()
	if d == nil {
		return nil, true
	}
	memo := findSource(m, dir, agents, memos)
	c.mu.Lock()
	defer c.mu.Unlock()
	if memo != nil {
		d.misses = 0
		return memo, false
	}
	d.misses++
	// keepAfterMisses is a power of two, so "<" for "<=" keeps the same.
	//mutants:equivalent CONDITIONALS_BOUNDARY@50
	keep := d.files >= minMemoProfiles && (d.misses <= keepAfterMisses || d.misses&(d.misses-1) == 0)
	if !keep {
		// Scans that keep missing cost a check on every load: drop them.
		d.memos = nil
	}
	return nil, keep
}

// noteScan records a scan of dir that found files profile files, and
// keeps found (parsed for agents) with snap when snap is not nil and the
// scan is worth keeping.
func (c *Cache) noteScan(snap *vfs.MemFS, dir string, agents *Agents, found []scanned, files int) {
	var memo *sourceMemo
	if snap != nil && files >= minMemoProfiles {
		info, err := snap.Lstat(dir)
		if err != nil {
			return
		}
		memo = &sourceMemo{snap: snap, mtime: info.ModTime(), agents: agents, found: found}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || c.size() >= c.limit {
		c.reset()
	}
	d := c.sources[dir]
	if d == nil {
		d = &sourceDir{}
		c.sources[dir] = d
	}
	d.files = files
	if memo == nil {
		return
	}
	memos := make([]*sourceMemo, 0, min(len(d.memos)+1, maxSourceMemos))
	memos = append(memos, memo)
	d.memos = append(memos, d.memos[:min(len(d.memos), maxSourceMemos-1)]...)
}

// findSource returns the memo of memos, parsed for agents, whose
// directory m still holds.
func findSource(m *vfs.MemFS, dir string, agents *Agents, memos []*sourceMemo) *sourceMemo {
	if len(memos) == 0 {
		return nil
	}
	info, err := m.Lstat(dir)
	if err != nil || !info.IsDir() {
		return nil
	}
	for _, memo := range memos {
		// A directory whose time differs is not shared.
		if memo.agents != agents || !info.ModTime().Equal(memo.mtime) {
			continue
		}
		if shared(memo.snap, m, dir) {
			return memo
		}
	}
	return nil
}

// shared reports whether after holds, at dir, the directory of before or
// one whose entries are all before's, shared.
func shared(before, after *vfs.MemFS, dir string) bool {
	same := true
	_, err := vfs.DiffFS(before, after, dir, vfs.SnapshotOptions{Skip: func(string, fs.FileInfo) bool {
		same = false
		return true
	}})
	return err == nil && same
}
