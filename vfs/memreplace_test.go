package vfs_test

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// generalFS is a MemFS that ReplaceFile does not recognise as one: it
// takes the general way (temporary file, lock file, rename).
type generalFS struct{ *vfs.MemFS }

// TestMemReplaceFileAsTheGeneralWay: ReplaceFile and ReplaceFileIf on a
// MemFS, which do the common case in one step, leave the tree, the result
// and the syncs counted as the general way leaves them, in the common
// case and in those it hands over (a link or a directory at the name, a
// missing directory, a lock file or a temporary file a dead session
// left).
func TestMemReplaceFileAsTheGeneralWay(t *testing.T) {
	t.Parallel()
	isMissing := func(_ []byte, exists bool) bool { return !exists }
	isBlank := func(data []byte, exists bool) bool { return exists && strings.TrimSpace(string(data)) == "" }
	for _, tt := range []struct {
		name string
		tree vfstest.Tree
		file string
		cond func([]byte, bool) bool
	}{
		{name: "missing", tree: vfstest.Tree{"d": vfstest.Dir()}, file: "/d/f"},
		{name: "a file", tree: vfstest.Tree{"d/f": vfstest.File("old").WithMode(0o600), "d/g": vfstest.File("G")}, file: "/d/f"},
		{name: "through a linked directory", tree: vfstest.Tree{"d/f": vfstest.File("old"), "l": vfstest.Link("d")}, file: "/l/f"},
		{name: "a link to a file", tree: vfstest.Tree{"d/f": vfstest.Link("g"), "d/g": vfstest.File("G")}, file: "/d/f"},
		{name: "a dangling link", tree: vfstest.Tree{"d/f": vfstest.Link("nowhere")}, file: "/d/f"},
		{name: "a directory", tree: vfstest.Tree{"d/f/x": vfstest.File("x")}, file: "/d/f"},
		{name: "no directory", tree: vfstest.Tree{"d": vfstest.Dir()}, file: "/e/f"},
		{name: "a stray temporary file", tree: vfstest.Tree{"d/f": vfstest.File("old"), "d/.f.123.tmp": vfstest.File("half")}, file: "/d/f"},
		{name: "a stray of another name", tree: vfstest.Tree{"d/.g.123.tmp": vfstest.File("half"), "d/.f.x.tmp": vfstest.File("not a stray")}, file: "/d/f"},
		{name: "a lock file left", tree: vfstest.Tree{"d/.f.replace.lock": vfstest.File("")}, file: "/d/f"},
		{name: "the root", tree: vfstest.Tree{}, file: "/"},
		{name: "if missing, missing", tree: vfstest.Tree{"d": vfstest.Dir()}, file: "/d/f", cond: isMissing},
		{name: "if missing, there", tree: vfstest.Tree{"d/f": vfstest.File("old")}, file: "/d/f", cond: isMissing},
		{name: "if blank, blank", tree: vfstest.Tree{"d/f": vfstest.File(" \n").WithMode(0o600)}, file: "/d/f", cond: isBlank},
		{name: "if blank, not", tree: vfstest.Tree{"d/f": vfstest.File("{}")}, file: "/d/f", cond: isBlank},
		{name: "if blank, through a link", tree: vfstest.Tree{"d/f": vfstest.Link("g"), "d/g": vfstest.File("")}, file: "/d/f", cond: isBlank},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			type outcome struct {
				Replaced    bool
				Err         string
				Tree        vfs.Tree
				Files, Dirs int64
			}
			run := func(general bool) outcome {
				m := vfstest.MemWith(t, "/", tt.tree)
				var fsys vfs.FS = m
				if general {
					fsys = generalFS{m}
				}
				var o outcome
				var err error
				if tt.cond == nil {
					err = vfs.ReplaceFile(fsys, tt.file, []byte("new"), 0o640)
					o.Replaced = err == nil
				} else {
					o.Replaced, err = vfs.ReplaceFileIf(fsys, tt.file, []byte("new"), 0o640, tt.cond)
				}
				if err != nil {
					// The general way's errors may name its temporary
					// file: compare their errno.
					o.Err = err.Error()
					if errno, ok := errors.AsType[syscall.Errno](err); ok {
						o.Err = errno.Error()
					}
				}
				o.Tree = vfstest.Snapshot(t, m, "/")
				o.Files, o.Dirs = m.Syncs()
				return o
			}
			if d := cmp.Diff(run(true), run(false)); d != "" {
				t.Errorf("(-general way +MemFS):\n%s", d)
			}
		})
	}
}

// TestMemReplaceFileIfAsTheGeneralWayMeanwhile: another session puts a
// file with the content the condition approved at the name after the
// condition's read and before the replacement, as a new file (another
// inode) renamed into place or written in place (a ReplaceFile waits for
// the general way's lock, so it cannot come between). The one step of a MemFS and the general way
// agree on the result, the tree, the syncs and the condition's calls: what
// the condition decides on is the content, and the content it approved is
// still there, so neither asks again. (Another content meanwhile is where
// they differ: the one step asks again, TestMemReplaceFileIfAsksAgain,
// and the general way, which excludes only the other replacements of the
// name, replaces it.)
func TestMemReplaceFileIfAsTheGeneralWayMeanwhile(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		meanwhile func(m *vfs.MemFS) error
	}{
		{"a new file renamed into place", func(m *vfs.MemFS) error {
			return errors.Join(m.WriteFile("/d/theirs", []byte("old"), 0o644), m.Rename("/d/theirs", "/d/f"))
		}},
		{"written in place", func(m *vfs.MemFS) error { return m.WriteFile("/d/f", []byte("old"), 0o644) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			type outcome struct {
				Replaced    bool
				Err         string
				Calls       []string
				Tree        vfs.Tree
				Files, Dirs int64
			}
			run := func(general bool) outcome {
				m := vfstest.MemWith(t, "/", vfstest.Tree{"d/f": vfstest.File("old").WithMode(0o600)})
				var fsys vfs.FS = m
				if general {
					fsys = generalFS{m}
				}
				var o outcome
				var err error
				o.Replaced, err = vfs.ReplaceFileIf(fsys, "/d/f", []byte("new"), 0o640, func(data []byte, exists bool) bool {
					o.Calls = append(o.Calls, string(data))
					if len(o.Calls) == 1 {
						vfstest.Must(t, "the other session's write", tt.meanwhile(m))
					}
					return exists && string(data) == "old"
				})
				if err != nil {
					o.Err = err.Error()
				}
				o.Tree = vfstest.Snapshot(t, m, "/")
				o.Files, o.Dirs = m.Syncs()
				return o
			}
			if d := cmp.Diff(run(true), run(false)); d != "" {
				t.Errorf("(-general way +MemFS):\n%s", d)
			}
		})
	}
}

// TestMemReplaceFileMakesANewFile: the file ReplaceFile puts in place is
// a new file, as the general way's renamed temporary file is: a handle
// open on the old one keeps reading the old content.
func TestMemReplaceFileMakesANewFile(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"d/f": vfstest.File("old")})
	before, err := m.Stat("/d/f")
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Open("/d/f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := vfs.ReplaceFile(m, "/d/f", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := m.Stat("/d/f")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustInode(t, before), mustInode(t, after); a == b {
		t.Errorf("the replaced file kept inode %d", a)
	}
	buf := make([]byte, 8)
	if n, _ := f.Read(buf); string(buf[:n]) != "old" {
		t.Errorf("a handle open on the old file reads %q, want %q", buf[:n], "old")
	}
}

func mustInode(t *testing.T, fi fs.FileInfo) uint64 {
	t.Helper()
	ino, ok := vfs.Inode(fi)
	if !ok {
		t.Fatalf("no inode in %v", fi)
	}
	return ino
}

// TestMemReplaceFileIfAsksAgain: the condition may use the file system
// (it is not called under the MemFS's lock), and when the name changed
// after the condition approved what it held, the condition is asked
// again about what it holds now: what another session wrote meanwhile
// is never overwritten on a decision about what was there before.
func TestMemReplaceFileIfAsksAgain(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"d": vfstest.Dir()})
	type call struct {
		Data   string
		Exists bool
	}
	var calls []call
	replaced, err := vfs.ReplaceFileIf(m, "/d/f", []byte("default"), 0o644, func(data []byte, exists bool) bool {
		calls = append(calls, call{string(data), exists})
		if len(calls) == 1 {
			// Another session persists its state now.
			if err := vfs.ReplaceFile(m, "/d/f", []byte("theirs"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return !exists
	})
	if err != nil || replaced {
		t.Errorf("ReplaceFileIf = %v, %v; want false, nil", replaced, err)
	}
	if d := cmp.Diff([]call{{"", false}, {"theirs", true}}, calls); d != "" {
		t.Errorf("the condition's calls (-want +got):\n%s", d)
	}
	vfstest.WantText(t, m, "/d/f", "theirs")
}

// TestMemReplaceFileAllocatesLittle: the common case of ReplaceFile on a
// MemFS makes no temporary name, lock, listing or handle: at most an
// allocation now and then for its new file and content (taken from the
// MemFS's batches). The general way took 26 a call.
func TestMemReplaceFileAllocatesLittle(t *testing.T) {
	// Not parallel: AllocsPerRun counts every goroutine's allocations.
	m := vfstest.MemWith(t, "/", vfstest.Tree{"home/user/.pi/agent/settings.json": vfstest.File("{}")})
	data := []byte("{\"providers\":{}}\n")
	missing := func(_ []byte, exists bool) bool { return !exists }
	allocs := testing.AllocsPerRun(100, func() {
		if err := vfs.ReplaceFile(m, "/home/user/.pi/agent/models.json", data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := vfs.ReplaceFileIf(m, "/home/user/.pi/agent/settings.json", data, 0o644, missing); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("ReplaceFile and ReplaceFileIf of one file: %v allocations, want at most 1", allocs)
	}
}

// TestMemMkdirAllSyncedAsTheGeneralWay: MkdirAllSynced on a MemFS, which
// does the common case in one step, leaves the tree, the error and the
// syncs counted as the general way leaves them.
func TestMemMkdirAllSyncedAsTheGeneralWay(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		platform vfs.Platform
		tree     vfstest.Tree
		dir      string
	}{
		{name: "there", tree: vfstest.Tree{"a/b": vfstest.Dir()}, dir: "/a/b"},
		{name: "one missing", tree: vfstest.Tree{"a": vfstest.Dir()}, dir: "/a/b"},
		{name: "three missing", tree: vfstest.Tree{"a": vfstest.Dir()}, dir: "/a/b/c/d"},
		{name: "from the root", tree: vfstest.Tree{}, dir: "/x/y"},
		{name: "unclean", tree: vfstest.Tree{"a": vfstest.Dir()}, dir: "/a/./b//c/"},
		{name: "through a link", tree: vfstest.Tree{"a": vfstest.Dir(), "l": vfstest.Link("a")}, dir: "/l/b/c"},
		{name: "a link to a directory", tree: vfstest.Tree{"a": vfstest.Dir(), "l": vfstest.Link("a")}, dir: "/l"},
		{name: "a dangling link", tree: vfstest.Tree{"l": vfstest.Link("nowhere")}, dir: "/l"},
		{name: "below a dangling link", tree: vfstest.Tree{"l": vfstest.Link("nowhere")}, dir: "/l/b"},
		{name: "a file", tree: vfstest.Tree{"a/f": vfstest.File("x")}, dir: "/a/f"},
		{name: "below a file", tree: vfstest.Tree{"a/f": vfstest.File("x")}, dir: "/a/f/g"},
		{name: "a loop", tree: vfstest.Tree{"l": vfstest.Link("m"), "m": vfstest.Link("l")}, dir: "/l/x"},
		{name: "a long name", tree: vfstest.Tree{"a": vfstest.Dir()}, dir: "/a/b/" + strings.Repeat("n", vfs.NameMax+1) + "/c"},
		{name: "on macOS", platform: vfs.PlatformDarwin, tree: vfstest.Tree{"A": vfstest.Dir()}, dir: "/a/b/c"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			type outcome struct {
				Err   string
				Tree  vfs.Tree
				Syncs int64
			}
			run := func(general bool) outcome {
				m := vfs.NewMemFS(vfs.MemOptions{Platform: tt.platform})
				vfstest.Build(t, m, "/", tt.tree)
				var fsys vfs.FS = m
				if general {
					fsys = generalFS{m}
				}
				var o outcome
				if err := vfs.MkdirAllSynced(fsys, tt.dir, 0o750); err != nil {
					o.Err = err.Error()
				}
				o.Tree = vfstest.Snapshot(t, m, "/")
				_, o.Syncs = m.Syncs()
				return o
			}
			if d := cmp.Diff(run(true), run(false)); d != "" {
				t.Errorf("(-general way +MemFS):\n%s", d)
			}
		})
	}
}

// TestMemMkdirAllSyncedAllocatesNothing: MkdirAllSynced on a MemFS makes
// missing directories, and finds existing ones, without a probe, a name
// or an error value of its own (the general way made 7 allocations for
// these calls); the directories themselves come from the MemFS's
// batches.
func TestMemMkdirAllSyncedAllocatesNothing(t *testing.T) {
	// Not parallel: AllocsPerRun counts every goroutine's allocations.
	m := vfstest.MemWith(t, "/", vfstest.Tree{"home/user": vfstest.Dir()})
	allocs := testing.AllocsPerRun(100, func() {
		for range 2 {
			if err := vfs.MkdirAllSynced(m, "/home/user/.pi/agent/sessions", 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.RemoveAll("/home/user/.pi"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("MkdirAllSynced of three new directories and again: %v allocations, want 0", allocs)
	}
}
