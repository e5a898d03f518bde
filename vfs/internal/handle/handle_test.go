package handle_test

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs/internal/handle"
)

func TestSeek(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		cur, offset    int64
		whence         int
		want           int64
		wantErr        error
		wantSizeCalled bool
	}{
		{name: "start", cur: 3, offset: 2, whence: io.SeekStart, want: 2},
		{name: "current", cur: 3, offset: 2, whence: io.SeekCurrent, want: 5},
		{name: "current backwards to 0", cur: 3, offset: -3, whence: io.SeekCurrent, want: 0},
		{name: "end", cur: 1, offset: -4, whence: io.SeekEnd, want: 6, wantSizeCalled: true},
		{name: "past the end", cur: 1, offset: 5, whence: io.SeekEnd, want: 15, wantSizeCalled: true},
		{name: "before the start", cur: 3, offset: -4, whence: io.SeekCurrent, wantErr: syscall.EINVAL},
		{name: "unknown whence", cur: 3, offset: 0, whence: 3, wantErr: syscall.EINVAL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			called := false
			got, err := handle.Seek(tt.cur, tt.offset, tt.whence, func() int64 { called = true; return 10 })
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Seek = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Seek = %d, want %d", got, tt.want)
			}
			if called != tt.wantSizeCalled {
				t.Errorf("size called: %v, want %v", called, tt.wantSizeCalled)
			}
		})
	}
}

func TestReadAt(t *testing.T) {
	t.Parallel()
	data := []byte("hello")
	tests := []struct {
		name    string
		n       int
		off     int64
		want    string
		wantErr error
	}{
		{name: "inside", n: 3, off: 1, want: "ell"},
		{name: "short at the end", n: 4, off: 3, want: "lo"},
		{name: "at the end", n: 1, off: 5, wantErr: io.EOF},
		{name: "past the end", n: 1, off: 9, wantErr: io.EOF},
		{name: "empty at the end", n: 0, off: 5},
		{name: "empty inside", n: 0, off: 2},
	}
	for _, tt := range tests {
		p := make([]byte, tt.n)
		n, err := handle.ReadAt(p, data, tt.off)
		if err != tt.wantErr || string(p[:n]) != tt.want {
			t.Errorf("%s: ReadAt = %q, %v; want %q, %v", tt.name, p[:n], err, tt.want, tt.wantErr)
		}
	}
}

func TestReadDir(t *testing.T) {
	t.Parallel()
	entries, err := fs.ReadDir(fstest.MapFS{"a": {}, "b": {}, "c": {}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	names := func(list []fs.DirEntry) []string {
		out := []string{}
		for _, e := range list {
			out = append(out, e.Name())
		}
		return out
	}
	type step struct {
		count   int
		want    []string
		wantErr error
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{name: "all at once, then an empty list", steps: []step{{count: 0, want: []string{"a", "b", "c"}}, {count: -1, want: []string{}}}},
		{name: "pages, then EOF", steps: []step{{count: 2, want: []string{"a", "b"}}, {count: 2, want: []string{"c"}}, {count: 1, want: []string{}, wantErr: io.EOF}}},
		{name: "a page, then the rest", steps: []step{{count: 1, want: []string{"a"}}, {count: 0, want: []string{"b", "c"}}}},
	}
	for _, tt := range tests {
		rest := entries
		for i, s := range tt.steps {
			list, err := handle.ReadDir(&rest, s.count)
			if err != s.wantErr || list == nil && s.wantErr == nil {
				t.Errorf("%s: step %d: ReadDir(%d) = %v, %v; want a list and %v", tt.name, i, s.count, list, err, s.wantErr)
			}
			if diff := cmp.Diff(s.want, names(list)); diff != "" {
				t.Errorf("%s: step %d: ReadDir(%d) (-want +got):\n%s", tt.name, i, s.count, diff)
			}
		}
	}
	var empty []fs.DirEntry
	if list, err := handle.ReadDir(&empty, 0); list == nil || len(list) != 0 || err != nil {
		t.Errorf("ReadDir of a nil listing = %#v, %v; want an empty, non-nil list", list, err)
	}
	full := entries
	if list, _ := handle.ReadDir(&full, 2); cap(list) != 2 {
		t.Errorf("a page has capacity %d, want 2: appending to it must not overwrite the rest", cap(list))
	}
}
