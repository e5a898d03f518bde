package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
)

func TestCauseAndWithNames(t *testing.T) {
	t.Parallel()
	plain := errors.New("plain")
	tests := []struct {
		name  string
		err   error
		cause error
		named string // WithNames(err, strings.ToUpper).Error()
	}{
		{name: "path error", err: &fs.PathError{Op: "stat", Path: "/a", Err: vfs.ErrNotDir}, cause: vfs.ErrNotDir, named: "stat /A: not a directory"},
		{name: "wrapped path error", err: fmt.Errorf("load: %w", &fs.PathError{Op: "open", Path: "/b", Err: fs.ErrNotExist}), cause: fs.ErrNotExist, named: "open /B: file does not exist"},
		{name: "link error", err: &os.LinkError{Op: "rename", Old: "/o", New: "/n", Err: vfs.ErrIsDir}, cause: vfs.ErrIsDir, named: "rename /O /N: is a directory"},
		{name: "other error", err: plain, cause: plain, named: "plain"},
		{name: "nil", err: nil, cause: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := vfs.Cause(tt.err); got != tt.cause {
				t.Errorf("Cause = %v, want %v", got, tt.cause)
			}
			got := vfs.WithNames(tt.err, strings.ToUpper)
			if tt.err == nil {
				if got != nil {
					t.Errorf("WithNames(nil) = %v, want nil", got)
				}
				return
			}
			if d := cmp.Diff(tt.named, got.Error()); d != "" {
				t.Errorf("WithNames (-want +got):\n%s", d)
			}
			if !errors.Is(got, tt.cause) {
				t.Errorf("WithNames(%v) = %v, which no longer wraps %v", tt.err, got, tt.cause)
			}
		})
	}
}
