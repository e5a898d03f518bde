package vfs

import (
	"reflect"
	"strings"
	"testing"
)

// TestReplaceInPlaceLeavesTheRestToTheGeneralWay: the one-step
// replacement of a MemFS declines, and changes nothing, wherever the
// general way has something to wait for, clean up or report: another
// session's replacement under way (its lock held), a lock file or a
// temporary file a dead session left, a link or a directory at the name,
// a missing directory, names too long for the temporary file, and a
// folding platform.
func TestReplaceInPlaceLeavesTheRestToTheGeneralWay(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("n", NameMax-15)
	for _, tt := range []struct {
		name     string
		platform Platform
		setup    func(m *MemFS) error
		file     string
		held     string
	}{
		{name: "a replacement under way", held: "/d/.f.replace.lock", file: "/d/f"},
		{name: "a lock file left", file: "/d/f", setup: func(m *MemFS) error { return m.WriteFile("/d/.f.replace.lock", nil, 0o600) }},
		{name: "a stray file", file: "/d/f", setup: func(m *MemFS) error { return m.WriteFile("/d/.f.42.tmp", []byte("half"), 0o600) }},
		{name: "a stray link", file: "/d/f", setup: func(m *MemFS) error { return m.Symlink("x", "/d/.f.42.tmp") }},
		{name: "a link", file: "/d/f", setup: func(m *MemFS) error { return m.Symlink("g", "/d/f") }},
		{name: "a directory", file: "/d/f", setup: func(m *MemFS) error { return m.Mkdir("/d/f", 0o755) }},
		{name: "no directory", file: "/e/f"},
		{name: "a file as directory", file: "/d/g/f", setup: func(m *MemFS) error { return m.WriteFile("/d/g", nil, 0o644) }},
		{name: "a trailing slash", file: "/d/f/"},
		{name: "a dot", file: "/d/."},
		{name: "the root", file: "/"},
		{name: "a long name", file: "/d/" + long},
		{name: "macOS", platform: PlatformDarwin, file: "/d/f"},
		{name: "a big directory's lock", file: "/d/f", setup: func(m *MemFS) error {
			for i := range bigDir + 1 {
				if err := m.WriteFile("/d/"+strings.Repeat("a", i%40+1)+string(rune('a'+i%26))+string(rune('a'+i/26)), nil, 0o644); err != nil {
					return err
				}
			}
			return m.WriteFile("/d/.f.replace.lock", nil, 0o600)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := NewMemFS(MemOptions{Platform: tt.platform})
			if err := m.MkdirAll("/d", 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				if err := tt.setup(m); err != nil {
					t.Fatal(err)
				}
			}
			if tt.held != "" {
				u, err := m.Lock(tt.held)
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = u.Unlock() }()
			}
			before, err := Snapshot(m, "/")
			if err != nil {
				t.Fatal(err)
			}
			files, dirs := m.Syncs()
			called := false
			for _, cond := range []func([]byte, bool) bool{nil, func([]byte, bool) bool { called = true; return true }} {
				if done, _ := m.replaceInPlace(tt.file, []byte("new"), 0o644, cond); done {
					t.Errorf("replaceInPlace(%q) did it", tt.file)
				}
			}
			if called {
				t.Error("the condition was asked")
			}
			after, err := Snapshot(m, "/")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(before, after) {
				t.Errorf("the tree changed:\n%v\n%v", before, after)
			}
			if f, d := m.Syncs(); f != files || d != dirs {
				t.Errorf("syncs %d, %d; want %d, %d", f, d, files, dirs)
			}
		})
	}
	// And the common cases are its own.
	m := NewMemFS(MemOptions{})
	if err := m.MkdirAll("/d", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/d/f", "/d/f", "/d/" + long[:len(long)-1], "/d/.f.lock"} {
		if done, replaced := m.replaceInPlace(name, []byte("new"), 0o644, nil); !done || !replaced {
			t.Errorf("replaceInPlace(%q) = %v, %v; want true, true", name, done, replaced)
		}
	}
}
