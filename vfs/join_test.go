package vfs_test

import (
	"path"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"pgregory.net/rapid"
)

func TestJoin(t *testing.T) {
	t.Parallel()
	cases := []struct {
		dir  string
		elem []string
	}{
		{"/", nil},
		{"/", []string{"a"}},
		{"/home/u", []string{".pi", "agent", "settings.json"}},
		{"/home/u", []string{".pi/agent"}},
		{"/home/u", nil},
		{"", []string{"a", "b"}},
		{"", nil},
		{"rel/dir", []string{"a"}},
		{"/home/u/", []string{"a"}},
		{"/home//u", []string{"a"}},
		{"/home/u", []string{"a/"}},
		{"/home/u", []string{"../a"}},
		{"/home/u", []string{"/abs"}},
		{"/home/u", []string{""}},
		{"/home/u", []string{"a", "", "b"}},
		{"/home/./u", []string{"a"}},
		{"//", []string{"a"}},
	}
	for _, c := range cases {
		want := path.Join(append([]string{c.dir}, c.elem...)...)
		if got := vfs.Join(c.dir, c.elem...); got != want {
			t.Errorf("Join(%q, %q) = %q, want %q (path.Join)", c.dir, c.elem, got, want)
		}
	}
}

func TestPropJoinIsPathJoin(t *testing.T) {
	t.Parallel()
	part := rapid.SampledFrom([]string{"", "/", "a", "b", ".", "..", "a/b", "a/", "/a", "a//b", "./a", "..a", ".b"})
	rapid.Check(t, func(t *rapid.T) {
		dir := ""
		for _, p := range rapid.SliceOfN(part, 0, 4).Draw(t, "dir") {
			dir += p
		}
		elem := rapid.SliceOfN(part, 0, 4).Draw(t, "elem")
		want := path.Join(append([]string{dir}, elem...)...)
		if got := vfs.Join(dir, elem...); got != want {
			t.Fatalf("Join(%q, %q) = %q, want %q (path.Join)", dir, elem, got, want)
		}
	})
}

func TestJoinAllocations(t *testing.T) {
	dir, a, b := "/home/u", ".pi", "settings.json"
	// Not parallel: AllocsPerRun counts every goroutine's allocations; the
	// least of three runs leaves out a collector's stray one.
	least := 2.0
	for range 3 {
		least = min(least, testing.AllocsPerRun(100, func() { _ = vfs.Join(dir, a, b) }))
	}
	if least != 1 {
		t.Errorf("Join of a plain directory and names: %v allocations, want 1", least)
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/x", "/", true},
		{"/", "/", true},
		{"/b/a", "/a", false},
	}
	for _, tt := range tests {
		if got := vfs.Within(tt.p, tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.p, tt.dir, got, tt.want)
		}
	}
}
