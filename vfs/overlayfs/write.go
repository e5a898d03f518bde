package overlayfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

// --- copy-up -----------------------------------------------------------

// copyUp copies the lower entry e into the upper layer, whose parent
// directory must already be there and which must not hold e yet: a
// directory without its children, a file with its content (none with
// noData, for a caller that truncates it next), a link with its target;
// modes and modification times (except a link's, and an empty file's,
// which the truncation sets) are kept, and so is the parent's time. An
// upper entry is left alone.
func (f *FS) copyUp(e entry, noData bool) error {
	if e.upper {
		return nil
	}
	parent := path.Dir(e.path)
	pinfo, err := f.upper.Lstat(parent)
	if err != nil {
		return vfs.Cause(err)
	}
	mode := e.info.Mode()
	keepTime := mode&fs.ModeSymlink == 0
	switch {
	case mode.IsDir():
		err = f.upper.Mkdir(e.path, 0o700)
	case mode&fs.ModeSymlink != 0:
		var t string
		if t, err = vfs.ReadLink(f.lower, e.path); err == nil {
			err = f.upper.Symlink(t, e.path)
		}
	case mode.IsRegular():
		var data []byte
		if noData {
			keepTime = false
		} else {
			data, err = vfs.ReadFile(f.lower, e.path)
		}
		if err == nil {
			err = f.upper.WriteFile(e.path, data, 0o600)
		}
	default:
		return &unsupportedTypeError{name: e.path, mode: mode}
	}
	if err == nil && mode&fs.ModeSymlink == 0 {
		err = f.upper.Chmod(e.path, mode&modeBits)
	}
	if err == nil && keepTime {
		err = f.upper.Chtimes(e.path, time.Time{}, e.info.ModTime())
	}
	if err == nil {
		err = f.upper.Chtimes(parent, time.Time{}, pinfo.ModTime())
	}
	return vfs.Cause(err)
}

// unsupportedTypeError reports a lower entry that is neither a directory,
// a regular file nor a symbolic link, which the upper layer cannot hold.
type unsupportedTypeError struct {
	name string
	mode fs.FileMode
}

func (e *unsupportedTypeError) Error() string {
	return "cannot copy up " + e.name + ": unsupported file type " + e.mode.Type().String()
}

func (e *unsupportedTypeError) Unwrap() error { return errors.ErrUnsupported }

// materialize copies up every entry a resolution passed through, so that
// the upper layer resolves the same name the same way.
// An entry met twice is copied once: a resolution that passes through a
// lower entry sees it in the lower layer both times.
func (f *FS) materialize(touched []frame) error {
	for i, fr := range touched {
		if !fr.e.upper && !metBefore(touched[:i], fr.e.path) {
			if err := f.copyUp(fr.e, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// metBefore reports whether one of touched is at the canonical name p.
func metBefore(touched []frame, p string) bool {
	for _, fr := range touched {
		if fr.e.path == p {
			return true
		}
	}
	return false
}

// copyUpTree copies up the entry on top of stack and, for a directory,
// everything visible below it, so that the upper layer holds the whole
// subtree.
func (f *FS) copyUpTree(stack []frame) error {
	top := &stack[len(stack)-1]
	if err := f.copyUp(top.e, false); err != nil {
		return err
	}
	top.e.upper = true
	if !top.e.isDir() {
		return nil
	}
	low, err := f.lowerChildren(stack, -1)
	if err != nil {
		return err
	}
	for _, e := range low {
		fr := frame{e: e, lower: lowerShown}
		if fi, err := f.upper.Lstat(e.path); err == nil {
			fr = frame{e: entry{path: e.path, info: fi, upper: true}}
		}
		if err := f.copyUpTree(append(stack[:len(stack):len(stack)], fr)); err != nil {
			return err
		}
	}
	return nil
}

// lowerChildren returns up to limit (all if negative) lower children of
// the directory on top of stack that show through, in name order.
func (f *FS) lowerChildren(stack []frame, limit int) ([]entry, error) {
	ok, err := f.lowerShows(&stack[len(stack)-1])
	if err != nil || !ok {
		return nil, err
	}
	dir := stack[len(stack)-1].e.path
	low, err := vfs.ReadDir(f.lower, dir)
	if err != nil {
		return nil, vfs.Cause(err)
	}
	var out []entry
	for _, de := range low {
		if len(out) == limit {
			break
		}
		p := join(dir, de.Name())
		if f.hasWhiteout(p) {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			return nil, vfs.Cause(err)
		}
		out = append(out, entry{path: p, info: fi})
	}
	return out, nil
}

// witness makes sure that the upper copy of the directory on top of stack
// is not empty when the merged directory is not, by copying up one lower
// child: the upper layer then refuses to remove or replace it.
func (f *FS) witness(stack []frame) error {
	top := &stack[len(stack)-1]
	if list, err := f.upper.ReadDir(top.e.path); err != nil || len(list) > 0 {
		return vfs.Cause(err)
	}
	low, err := f.lowerChildren(stack, 1)
	if err != nil || len(low) == 0 {
		return err
	}
	// The upper directory is empty: the child is not there.
	return f.copyUp(low[0], false)
}

// How prepare treats the final entry of a name.
type finalCopy int

const (
	copyEntry   finalCopy = iota // copy it up (a directory without children)
	copyWitness                  // as copyEntry, and a directory gets a witness child
	copyTree                     // copy up its whole subtree
	copyTrunc                    // as copyEntry, but a file without its content: the caller truncates it
)

// prepare resolves name in the merged view and copies up what the upper
// layer needs to give the answer the merged view would give to the same
// call: every entry the resolution passes through, and the final entry as
// fc says. Errors of the resolution itself are left for the upper layer to
// report; the returned error is a failure of the lower layer (bare, for the
// caller to wrap).
//
// The result's stack is appended to stackBuf.
func (f *FS) prepare(name string, mode vfs.ResolveMode, fc finalCopy, stackBuf []frame) (walkResult, error) {
	if vfs.CheckName("", name) != nil {
		return walkResult{}, nil // the upper layer refuses the name before any lookup
	}
	var touchedBuf [stackRoom]frame
	res, touched, err := f.reach(name, mode, stackBuf, touchedBuf[:0])
	if err != nil || !res.exists {
		return res, err
	}
	top := &res.stack[len(res.stack)-1]
	if metBefore(touched, top.e.path) {
		top.e.upper = true // copied up above, or it was there
	}
	switch fc {
	case copyTree:
		err = f.copyUpTree(res.stack)
	default:
		err = f.copyUp(top.e, fc == copyTrunc)
		top.e.upper = true
		if err == nil && fc == copyWitness && top.e.isDir() {
			err = f.witness(res.stack)
		}
	}
	return res, err
}

// reach is the part of [FS.prepare] that does not depend on the final
// entry: it resolves name and copies up every entry the resolution passes
// through. It returns the resolution, also with the entries passed through
// appended to touched; a resolution that fails is left for the upper layer
// to report (the result is then empty), and the returned error is a
// failure of the lower layer.
func (f *FS) reach(name string, mode vfs.ResolveMode, stackBuf, touched []frame) (walkResult, []frame, error) {
	res, touched, werr := f.walkRecord(name, mode, stackBuf, touched)
	if err := f.materialize(touched); err != nil {
		return walkResult{}, touched, err
	}
	if werr != nil {
		switch werr {
		case syscall.ENOENT, syscall.ENOTDIR, syscall.ELOOP, syscall.ENAMETOOLONG:
			return walkResult{}, touched, nil
		}
		return walkResult{}, touched, werr
	}
	return res, touched, nil
}

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

func linkErr(op, oldname, newname string, err error) error {
	return &os.LinkError{Op: op, Old: oldname, New: newname, Err: err}
}

// --- write side --------------------------------------------------------

// WriteFile writes data to the named file like os.WriteFile, following
// links (a dangling final link creates its target when the target's parent
// exists). The file lands in the upper layer.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	f.lockWrite()
	defer f.unlockWrite()
	var buf [stackRoom]frame
	if _, err := f.prepare(name, walkFollow|walkCreate, copyTrunc, buf[:0]); err != nil {
		return pathErr("open", name, err)
	}
	return f.upper.WriteFile(name, data, perm)
}

// writeFlags are the open flags that need the upper layer.
const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_APPEND

// OpenFile opens the named file with os.O_* flags like os.OpenFile,
// following links (with O_CREATE|O_EXCL a final link, even dangling, is an
// existing entry). Without a flag that writes, creates, truncates or
// appends, the handle reads the merged view like [FS.Open]; otherwise the
// file is copied up first and the handle is the upper layer's.
// Directories can be opened read-only only.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if flag&writeFlags == 0 {
		f.mu.RLock()
		defer f.mu.RUnlock()
		return f.openRead(name)
	}
	f.lockWrite()
	defer f.unlockWrite()
	flags := walkFollow
	excl := flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0
	if excl {
		flags = 0
	}
	if flag&os.O_CREATE != 0 {
		flags |= walkCreate
	}
	fc := copyEntry
	if flag&os.O_TRUNC != 0 && !excl {
		// The upper layer truncates the file it opens: it cannot fail on
		// a regular file that the resolution reaches.
		fc = copyTrunc
	}
	var buf [stackRoom]frame
	res, err := f.prepare(name, flags, fc, buf[:0])
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if res.exists && res.final().isDir() && !excl && flag&(os.O_WRONLY|os.O_RDWR|os.O_TRUNC) == 0 {
		return f.openRead(name)
	}
	return f.upper.OpenFile(name, flag, perm)
}

// Mkdir creates a directory like os.Mkdir; a final symbolic link, even a
// dangling one, is an existing entry. A directory made where a removed
// lower directory was is opaque: the lower children do not show.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	f.lockWrite()
	defer f.unlockWrite()
	return f.mkdir(name, perm)
}

func (f *FS) mkdir(name string, perm fs.FileMode) error {
	var buf [stackRoom]frame
	if _, err := f.prepare(name, walkParent, copyEntry, buf[:0]); err != nil {
		return pathErr("mkdir", name, err)
	}
	return f.upper.Mkdir(name, perm)
}

// MkdirAll creates a directory and any missing parents like os.MkdirAll.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	f.lockWrite()
	defer f.unlockWrite()
	return vfs.MkdirAll(mkdirView{view{f}}, name, perm)
}

// mkdirView is the merged view with Mkdir, for a caller holding the write
// lock: what vfs.MkdirAll needs for os.MkdirAll's algorithm.
type mkdirView struct{ view }

func (v mkdirView) Mkdir(name string, perm fs.FileMode) error { return v.f.mkdir(name, perm) }

// Remove removes a file, a symbolic link or an empty directory, like
// os.Remove; it never follows a final link. A removed lower entry is
// hidden by a whiteout. The lock of a removed file stays its holders'
// alone ([FS.Lock]).
func (f *FS) Remove(name string) error {
	// The lock table's mutex first, as in Rename.
	f.locks.mu.Lock()
	defer f.locks.mu.Unlock()
	f.lockWrite()
	defer f.unlockWrite()
	var buf [stackRoom]frame
	res, err := f.prepare(name, walkParent, copyWitness, buf[:0])
	if err != nil {
		return pathErr("remove", name, err)
	}
	if err := f.upper.Remove(name); err != nil {
		return err
	}
	if res.exists {
		f.whiteOut(res.path)
		f.locks.removed(res.path)
	}
	return nil
}

// RemoveAll removes name and everything below it like os.RemoveAll: links
// are removed, never followed, and a missing name is not an error. Lower
// entries are hidden by one whiteout on name; they are not read. The locks
// of the removed files stay their holders' alone ([FS.Lock]).
func (f *FS) RemoveAll(name string) error {
	// The lock table's mutex first, as in Rename.
	f.locks.mu.Lock()
	defer f.locks.mu.Unlock()
	f.lockWrite()
	defer f.unlockWrite()
	var buf [stackRoom]frame
	var res walkResult
	if removeAllLooksUp(name) {
		var touchedBuf [stackRoom]frame
		var err error
		if res, _, err = f.reach(name, walkParent, buf[:0], touchedBuf[:0]); err != nil {
			return pathErr("unlinkat", name, err)
		}
	}
	if err := f.upper.RemoveAll(name); err != nil {
		return err
	}
	if res.exists && res.path != "/" {
		f.whiteOut(res.path)
		f.locks.removed(res.path)
	}
	return nil
}

// removeAllLooksUp reports whether RemoveAll looks name up: with the
// rules of os.RemoveAll, some names are refused before any lookup. The
// walk to the parent never follows the final component, so trailing
// slashes never make RemoveAll follow a final link.
func removeAllLooksUp(name string) bool {
	err := vfs.CheckName("", name)
	return (err == nil || errors.Is(err, vfs.ErrNameTooLong)) && !vfs.RemoveAllParentTooLong(name)
}

// Rename renames oldname to newname with the rules of rename(2) on Linux,
// like [vfs.MemFS.Rename]. A lower directory is moved by copying its whole
// visible subtree up first; the old name then hides the lower entry, and
// the new one is opaque. The locks of the renamed file, or of the files
// in the renamed tree, move with them ([FS.Lock]).
func (f *FS) Rename(oldname, newname string) error {
	// The lock table's mutex first, as Lock takes it: a Lock never sees
	// the file renamed and its lock not yet moved.
	f.locks.mu.Lock()
	defer f.locks.mu.Unlock()
	f.lockWrite()
	defer f.unlockWrite()
	var buf [stackRoom]frame
	if vfs.CheckName("", oldname) != nil {
		return f.upper.Rename(oldname, newname) // refused before any lookup
	}
	if vfs.CheckName("", newname) != nil {
		// Refused once the old name's parent is resolved, as in the
		// kernel: the upper layer must resolve it as the merged view does.
		var touchedBuf [stackRoom]frame
		if _, _, err := f.reach(oldname, walkParent, buf[:0], touchedBuf[:0]); err != nil {
			return linkErr("rename", oldname, newname, err)
		}
		return f.upper.Rename(oldname, newname)
	}
	src, err := f.prepare(oldname, walkParent, copyTree, buf[:0])
	if err != nil {
		return linkErr("rename", oldname, newname, err)
	}
	var dstBuf [stackRoom]frame
	dst, err := f.prepare(newname, walkParent, copyWitness, dstBuf[:0])
	if err != nil {
		return linkErr("rename", oldname, newname, err)
	}
	if err := f.upper.Rename(oldname, newname); err != nil {
		return err
	}
	if src.exists && src.path != dst.path {
		f.whiteOut(src.path)
		f.whiteOut(dst.path)
		f.locks.renamed(src.path, dst.path)
	}
	return nil
}

// Symlink creates newname as a symbolic link to oldname, stored verbatim,
// in the upper layer.
func (f *FS) Symlink(oldname, newname string) error {
	f.lockWrite()
	defer f.unlockWrite()
	if vfs.CheckSymlink(oldname, newname) != nil {
		return f.upper.Symlink(oldname, newname) // refused before any lookup
	}
	var buf [stackRoom]frame
	if _, err := f.prepare(newname, walkParent, copyEntry, buf[:0]); err != nil {
		return linkErr("symlink", oldname, newname, err)
	}
	return f.upper.Symlink(oldname, newname)
}

// Chmod changes the permission bits of the named file, following links; a
// lower file is copied up first.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	f.lockWrite()
	defer f.unlockWrite()
	var buf [stackRoom]frame
	if _, err := f.prepare(name, walkFollow, copyEntry, buf[:0]); err != nil {
		return pathErr("chmod", name, err)
	}
	return f.upper.Chmod(name, mode)
}

// Chtimes changes the modification time of the named file, following
// links; a lower file is copied up first. Access times are not recorded.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	f.lockWrite()
	defer f.unlockWrite()
	var buf [stackRoom]frame
	if _, err := f.prepare(name, walkFollow, copyEntry, buf[:0]); err != nil {
		return pathErr("chtimes", name, err)
	}
	return f.upper.Chtimes(name, atime, mtime)
}

// SyncDir syncs the named directory of the merged view, following links:
// the upper layer's copy of it is synced ([vfs.MemFS.SyncDir], which
// records it); a directory the lower layer alone shows has no change to
// commit. It fails as the OS backend's does, with an *fs.PathError whose
// Op is "sync": wrapping fs.ErrNotExist for a missing name, vfs.ErrNotDir
// for one that is not a directory.
func (f *FS) SyncDir(name string) error {
	fi, err := f.Stat(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pathErr("sync", name, pe.Err)
		}
		return err
	}
	if !fi.IsDir() {
		return pathErr("sync", name, vfs.ErrNotDir)
	}
	if _, err := f.upper.Stat(name); err == nil {
		return f.upper.SyncDir(name)
	}
	return nil
}
