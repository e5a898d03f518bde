package writeback_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// interleaveFS is a MemFS that runs hook once, in the goroutine of the
// first ReadFile of name, right after that read: the moment another
// session's write does the most harm to a read-modify-write. A Lock that
// has to wait says so (vfstest.LockWaits), so the hook can tell a second
// session that waits for the lock from one that finished.
type interleaveFS struct {
	*vfstest.LockWaits
	name  string
	fired atomic.Bool
	hook  func()
}

func (f *interleaveFS) ReadFile(name string) ([]byte, error) {
	data, err := f.MemFS.ReadFile(name)
	if name == f.name && f.fired.CompareAndSwap(false, true) {
		f.hook()
	}
	return data, err
}

// TestRecordConcurrentAnswers: two sessions answer "always" for different
// state paths at once; the second Record runs right after the first one
// has read the profile file. Both entries must end in the profile:
// without a lock the first Record renames its edit, made from what it
// read before the second one wrote, over the second one's, and that
// answer is lost.
func TestRecordConcurrentAnswers(t *testing.T) {
	t.Parallel()
	for _, link := range []bool{false, true} {
		mem, real := profileMachine(t, link)
		f := &interleaveFS{LockWaits: vfstest.NewLockWaits(mem), name: profileFile}
		second := make(chan error, 1)
		f.hook = func() {
			go func() { second <- writeback.Record(f, profileFile, "settings.json") }()
			// Wait until the second Record has finished or waits for
			// the lock the first one holds.
			select {
			case <-f.Waiting():
			case err := <-second:
				second <- err
			}
		}
		if err := writeback.Record(f, profileFile, "mcp.json"); err != nil {
			t.Fatalf("first Record: %v", err)
		}
		if err := <-second; err != nil {
			t.Fatalf("second Record: %v", err)
		}
		if !f.fired.Load() {
			t.Fatalf("precondition: Record never read %s, the second session never ran", profileFile)
		}
		data, err := mem.ReadFile(real)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"mcp.json: symlink", "settings.json: symlink"} {
			if !strings.Contains(string(data), key) {
				t.Errorf("link %v: profile lost the answer %q of a concurrent session:\n%s", link, key, data)
			}
		}
		if got := dirNames(t, mem, real); got != "profile.yml" && got != "eng.yml" {
			t.Errorf("link %v: the profile's directory holds %q, want the profile file alone (no lock file left)", link, got)
		}
	}
}

// dirNames lists the directory of name, the names joined by spaces.
func dirNames(t *testing.T, mem *vfs.MemFS, name string) string {
	t.Helper()
	list, err := mem.ReadDir(name[:strings.LastIndexByte(name, '/')])
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}
