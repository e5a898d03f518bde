package faultfs_test

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// powerFS returns a tracked FS over a MemFS holding d/old.
func powerFS(t *testing.T, order faultfs.Ordering) *faultfs.FS {
	t.Helper()
	f := faultfs.New(vfstest.MemWith(t, "/", vfstest.Tree{"d/old": vfstest.File("O")}))
	if err := f.TrackDurability(order); err != nil {
		t.Fatal(err)
	}
	return f
}

// files returns the regular files of a disk tree and their text.
func files(t vfs.Tree) map[string]string {
	out := map[string]string{}
	for p, e := range t {
		if e.Type == vfs.TypeFile {
			out[p] = string(e.Data)
		}
	}
	return out
}

func create(t *testing.T, f *faultfs.FS, name, text string, sync bool) {
	t.Helper()
	fl, err := f.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if sync {
		if err := vfs.Sync(fl); err != nil {
			t.Fatal(err)
		}
	}
	if err := fl.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestPowerCutSynced(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(t *testing.T, f *faultfs.FS)
		want map[string]string
	}{
		{name: "nothing synced", run: func(t *testing.T, f *faultfs.FS) {
			create(t, f, "/d/new", "N", false)
			_ = f.WriteFile("/d/old", []byte("changed"), 0o644)
		}, want: map[string]string{"d/old": "O"}},
		{name: "file synced, directory not: no name", run: func(t *testing.T, f *faultfs.FS) {
			create(t, f, "/d/new", "N", true)
		}, want: map[string]string{"d/old": "O"}},
		{name: "directory synced, file not: empty", run: func(t *testing.T, f *faultfs.FS) {
			create(t, f, "/d/new", "N", false)
			_ = f.SyncDir("/d")
		}, want: map[string]string{"d/old": "O", "d/new": ""}},
		{name: "both synced", run: func(t *testing.T, f *faultfs.FS) {
			create(t, f, "/d/new", "N", true)
			_ = f.SyncDir("/d")
		}, want: map[string]string{"d/old": "O", "d/new": "N"}},
		{name: "rename synced", run: func(t *testing.T, f *faultfs.FS) {
			create(t, f, "/d/tmp", "N", true)
			_ = f.Rename("/d/tmp", "/d/old")
			_ = f.SyncDir("/d")
		}, want: map[string]string{"d/old": "N"}},
		{name: "in place rewrite synced", run: func(t *testing.T, f *faultfs.FS) {
			create(t, f, "/d/old", "X", true)
		}, want: map[string]string{"d/old": "X"}},
		{name: "new directory needs its parent synced", run: func(t *testing.T, f *faultfs.FS) {
			_ = f.Mkdir("/d/sub", 0o755)
			create(t, f, "/d/sub/x", "X", true)
			_ = f.SyncDir("/d/sub")
		}, want: map[string]string{"d/old": "O"}},
		{name: "new directory synced down from its parent", run: func(t *testing.T, f *faultfs.FS) {
			_ = f.Mkdir("/d/sub", 0o755)
			create(t, f, "/d/sub/x", "X", true)
			_ = f.SyncDir("/d/sub")
			_ = f.SyncDir("/d")
		}, want: map[string]string{"d/old": "O", "d/sub/x": "X"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := powerFS(t, faultfs.OrderSynced)
			tt.run(t, f)
			disk, err := f.PowerCut()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, files(disk)); d != "" {
				t.Errorf("disk (-want +got):\n%s", d)
			}
			all, err := f.PowerCuts()
			if err != nil || len(all) != 1 {
				t.Errorf("PowerCuts under the synced ordering = %d trees, %v; want the one", len(all), err)
			}
		})
	}
}

// TestPowerCutJournal: under the journal ordering each prefix of the
// unsynced metadata changes may be on the disk, but no unsynced data: a
// rename over a file before its data was synced can leave it empty.
func TestPowerCutJournal(t *testing.T) {
	t.Parallel()
	f := powerFS(t, faultfs.OrderJournal)
	create(t, f, "/d/tmp", "N", false)
	if err := f.Rename("/d/tmp", "/d/old"); err != nil {
		t.Fatal(err)
	}
	disks, err := f.PowerCuts()
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]string
	for _, d := range disks {
		got = append(got, files(d))
	}
	want := []map[string]string{
		{"d/old": "O"},
		{"d/old": "O", "d/tmp": ""},
		{"d/old": ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("disks (-want +got):\n%s", d)
	}
}

func TestPowerCutErrors(t *testing.T) {
	t.Parallel()
	if _, err := faultfs.New(vfstest.NewMem(t)).PowerCut(); err == nil {
		t.Error("PowerCut without TrackDurability succeeded")
	}
	if err := faultfs.New(vfstest.NewMem(t)).TrackDurability("eventual"); err == nil {
		t.Error("TrackDurability of an unknown ordering succeeded")
	}
	// A sync a rule fails commits nothing.
	f := faultfs.New(vfstest.MemWith(t, "/", vfstest.Tree{"d": vfstest.Dir()}), faultfs.OnNthOf(faultfs.KindSyncDir, 1, vfs.ErrIO))
	if err := f.TrackDurability(faultfs.OrderSynced); err != nil {
		t.Fatal(err)
	}
	create(t, f, "/d/x", "X", true)
	if err := f.SyncDir("/d"); !errors.Is(err, vfs.ErrIO) {
		t.Fatalf("SyncDir = %v, want the injected EIO", err)
	}
	disk, err := f.PowerCut()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := disk["d/x"]; ok {
		t.Error("a failed SyncDir committed the directory")
	}
}

// TestSyncErrorShape: a rule fails a file's Sync and SyncDir as fsync
// fails, an *fs.PathError with Op "sync" naming the file, and logs them.
func TestSyncErrorShape(t *testing.T) {
	t.Parallel()
	for _, kind := range []faultfs.Kind{faultfs.KindSync, faultfs.KindSyncDir} {
		f := faultfs.New(vfstest.MemWith(t, "/", vfstest.Tree{"d/f": vfstest.File("F")}), faultfs.OnNthOf(kind, 1, vfs.ErrIO))
		var err error
		if kind == faultfs.KindSync {
			fl, oerr := f.OpenFile("/d/f", os.O_WRONLY, 0)
			if oerr != nil {
				t.Fatal(oerr)
			}
			err = vfs.Sync(fl)
			_ = fl.Close()
		} else {
			err = f.SyncDir("/d")
		}
		var pe *fs.PathError
		if !errors.Is(err, vfs.ErrIO) || !errors.As(err, &pe) || pe.Op != "sync" {
			t.Errorf("%s: %v, want a sync *fs.PathError wrapping EIO", kind, err)
		}
		if inj := f.Injected(); len(inj) != 1 || inj[0].Kind != kind || inj[0].Mutates {
			t.Errorf("%s: Injected() = %+v, want the one non-mutating %s", kind, inj, kind)
		}
	}
}

// TestPowerCutFollowsHandles: a file synced after a rename is found
// through its handle when the handle can be read, and the model refuses
// to guess (PowerCut fails) when it cannot.
func TestPowerCutFollowsHandles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		flag int
		lost bool
	}{{flag: os.O_RDWR}, {flag: os.O_WRONLY, lost: true}} {
		f := powerFS(t, faultfs.OrderSynced)
		fl, err := f.OpenFile("/d/tmp", c.flag|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fl.Write([]byte("N")); err != nil {
			t.Fatal(err)
		}
		if err := f.Rename("/d/tmp", "/d/old"); err != nil {
			t.Fatal(err)
		}
		if err := vfs.Sync(fl); err != nil {
			t.Fatal(err)
		}
		_ = fl.Close()
		if err := f.SyncDir("/d"); err != nil {
			t.Fatal(err)
		}
		disk, err := f.PowerCut()
		switch {
		case c.lost && err == nil:
			t.Errorf("flag %#x: PowerCut = %q, want an error: the synced data could not be read", c.flag, disk["d/old"].Data)
		case !c.lost && err != nil:
			t.Errorf("flag %#x: PowerCut: %v", c.flag, err)
		case !c.lost && string(disk["d/old"].Data) != "N":
			t.Errorf("flag %#x: d/old = %q on the disk, want the synced N", c.flag, disk["d/old"].Data)
		}
	}
}
