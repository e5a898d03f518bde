package sources_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// waitSignalFS is the host file system whose Lock closes waiting before
// it waits for a lock another holder has.
type waitSignalFS struct {
	*osfs.FS
	waiting chan struct{}
	waited  atomic.Bool
}

func (f *waitSignalFS) Lock(name string) (vfs.Unlocker, error) {
	u, err := f.FS.TryLock(name)
	if errors.Is(err, vfs.ErrLocked) {
		if f.waited.CompareAndSwap(false, true) {
			close(f.waiting)
		}
		return f.FS.Lock(name)
	}
	return u, err
}

// hookRunner runs hook once, before the first git clone.
type hookRunner struct {
	sources.Runner
	fired atomic.Bool
	hook  func()
}

func (r *hookRunner) Run(ctx context.Context, dir, name string, args ...string) (string, error) {
	if name == "git" && len(args) > 0 && args[0] == "clone" && r.fired.CompareAndSwap(false, true) {
		r.hook()
	}
	return r.Runner.Run(ctx, dir, name, args...)
}

// TestConcurrentSyncsOfOneCache: a second sync of a profile source starts
// while the first one is about to clone it. Both must succeed: the second
// waits for the first and updates its clone. Without a lock the second
// clones first and the first one's clone fails on the directory it finds.
func TestConcurrentSyncsOfOneCache(t *testing.T) {
	t.Parallel()
	env := gitEnv(t)
	catalog := newRepo(t, env, map[string]string{"profiles/eng/profile.yml": "id: eng\n"})
	home, project := t.TempDir(), t.TempDir()
	fsys := &waitSignalFS{FS: osfs.New(), waiting: make(chan struct{})}
	src := resolve.Source{URI: catalog.URL(), Path: "profiles"}
	run := &hookRunner{Runner: sources.Exec{Env: env}}
	opts := sources.Options{Home: home, Project: project, Runner: run}
	second := make(chan sources.SourceResult, 1)
	run.hook = func() {
		go func() { second <- sources.SyncSource(context.Background(), fsys, opts, src) }()
		select {
		case <-fsys.waiting:
		case r := <-second:
			second <- r
		}
	}
	first := sources.SyncSource(context.Background(), fsys, opts, src)
	if !run.fired.Load() {
		t.Fatal("precondition: the first sync never cloned")
	}
	for i, r := range []sources.SourceResult{first, <-second} {
		if r.Status != sources.StatusUpdated {
			t.Errorf("sync %d: %s", i+1, r.Line())
		}
	}
	if read(t, src.CacheDir(home)+"/profiles/eng/profile.yml") != "id: eng\n" {
		t.Error("the cache does not hold the catalog")
	}
}

// lockSignalFS is a MemFS whose Lock closes locking before it locks.
type lockSignalFS struct {
	*vfs.MemFS
	locking chan struct{}
}

func (f *lockSignalFS) Lock(name string) (vfs.Unlocker, error) {
	close(f.locking)
	return f.MemFS.Lock(name)
}

// TestWaitForSyncs: a run that starts while a cache is synced waits for
// the sync's lock, and says it waited; a free cache is not waited for.
func TestWaitForSyncs(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	if err := mem.MkdirAll("/cache/repos/a", 0o755); err != nil {
		t.Fatal(err)
	}
	dirs := []string{"/cache/repos/a", "/cache/repos/missing/b"}
	if sources.WaitForSyncs(mem, dirs) {
		t.Error("WaitForSyncs waited for caches nobody syncs")
	}
	u, err := vfs.LockFile(mem, "/cache/repos/a")
	if err != nil {
		t.Fatal(err)
	}
	fsys := &lockSignalFS{MemFS: mem, locking: make(chan struct{})}
	var released atomic.Bool
	done := make(chan bool)
	go func() {
		waited := sources.WaitForSyncs(fsys, dirs)
		done <- waited && released.Load()
	}()
	<-fsys.locking
	released.Store(true)
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
	if !<-done {
		t.Error("WaitForSyncs returned before the sync's lock was released, or did not say it waited")
	}
	if list, _ := mem.ReadDir("/cache/repos"); len(list) != 1 {
		t.Errorf("lock files left in the cache: %v", list)
	}
}

// tryCountFS is a MemFS that counts its TryLocks.
type tryCountFS struct {
	*vfs.MemFS
	tries atomic.Int32
}

func (f *tryCountFS) TryLock(name string) (vfs.Unlocker, error) {
	f.tries.Add(1)
	return f.MemFS.TryLock(name)
}

// TestWaitForSyncsTakesNoFreeLock: where no cache has a lock file, nobody
// syncs it, and WaitForSyncs tries no lock (which would create and remove
// a lock file on every run); a lock file a dead holder left behind is
// tried, taken, removed and not waited for.
func TestWaitForSyncsTakesNoFreeLock(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	if err := mem.MkdirAll("/cache/repos/a", 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := &tryCountFS{MemFS: mem}
	dirs := []string{"/cache/repos/a", "/cache/repos/missing/b"}
	if sources.WaitForSyncs(fsys, dirs) {
		t.Error("WaitForSyncs waited for caches nobody syncs")
	}
	if n := fsys.tries.Load(); n != 0 {
		t.Errorf("WaitForSyncs tried %d locks of caches without a lock file, want none", n)
	}
	stale := vfs.LockName("/cache/repos/a")
	if err := mem.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if sources.WaitForSyncs(fsys, dirs) {
		t.Error("WaitForSyncs waited for a lock file nobody holds")
	}
	if n := fsys.tries.Load(); n != 1 {
		t.Errorf("WaitForSyncs tried %d locks with one lock file left behind, want 1", n)
	}
	if _, err := mem.Lstat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the lock file left behind is still there: %v", err)
	}
}

// TestConcurrentFetchesOfOneExtension: a second run fetches the same pi
// extension while the first one is about to clone it. Both must succeed
// and the checkout and its sidecar stay: the second waits and finds the
// checkout made. Without a lock the second clones first, the first one's
// clone fails on the directory it finds, and its cleanup removes the
// checkout and the sidecar the second one made.
func TestConcurrentFetchesOfOneExtension(t *testing.T) {
	t.Parallel()
	env := gitEnv(t)
	ext := newRepo(t, env, map[string]string{"index.js": "export default {}\n"})
	dir := filepath.Join(t.TempDir(), "extensions", "git", "ext")
	c := composite.Checkout{Source: "git:" + ext.URL(), URL: ext.URL(), Dir: dir}
	fsys := &waitSignalFS{FS: osfs.New(), waiting: make(chan struct{})}
	run := &hookRunner{Runner: sources.Exec{Env: env}}
	second := make(chan error, 1)
	run.hook = func() {
		go func() { second <- sources.Fetch(context.Background(), fsys, run, []composite.Checkout{c}, nil) }()
		select {
		case <-fsys.waiting:
		case err := <-second:
			second <- err
		}
	}
	if err := sources.Fetch(context.Background(), fsys, run, []composite.Checkout{c}, nil); err != nil {
		t.Errorf("first fetch: %v", err)
	}
	if err := <-second; err != nil {
		t.Errorf("second fetch: %v", err)
	}
	if !run.fired.Load() {
		t.Fatal("precondition: the first fetch never cloned")
	}
	if read(t, dir+"/index.js") != "export default {}\n" {
		t.Error("the checkout does not hold the extension")
	}
	if !strings.Contains(read(t, dir+".source.json"), ext.URL()) {
		t.Error("the sidecar does not name the extension")
	}
}
