package composite_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
)

// inUseWarning is EnsureSource's warning for a blank source another
// session's agent holds.
func inUseWarning(source string) string {
	return "State source '" + source + "' is blank but in use by another session; left as it is."
}

// TestEnsureSourceLeavesABlankSourceInUse: a blank source whose file
// another session holds the shared in-use lock of (its agent runs, and may
// be between its truncation of the file and its write) is left as it is,
// the same file, with a warning; once the lock is released, the reset
// happens. Before, the reset renamed "{}\n" over the file the agent was
// writing, and what it wrote was lost (TestConcurrentSessions saw mcp.json
// end as "{}\n").
func TestEnsureSourceLeavesABlankSourceInUse(t *testing.T) {
	t.Parallel()
	const source = "/h/.pi/agent/mcp.json"
	mem := vfs.NewMemFS(vfs.MemOptions{})
	must(t, mem.MkdirAll("/h/.pi/agent", 0o755))
	must(t, mem.MkdirAll("/root", 0o755))
	must(t, mem.WriteFile(source, []byte(" \n"), 0o600))
	must(t, mem.Symlink(source, "/root/mcp.json"))
	before, err := mem.Stat(source)
	must(t, err)
	sp := composite.StatePath{RelativePath: "mcp.json", Strategy: composite.StrategySymlink, SourcePath: source}

	// The other session's agent locks the file through its composite's link.
	u, err := vfs.LockShared(mem, "/root/mcp.json")
	must(t, err)
	w, err := composite.EnsureSource(mem, sp)
	if err != nil {
		t.Fatalf("EnsureSource: %v", err)
	}
	if want := inUseWarning(source); w != want {
		t.Errorf("warning = %q, want %q", w, want)
	}
	if got := readFile(t, mem, source); got != " \n" {
		t.Errorf("%s = %q while in use, want it left as it was", source, got)
	}
	if now, err := mem.Stat(source); err != nil || !sameInode(before, now) {
		t.Errorf("%s was replaced while in use (%v)", source, err)
	}
	must(t, u.Unlock())

	w, err = composite.EnsureSource(mem, sp)
	if err != nil || w != "" {
		t.Fatalf("EnsureSource after the release: %q, %v; want no warning", w, err)
	}
	if got := readFile(t, mem, source); got != "{}\n" {
		t.Errorf("%s = %q after the release, want the reset's %q", source, got, "{}\n")
	}
	if _, err := vfs.TryLock(mem, source); err != nil {
		t.Errorf("the reset left the file locked: %v", err)
	}
}

// writesBeforeTheLockFS is a MemFS (wrapped, so that ReplaceFile takes its
// general way, as on the OS) on which another session's agent takes the
// in-use lock of name, writes it whole and releases the lock just before
// this session's first TryLock of name: between the reset's read of the
// blank source and its lock.
type writesBeforeTheLockFS struct {
	*vfs.MemFS
	t          testing.TB
	name, data string
	done       bool
}

func (f *writesBeforeTheLockFS) TryLock(name string) (vfs.Unlocker, error) {
	if !f.done && name == f.name {
		f.done = true
		u, err := f.MemFS.LockShared(name)
		if err == nil {
			err = f.MemFS.WriteFile(name, []byte(f.data), 0o600)
			err = errors.Join(err, u.Unlock())
		}
		if err != nil {
			f.t.Fatalf("the other session's agent: %v", err)
		}
	}
	return f.MemFS.TryLock(name)
}

// TestEnsureSourceRereadsUnderTheLock: an agent that writes a blank
// source whole between the reset's read and its exclusive lock keeps what
// it wrote: the reset reads the file again under the lock.
func TestEnsureSourceRereadsUnderTheLock(t *testing.T) {
	t.Parallel()
	const source = "/h/.pi/agent/mcp.json"
	const theirs = "{\"session\":2}\n"
	mem := vfs.NewMemFS(vfs.MemOptions{})
	must(t, mem.MkdirAll("/h/.pi/agent", 0o755))
	must(t, mem.WriteFile(source, nil, 0o600))
	fsys := &writesBeforeTheLockFS{MemFS: mem, t: t, name: source, data: theirs}
	w, err := composite.EnsureSource(fsys, composite.StatePath{RelativePath: "mcp.json", Strategy: composite.StrategySymlink, SourcePath: source})
	if err != nil || w != "" {
		t.Fatalf("EnsureSource: %q, %v; want no warning", w, err)
	}
	if !fsys.done {
		t.Fatal("the reset never tried the lock of the source")
	}
	if got := readFile(t, mem, source); got != theirs {
		t.Errorf("%s = %q, want the agent's %q", source, got, theirs)
	}
}

// sameInode reports whether two FileInfos describe one file.
func sameInode(a, b fs.FileInfo) bool {
	x, ok1 := vfs.Inode(a)
	y, ok2 := vfs.Inode(b)
	return ok1 && ok2 && x == y
}
