package writeback_test

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// The profile file Record edits in these tests, and its document before
// and after recording mcp.json.
const (
	profileFile     = home + "/.outfitter/profiles/eng/profile.yml"
	profileBefore   = "id: eng\ndescription: a profile long enough to be cut in the middle of a value\n"
	profileRecorded = profileBefore + "state_persistence:\n  mcp.json: symlink\n"
)

// profileMachine is a machine holding the profile file with mode 0600,
// and, when link is set, the profile file is a link to a dotfiles copy.
func profileMachine(t *testing.T, link bool) (*vfs.MemFS, string) {
	t.Helper()
	mem := vfs.NewMemFS(vfs.MemOptions{})
	real := profileFile
	if link {
		real = home + "/dotfiles/eng.yml"
		put(t, mem, "/", map[string]string{profileFile[1:]: "-> ../../../dotfiles/eng.yml"})
	}
	put(t, mem, "/", map[string]string{real[1:]: profileBefore})
	must(t, mem.Chmod(real, 0o600))
	return mem, real
}

// checkProfileWhole checks that the profile file holds the old or the new
// document, whole, with mode 0600, and returns whether it is the new one.
func checkProfileWhole(t *testing.T, mem *vfs.MemFS, real, context string) bool {
	t.Helper()
	data, err := mem.ReadFile(real)
	if err != nil {
		t.Errorf("%s: profile file: %v", context, err)
		return false
	}
	if s := string(data); s != profileBefore && s != profileRecorded {
		t.Errorf("%s: profile file = %q, want the old or the new document whole", context, s)
	}
	if fi, err := mem.Stat(real); err != nil || fi.Mode() != 0o600 {
		t.Errorf("%s: profile file mode %v, %v; want -rw------- kept", context, fi.Mode(), err)
	}
	if fi, err := mem.Lstat(profileFile); err != nil || (real != profileFile) != (fi.Mode()&fs.ModeSymlink != 0) {
		t.Errorf("%s: profile file entry %v, %v; want it to stay what it was (a link or the file)", context, fi.Mode(), err)
	}
	return string(data) == profileRecorded
}

// TestRecordAtEveryCrashPoint: the "always" answer must not edit
// profile.yml in place, where an interruption between the truncation and
// the write would leave it empty. For every crash point the
// file must hold the old or the new document, whole, and keep its mode.
func TestRecordAtEveryCrashPoint(t *testing.T) {
	t.Parallel()
	for _, link := range []bool{false, true} {
		mem, real := profileMachine(t, link)
		counter := faultfs.New(mem)
		must(t, writeback.Record(counter, profileFile, "mcp.json"))
		if !checkProfileWhole(t, mem, real, "no crash") {
			t.Fatalf("precondition: Record did not write the new document")
		}
		total := counter.Count()
		t.Logf("%d operations, each a failure point", total)
		for n := 0; n < total; n++ {
			for _, torn := range []int64{0, 10} {
				mem, real := profileMachine(t, link)
				err := writeback.Record(faultfs.New(mem, faultfs.CrashAfter(n, torn, vfs.ErrIO)), profileFile, "mcp.json")
				if !errors.Is(err, vfs.ErrIO) {
					t.Errorf("crash after %d of %d operations: Record = %v, want the crash's EIO", n, total, err)
				}
				checkProfileWhole(t, mem, real, fmt.Sprintf("link %v, crash after %d (torn %d)", link, n, torn))
			}
		}
	}
}

// TestRecordOnAFullDisk: a write cut short leaves the profile file whole
// and no temporary file beside it.
func TestRecordOnAFullDisk(t *testing.T) {
	t.Parallel()
	mem, real := profileMachine(t, false)
	fsys := faultfs.New(mem, faultfs.ShortWrite(int64(len(profileBefore))+5, vfs.ErrNoSpace))
	err := writeback.Record(fsys, profileFile, "mcp.json")
	if !errors.Is(err, vfs.ErrNoSpace) {
		t.Fatalf("Record = %v, want ENOSPC", err)
	}
	if checkProfileWhole(t, mem, real, "full disk") {
		t.Errorf("full disk: the new document was written")
	}
	if got := vfstest.Snapshot(t, mem, home+"/.outfitter/profiles/eng").Paths(); !slices.Equal(got, []string{"profile.yml"}) {
		t.Errorf("profile folder holds %q, want profile.yml alone", got)
	}
}
