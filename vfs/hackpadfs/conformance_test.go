package hackpadfs_test

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	hpfs "github.com/hack-pad/hackpadfs"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/hackpadfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// TestConformanceThroughAdapter runs the vfs conformance suite on a MemFS
// seen through the adapter, and seen back as a vfs FS by [back]: every
// call the suite makes goes through the adapter's name mapping, flags and
// error translation. Checks that need what hackpadfs cannot express are
// skipped, with the reason.
func TestConformanceThroughAdapter(t *testing.T) {
	t.Parallel()
	// hackpadfs names are io/fs names: no trailing slash, no empty, "."
	// or ".." component (EINVAL). The name checks pad names with slashes.
	const unclean = "the check uses a name that is not an io/fs name"
	skips := map[string]string{
		"sym.removeall_no_follow": unclean,
		"name.trailing_slash":     unclean,
		"name.path_max":           unclean,
		"name.path_max_all":       unclean,
		"name.path_max_target":    unclean,
	}
	vfstest.RunSkipping(t, skips, func(t *testing.T) vfs.ReadWriteFS {
		mem := vfs.NewMemFS(vfs.MemOptions{})
		return &back{h: hackpadfs.New(mem, "/"), under: mem}
	})
}

// back presents an adapter made by hackpadfs.New(under, "/") as a vfs FS
// again: the vfs name "/a/b" is the hackpadfs name "a/b", and errors name
// the caller's vfs names again. ReadLink, which hackpadfs has no interface
// for, reads the wrapped FS directly.
type back struct {
	h     *hackpadfs.FS
	under vfs.ReadLinkFS
}

var _ vfs.ReadWriteFS = (*back)(nil)

// hname maps a vfs name to the adapter's name: "/" is ".", and every
// other name loses its leading slash (an unclean remainder is left for the
// adapter to refuse).
func hname(name string) string {
	if name == "/" {
		return "."
	}
	return strings.TrimPrefix(name, "/")
}

// fixErr puts the caller's vfs names back into an error of the adapter.
func fixErr(err error, names ...string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: names[0], Err: pe.Err}
	}
	var le *hpfs.LinkError
	if errors.As(err, &le) {
		return &os.LinkError{Op: le.Op, Old: names[0], New: names[len(names)-1], Err: le.Err}
	}
	return err
}

func (b *back) Open(name string) (fs.File, error) {
	f, err := b.h.Open(hname(name))
	return f, fixErr(err, name)
}

func (b *back) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := b.h.OpenFile(hname(name), flag, perm)
	if err != nil {
		return nil, fixErr(err, name)
	}
	return f.(vfs.File), nil
}

func (b *back) Stat(name string) (fs.FileInfo, error) {
	fi, err := b.h.Stat(hname(name))
	return fi, fixErr(err, name)
}

func (b *back) Lstat(name string) (fs.FileInfo, error) {
	fi, err := b.h.Lstat(hname(name))
	return fi, fixErr(err, name)
}

func (b *back) ReadFile(name string) ([]byte, error) {
	data, err := b.h.ReadFile(hname(name))
	return data, fixErr(err, name)
}

func (b *back) ReadDir(name string) ([]fs.DirEntry, error) {
	list, err := b.h.ReadDir(hname(name))
	return list, fixErr(err, name)
}

func (b *back) ReadLink(name string) (string, error) {
	if !fs.ValidPath(hname(name)) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: hpfs.ErrInvalid}
	}
	t, err := b.under.ReadLink(name)
	return t, fixErr(err, name)
}

func (b *back) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return fixErr(b.h.WriteFile(hname(name), data, perm), name)
}

func (b *back) Mkdir(name string, perm fs.FileMode) error {
	return fixErr(b.h.Mkdir(hname(name), perm), name)
}

func (b *back) MkdirAll(name string, perm fs.FileMode) error {
	return fixErr(b.h.MkdirAll(hname(name), perm), name)
}

func (b *back) Remove(name string) error { return fixErr(b.h.Remove(hname(name)), name) }

func (b *back) RemoveAll(name string) error { return fixErr(b.h.RemoveAll(hname(name)), name) }

func (b *back) Rename(oldname, newname string) error {
	return fixErr(b.h.Rename(hname(oldname), hname(newname)), oldname, newname)
}

func (b *back) Symlink(oldname, newname string) error {
	return fixErr(b.h.Symlink(oldname, hname(newname)), oldname, newname)
}

func (b *back) Chmod(name string, mode fs.FileMode) error {
	return fixErr(b.h.Chmod(hname(name), mode), name)
}

func (b *back) Chtimes(name string, atime, mtime time.Time) error {
	return fixErr(b.h.Chtimes(hname(name), atime, mtime), name)
}

// SyncDir opens the directory through the hackpadfs view and syncs it,
// as a program written against hackpadfs would.
func (b *back) SyncDir(name string) error {
	f, err := b.h.Open(hname(name))
	if err != nil {
		return fixErr(err, name)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return fixErr(err, name)
	} else if !fi.IsDir() {
		return &fs.PathError{Op: "sync", Path: name, Err: vfs.ErrNotDir}
	}
	return fixErr(vfs.Sync(f), name)
}
