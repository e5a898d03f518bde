package composite_test

import (
	"io/fs"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
)

// persistingFS is a MemFS on which another session persists data at name
// (a ReplaceFile, as its write-back does) right after this session first
// looks name up with the method called on ("stat" or "readfile"): between
// EnsureSource's look at a missing or blank source and its write of the
// default content.
type persistingFS struct {
	*vfs.MemFS
	t        testing.TB
	name, on string
	data     string
	done     bool
}

func (p *persistingFS) persist(method, name string) {
	if p.done || method != p.on || name != p.name {
		return
	}
	p.done = true
	if err := vfs.ReplaceFile(p.MemFS, name, []byte(p.data), 0o600); err != nil {
		p.t.Fatalf("the other session's persist: %v", err)
	}
}

func (p *persistingFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := p.MemFS.Stat(name)
	p.persist("stat", name)
	return fi, err
}

func (p *persistingFS) ReadFile(name string) ([]byte, error) {
	data, err := p.MemFS.ReadFile(name)
	p.persist("readfile", name)
	return data, err
}

// TestEnsureSourceKeepsAnotherSessionsPersist: a second session that
// persists a state path's source between this session's look at it (the
// source is missing, or blank) and its write of the default content keeps
// what it persisted. Before, the default content was renamed over it, and
// the other session's durable state was lost (TestConcurrentSessions saw
// mcp.json end as "{}\n").
func TestEnsureSourceKeepsAnotherSessionsPersist(t *testing.T) {
	t.Parallel()
	const source = "/h/.pi/agent/mcp.json"
	const theirs = "{\"session\":2}\n"
	for _, tt := range []struct {
		name, on string
		before   *string
	}{
		{"missing", "stat", nil},
		{"blank", "readfile", new("")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mem := vfs.NewMemFS(vfs.MemOptions{})
			must(t, mem.MkdirAll("/h/.pi/agent", 0o755))
			if tt.before != nil {
				must(t, mem.WriteFile(source, []byte(*tt.before), 0o644))
			}
			fsys := &persistingFS{MemFS: mem, t: t, name: source, on: tt.on, data: theirs}
			if _, err := composite.EnsureSource(fsys, composite.StatePath{RelativePath: "mcp.json", Strategy: "symlink", SourcePath: source}); err != nil {
				t.Fatalf("EnsureSource: %v", err)
			}
			if !fsys.done {
				t.Fatalf("the other session never persisted: EnsureSource did not %s %s", tt.on, source)
			}
			if got := readFile(t, mem, source); got != theirs {
				t.Errorf("%s = %q after EnsureSource, want the other session's %q", source, got, theirs)
			}
		})
	}
	// Without another session, the defaults are still written.
	mem := vfs.NewMemFS(vfs.MemOptions{})
	must(t, mem.MkdirAll("/h", 0o755))
	must(t, mem.WriteFile("/h/trust.json", []byte(" \n"), 0o644))
	for _, s := range []string{"/h/mcp.json", "/h/trust.json"} {
		if _, err := composite.EnsureSource(mem, composite.StatePath{RelativePath: "x", Strategy: "symlink", SourcePath: s}); err != nil {
			t.Fatalf("EnsureSource %s: %v", s, err)
		}
		if got := readFile(t, mem, s); got != "{}\n" {
			t.Errorf("%s = %q, want the default", s, got)
		}
	}
}
