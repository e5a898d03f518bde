package vfstest_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// WriteFiles adds to a tree: existing directories keep their mode, an
// existing file is replaced, missing parents are created; a file that
// cannot be written stops the test.
func TestWriteFiles(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{
		"h/keep":   vfstest.File("kept"),
		"h/old":    vfstest.File("old"),
		"h/secret": vfstest.Dir().WithMode(0o700),
	})
	vfstest.WriteFiles(t, m, "/h", map[string]string{"old": "new", "secret/a/b": "B", "c": ""})
	got := vfstest.Snapshot(t, m, "/h")
	want := vfstest.Tree{
		"keep":       vfstest.File("kept"),
		"old":        vfstest.File("new"),
		"secret":     vfstest.Dir().WithMode(0o700),
		"secret/a/b": vfstest.File("B"),
		"c":          vfstest.File(""),
	}.Entries(t)
	if diff := cmp.Diff(want.Paths(), got.Paths()); diff != "" {
		t.Fatalf("paths (-want +got):\n%s", diff)
	}
	for p, e := range want {
		if !got[p].Equal(e) {
			t.Errorf("%s = %+v, want %+v", p, got[p], e)
		}
	}

	var rec recordTB
	vfstest.WriteFiles(&rec, m, "/h", map[string]string{"keep/x": "X"})
	if len(rec.fatals) != 1 || !strings.Contains(rec.fatals[0], "/h/keep/x") {
		t.Errorf("WriteFiles below a file reported %q; want one fatal naming /h/keep/x", rec.fatals)
	}
}

// EntryNames keeps a listing's names in its order.
func TestEntryNames(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"d/b": vfstest.File(""), "d/a": vfstest.Dir(), "d/c": vfstest.Link("a")})
	list, err := m.ReadDir("/d")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, vfstest.EntryNames(list)); diff != "" {
		t.Errorf("EntryNames (-want +got):\n%s", diff)
	}
}

// Snapshot stops the test when the root cannot be read.
func TestSnapshotFails(t *testing.T) {
	t.Parallel()
	var rec recordTB
	if got := vfstest.Snapshot(&rec, vfstest.NewMem(t), "/missing"); got != nil || len(rec.fatals) != 1 || !strings.Contains(rec.fatals[0], "/missing") {
		t.Errorf("Snapshot of a missing root = %v and reported %q; want nil and one fatal naming /missing", got, rec.fatals)
	}
}

// WantUnchanged passes a tree as it was and reports a changed one with its
// difference.
func TestWantUnchanged(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"h/a": vfstest.File("A")})
	before := vfstest.Snapshot(t, m, "/h")
	var same recordTB
	vfstest.WantUnchanged(&same, m, "/h", before, "changed")
	if len(same.errs)+len(same.fatals) != 0 {
		t.Errorf("WantUnchanged of an unchanged tree reported %q %q", same.errs, same.fatals)
	}
	vfstest.Must(t, "chmod", m.Chmod("/h/a", 0o600))
	var changed recordTB
	vfstest.WantUnchanged(&changed, m, "/h", before, "the mode changed")
	if len(changed.errs) != 1 || !strings.HasPrefix(changed.errs[0], "the mode changed (-before +after):\n") || !strings.Contains(changed.errs[0], "Mode") {
		t.Errorf("WantUnchanged of a chmod-ed file reported %q; want one error showing the mode", changed.errs)
	}
}
