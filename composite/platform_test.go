package composite_test

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
)

// junctionRefused is a MemFS whose Symlink is refused with err, as a
// Windows without Developer Mode refuses even a junction on some volumes.
type junctionRefused struct {
	*vfs.MemFS
	err error
}

func (j junctionRefused) Symlink(oldname, newname string) error {
	return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: j.err}
}

// TestWriteWindowsSafeSymlink checks upstream's SafeSymlink on win32: the
// symbolic link is refused, so a directory gets a junction (a link to the
// source's absolute path: a relative source is resolved against the
// working directory) and a file gets a copy, with upstream's warning byte
// for byte.
func TestWriteWindowsSafeSymlink(t *testing.T) {
	t.Parallel()
	fsys := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformWin32})
	must(t, fsys.MkdirAll(root, 0o700))
	must(t, fsys.MkdirAll("/work/src/sessions", 0o755))
	must(t, fsys.WriteFile("/work/src/sessions/s.jsonl", []byte("s"), 0o644))
	must(t, fsys.WriteFile("/work/src/settings.json", []byte("{\"a\":1}\n"), 0o644))
	c := &composite.Composite{Root: root, StatePaths: []composite.StatePath{
		{RelativePath: "sessions/", Strategy: "symlink", SourcePath: "src/sessions", Directory: true},
		{RelativePath: "settings.json", Strategy: "symlink", SourcePath: "/work/src/settings.json"},
		{RelativePath: "mcp.json", Strategy: "symlink", SourcePath: "/work/src/mcp.json"},
	}}
	warnings, err := composite.Write(fsys, c, composite.WriteOptions{Cwd: "/work", Platform: vfs.PlatformWin32})
	must(t, err)
	checkWarnings(t, []string{
		"State path 'settings.json' could not be symlinked (symlinks are unavailable on this platform); copied '/work/src/settings.json' instead, so writes to it will not persist back.",
		"State path 'mcp.json' could not be symlinked (symlinks are unavailable on this platform); copied '/work/src/mcp.json' instead, so writes to it will not persist back.",
	}, warnings)
	wantTypeAndText(t, fsys, root, map[string]string{
		"sessions":      "symlink /work/src/sessions",
		"settings.json": "file {\"a\":1}\n",
		"mcp.json":      "file {}\n",
	})
	// The source of a copied file is created as on any platform.
	if got := readFile(t, fsys, "/work/src/mcp.json"); got != "{}\n" {
		t.Errorf("mcp.json source %q", got)
	}
	// On Linux the same composite links everything, the relative target verbatim.
	lin := vfs.NewMemFS(vfs.MemOptions{})
	must(t, lin.MkdirAll(root, 0o700))
	warnings, err = composite.Write(lin, c, composite.WriteOptions{Cwd: "/work"})
	must(t, err)
	checkWarnings(t, nil, warnings)
	wantTypeAndText(t, lin, root, map[string]string{
		"sessions":      "symlink src/sessions",
		"settings.json": "symlink /work/src/settings.json",
		"mcp.json":      "symlink /work/src/mcp.json",
	})
}

// TestWriteWindowsJunctionRefused checks the rest of SafeSymlink's
// fallback: a junction refused with EPERM or EACCES gives a copy of the
// directory with the warning; another error is the file system's.
func TestWriteWindowsJunctionRefused(t *testing.T) {
	t.Parallel()
	for _, errno := range []syscall.Errno{syscall.EPERM, syscall.EACCES, syscall.EIO} {
		t.Run(errno.Error(), func(t *testing.T) {
			t.Parallel()
			mem := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformWin32})
			must(t, mem.MkdirAll(root, 0o700))
			must(t, mem.MkdirAll("/src/plugins", 0o755))
			must(t, mem.WriteFile("/src/plugins/p.json", []byte("p"), 0o644))
			c := &composite.Composite{Root: root, StatePaths: []composite.StatePath{
				{RelativePath: "plugins/", Strategy: "symlink", SourcePath: "/src/plugins", Directory: true},
			}}
			warnings, err := composite.Write(junctionRefused{mem, errno}, c, composite.WriteOptions{Platform: vfs.PlatformWin32})
			if errno == syscall.EIO {
				if !errors.Is(err, syscall.EIO) {
					t.Fatalf("Write = %v, want the junction's EIO", err)
				}
				return
			}
			must(t, err)
			checkWarnings(t, []string{
				"State path 'plugins/' could not be symlinked (symlinks are unavailable on this platform); copied '/src/plugins' instead, so writes to it will not persist back.",
			}, warnings)
			if got := readFile(t, mem, root+"/plugins/p.json"); got != "p" {
				t.Errorf("copied file %q", got)
			}
		})
	}
}
