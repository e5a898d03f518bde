package vfs_test

import (
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// chmodHookFS is a MemFS that runs hook once, before the first Chmod of
// a temporary file (".<base>.<digits>.tmp"): the moment a ReplaceFile has
// its temporary file written and not yet renamed. A Lock that has to wait
// says so (vfstest.LockWaits).
type chmodHookFS struct {
	*vfstest.LockWaits
	fired atomic.Bool
	hook  func()
}

func (f *chmodHookFS) Chmod(name string, mode fs.FileMode) error {
	if strings.HasSuffix(name, ".tmp") && f.fired.CompareAndSwap(false, true) {
		f.hook()
	}
	return f.MemFS.Chmod(name, mode)
}

// TestReplaceFileConcurrent: a second session replaces the same file
// while the first one's temporary file is written and not yet renamed.
// Both must succeed and the file end as one of them wrote it: without the
// replacement's lock, the second takes the first one's temporary file for
// one a killed process left, removes it, and the first one fails.
func TestReplaceFileConcurrent(t *testing.T) {
	t.Parallel()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	if err := mem.MkdirAll("/d", 0o755); err != nil {
		t.Fatal(err)
	}
	f := &chmodHookFS{LockWaits: vfstest.NewLockWaits(mem)}
	second := make(chan error, 1)
	f.hook = func() {
		go func() { second <- vfs.ReplaceFile(f, "/d/f", []byte("second"), 0o644) }()
		select {
		case <-f.Waiting():
		case err := <-second:
			second <- err
		}
	}
	if err := vfs.ReplaceFile(f, "/d/f", []byte("first"), 0o644); err != nil {
		t.Errorf("first ReplaceFile: %v", err)
	}
	if err := <-second; err != nil {
		t.Errorf("second ReplaceFile: %v", err)
	}
	if !f.fired.Load() {
		t.Fatal("precondition: ReplaceFile never changed the mode of a temporary file")
	}
	data, err := mem.ReadFile("/d/f")
	if err != nil || (string(data) != "first" && string(data) != "second") {
		t.Errorf("/d/f = %q, %v; want one writer's content whole", data, err)
	}
	if list, _ := mem.ReadDir("/d"); len(list) != 1 {
		t.Errorf("/d holds %v, want the file alone", list)
	}
}
