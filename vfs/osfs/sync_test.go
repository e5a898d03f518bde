package osfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// TestSyncDir syncs directories of the host FS and of a rooted one, and
// fails as opening them would for a file, a missing name and a relative
// name.
func TestSyncDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(dir, "ld")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		fsys   *osfs.FS
		prefix string
	}{
		{name: "host", fsys: osfs.New(), prefix: filepath.ToSlash(dir)},
		{name: "rooted", fsys: osfs.NewRooted(dir), prefix: ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, d := range []string{c.prefix + "/d", c.prefix + "/ld", c.prefix + "/"} {
				if err := c.fsys.SyncDir(d); err != nil {
					t.Errorf("SyncDir(%s) = %v", d, err)
				}
			}
			for _, tt := range []struct {
				name string
				want error
			}{
				{name: c.prefix + "/f", want: vfs.ErrNotDir},
				{name: c.prefix + "/missing", want: fs.ErrNotExist},
				{name: "relative", want: fs.ErrInvalid},
			} {
				err := c.fsys.SyncDir(tt.name)
				var pe *fs.PathError
				if !errors.Is(err, tt.want) || !errors.As(err, &pe) || pe.Op != "sync" || pe.Path != tt.name {
					t.Errorf("SyncDir(%s) = %v, want an *fs.PathError (sync, the name) wrapping %v", tt.name, err, tt.want)
				}
			}
		})
	}
}

// TestReplaceFileSyncsOnOS writes through ReplaceFile on a rooted FS and
// leaves no temporary file, a stray one from an earlier kill included.
func TestReplaceFileSyncsOnOS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := osfs.NewRooted(dir)
	if err := os.WriteFile(filepath.Join(dir, ".auth.json.123.tmp"), []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := vfs.ReplaceFile(fsys, "/auth.json", []byte(`{"k":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name() != "auth.json" {
		t.Errorf("directory holds %v, want auth.json alone", list)
	}
}
