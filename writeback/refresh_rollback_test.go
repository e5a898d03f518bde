package writeback_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// refreshedFiles is a refresh that rewrites a generated file, replaces
// the settings.json link by a reconciled file, and writes a new file two
// new directories down (a rollback removes both).
var refreshedFiles = files(
	composite.File{RelativePath: "outfitter/profile.json", Content: `{"id":"default","label":"New"}` + "\n"},
	composite.File{RelativePath: "settings.json", Content: `{"theme":"dark"}` + "\n"},
	composite.File{RelativePath: "outfitter/new/deeper/deep.json", Content: "{}\n"},
)

// afterWrite returns a predicate that selects the operations of kind on
// name once name has been written (the re-fingerprinting's reads).
func afterWrite(kind faultfs.Kind, name string) func(faultfs.Op) bool {
	written := false
	return func(op faultfs.Op) bool {
		if op.Path == name && op.Kind == faultfs.KindWriteFile {
			written = true
			return false
		}
		return written && op.Kind == kind && op.Path == name
	}
}

// TestRefreshRollsBackWhenTheBaselineFails: when re-fingerprinting fails
// after the new files were written, the caller keeps its old baseline and
// would blame the agent for the refresh's own writes (a replaced link,
// undeclared files); so the refresh is rolled back, and the composite
// matches the old baseline again.
func TestRefreshRollsBackWhenTheBaselineFails(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	before := vfstest.Snapshot(t, fsys, "/")
	ffs := faultfs.New(fsys, faultfs.When(afterWrite(faultfs.KindReadFile, root+"/outfitter/new/deeper/deep.json"), vfs.ErrIO))
	_, err := writeback.Refresh(ffs, root, baseline, paths, "w", refreshedFiles)
	var re *writeback.RefreshError
	if !errors.As(err, &re) || !errors.Is(err, vfs.ErrIO) {
		t.Fatalf("Refresh = %v, want a *RefreshError wrapping the injected EIO", err)
	}
	if len(ffs.Injected()) == 0 {
		t.Fatalf("precondition: no read of the written file failed")
	}
	vfstest.WantUnchanged(t, fsys, "/", before, "machine after the failed refresh")
	issues, err := writeback.Detect(fsys, root, paths, baseline)
	must(t, err)
	if len(issues) != 0 {
		t.Errorf("issues against the kept baseline = %v, want none", issues)
	}
}

// TestRefreshRollbackFailureIsReported: when the disk fails again while
// the refresh is rolled back, the error names the rollback too.
func TestRefreshRollbackFailureIsReported(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	profile := root + "/outfitter/profile.json"
	ffs := faultfs.New(fsys,
		faultfs.When(afterWrite(faultfs.KindReadFile, profile), vfs.ErrIO),
		faultfs.OnNthOf(faultfs.KindWriteFile, 2, vfs.ErrNoSpace).If(func(op faultfs.Op) bool { return op.Path == profile }),
	)
	_, err := writeback.Refresh(ffs, root, baseline, paths, "w", refreshedFiles)
	if !errors.Is(err, vfs.ErrIO) || !errors.Is(err, vfs.ErrNoSpace) || !strings.Contains(err.Error(), "rollback of outfitter/profile.json") {
		t.Fatalf("Refresh = %v, want the EIO and the rollback's ENOSPC", err)
	}
}

// TestRefreshAtEveryFailurePoint: whichever single operation of a refresh
// fails, either the refresh succeeds and its new baseline describes the
// composite, or it fails and the machine is as it was, so that the old
// baseline does.
func TestRefreshAtEveryFailurePoint(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := liveRun(t)
	counter := faultfs.New(fsys)
	if _, err := writeback.Refresh(counter, root, baseline, paths, "w", refreshedFiles); err != nil {
		t.Fatal(err)
	}
	total := counter.Count()
	t.Logf("%d operations, each a failure point", total)
	if total < 10 {
		t.Fatalf("precondition: the refresh took %d operations", total)
	}
	for n := 1; n <= total; n++ {
		fsys, paths, baseline := liveRun(t)
		before := vfstest.Snapshot(t, fsys, "/")
		r, err := writeback.Refresh(faultfs.New(fsys, faultfs.OnNth(n, vfs.ErrIO)), root, baseline, paths, "w", refreshedFiles)
		if err == nil {
			paths, baseline = r.StatePaths, r.Baseline
		} else {
			vfstest.WantUnchanged(t, fsys, "/", before, fmt.Sprintf("operation %d failed (%v); machine after", n, err))
		}
		issues, derr := writeback.Detect(fsys, root, paths, baseline)
		must(t, derr)
		if len(issues) != 0 {
			t.Errorf("operation %d failed (refresh error %v); issues against the caller's baseline = %v, want none", n, err, issues)
		}
	}
}
