package faultfs

import (
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

// Kind names an operation. Its values read as words in JSON and logs.
type Kind string

// The operations an [FS] counts and can fail.
const (
	KindOpen      Kind = "open"
	KindOpenFile  Kind = "openfile"
	KindStat      Kind = "stat"
	KindLstat     Kind = "lstat"
	KindReadFile  Kind = "readfile"
	KindReadDir   Kind = "readdir"
	KindReadLink  Kind = "readlink"
	KindWriteFile Kind = "writefile"
	KindMkdir     Kind = "mkdir"
	KindMkdirAll  Kind = "mkdirall"
	KindRemove    Kind = "remove"
	KindRemoveAll Kind = "removeall"
	KindRename    Kind = "rename"
	KindSymlink   Kind = "symlink"
	KindChmod     Kind = "chmod"
	KindChtimes   Kind = "chtimes"
	KindWrite     Kind = "write"
	KindClose     Kind = "close"
	// KindSync is the Sync of an open file; KindSyncDir is [FS.SyncDir].
	KindSync    Kind = "sync"
	KindSyncDir Kind = "syncdir"
)

// osOp returns the verb package os puts in the errors of an operation.
func (k Kind) osOp() string {
	switch k {
	case KindOpenFile, KindReadFile, KindReadDir, KindWriteFile:
		return "open"
	case KindMkdirAll:
		return "mkdir"
	case KindRemoveAll:
		return "unlinkat"
	case KindSyncDir:
		return "sync"
	}
	return string(k)
}

// Op describes one operation seen by an [FS].
type Op struct {
	// Seq numbers the operations of an FS from 1, in the order they began.
	Seq int
	// Kind is the operation.
	Kind Kind
	// Path is the name operated on; for a rename the old name, for a
	// symlink the link's target; for a Write or Close the name the file was
	// opened with.
	Path string
	// NewPath is the new name of a rename and the link created by a
	// symlink; it is empty for other operations.
	NewPath string
	// Mutates reports whether the operation may change the tree: every
	// write-side operation, and OpenFile with a flag that writes, creates,
	// truncates or appends.
	Mutates bool
	// Injected is the error the FS injected into the operation (instead
	// of running it, or part way through a Write), or nil. Rules see it as
	// nil.
	Injected error
}

// FS wraps a file system and injects faults by its [Rule]s. It forwards
// every capability of the wrapped FS through the same-named vfs helper
// ([vfs.Symlink] and the rest), so a capability the wrapped FS lacks fails
// as that helper fails, with an error wrapping errors.ErrUnsupported. It is
// safe for concurrent use if the wrapped FS is.
type FS struct {
	inner vfs.FS

	mu    sync.Mutex
	rules []*ruleState
	log   []Op
	seq   int
	// power is the power-cut model, nil until TrackDurability.
	power *power
}

var (
	_ vfs.ReadWriteFS = (*FS)(nil)
	_ vfs.SyncDirFS   = (*FS)(nil)
)

// New returns an FS wrapping fsys with the given rules, checked in order:
// the first rule that fires decides the injected error.
func New(fsys vfs.FS, rules ...Rule) *FS {
	if fsys == nil {
		panic("faultfs: nil FS")
	}
	f := &FS{inner: fsys}
	for _, r := range rules {
		f.rules = append(f.rules, &ruleState{Rule: r})
	}
	return f
}

// Inner returns the wrapped FS.
func (f *FS) Inner() vfs.FS { return f.inner }

// Ops returns a copy of the log of operations seen so far, in order.
func (f *FS) Ops() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Op(nil), f.log...)
}

// Count returns how many operations of the given kinds were seen; with no
// kinds it counts every operation.
func (f *FS) Count(kinds ...Kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(kinds) == 0 {
		return len(f.log)
	}
	n := 0
	for _, op := range f.log {
		for _, k := range kinds {
			if op.Kind == k {
				n++
				break
			}
		}
	}
	return n
}

// Injected returns the operations that failed with an injected error.
func (f *FS) Injected() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Op
	for _, op := range f.log {
		if op.Injected != nil {
			out = append(out, op)
		}
	}
	return out
}

// ResetLog forgets the operations seen so far. Rule counters and the
// sequence numbers of later operations continue.
func (f *FS) ResetLog() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = nil
}

// begin logs op and returns the error to inject, or nil to run it.
func (f *FS) begin(op Op) error {
	_, v := f.beginSeq(op)
	return v.err
}

// beginSeq logs op and returns it, numbered, with the verdict of the
// first rule that fires (every rule counts op).
func (f *FS) beginSeq(op Op) (Op, verdict) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	op.Seq = f.seq
	v := pass
	for _, r := range f.rules {
		if w := r.fire(op); w.err != nil && v.err == nil {
			v = w
		}
	}
	op.Injected = v.err
	f.log = append(f.log, op)
	return op, v
}

// noteInjected records err as injected into the operation numbered seq,
// if it is still in the log.
func (f *FS) noteInjected(seq int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.log) - 1; i >= 0 && f.log[i].Seq >= seq; i-- {
		if f.log[i].Seq == seq {
			f.log[i].Injected = err
			return
		}
	}
}

func pathErr(k Kind, name string, err error) error {
	return &fs.PathError{Op: k.osOp(), Path: name, Err: err}
}

// Open opens the named file for reading.
func (f *FS) Open(name string) (fs.File, error) {
	if err := f.begin(Op{Kind: KindOpen, Path: name}); err != nil {
		return nil, pathErr(KindOpen, name, err)
	}
	fl, err := f.inner.Open(name)
	if err != nil {
		return nil, err
	}
	return f.wrap(fl, name), nil
}

// writeFlags are the open flags that make OpenFile a mutating operation.
const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_APPEND

// OpenFile opens the named file with flags, like os.OpenFile.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if err := f.begin(Op{Kind: KindOpenFile, Path: name, Mutates: flag&writeFlags != 0}); err != nil {
		return nil, pathErr(KindOpenFile, name, err)
	}
	var fl vfs.File
	c := change{}
	if flag&(os.O_CREATE|os.O_TRUNC) != 0 {
		c.dirs = []string{parent(name)}
	}
	if flag&os.O_TRUNC != 0 {
		c.trunc = name
	}
	err := f.observe(c, func() (err error) {
		fl, err = vfs.OpenFile(f.inner, name, flag, perm)
		return err
	})
	if err != nil {
		return nil, err
	}
	return f.wrap(fl, name), nil
}

// Stat returns a FileInfo for the named file, following links.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	if err := f.begin(Op{Kind: KindStat, Path: name}); err != nil {
		return nil, pathErr(KindStat, name, err)
	}
	return vfs.Stat(f.inner, name)
}

// Lstat returns a FileInfo for the named file without following a final
// link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	if err := f.begin(Op{Kind: KindLstat, Path: name}); err != nil {
		return nil, pathErr(KindLstat, name, err)
	}
	return vfs.Lstat(f.inner, name)
}

// ReadFile reads the named file.
func (f *FS) ReadFile(name string) ([]byte, error) {
	if err := f.begin(Op{Kind: KindReadFile, Path: name}); err != nil {
		return nil, pathErr(KindReadFile, name, err)
	}
	return vfs.ReadFile(f.inner, name)
}

// ReadDir lists the named directory.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.begin(Op{Kind: KindReadDir, Path: name}); err != nil {
		return nil, pathErr(KindReadDir, name, err)
	}
	return vfs.ReadDir(f.inner, name)
}

// ReadLink returns the target of the named link.
func (f *FS) ReadLink(name string) (string, error) {
	if err := f.begin(Op{Kind: KindReadLink, Path: name}); err != nil {
		return "", pathErr(KindReadLink, name, err)
	}
	return vfs.ReadLink(f.inner, name)
}

// WriteFile writes a whole file. It may fail whole by a rule, be cut
// short by a [ShortWrite] rule or torn by a [CrashAfter] rule (the file is
// then created or truncated and holds a prefix of data), or run.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	op, v := f.beginSeq(Op{Kind: KindWriteFile, Path: name, Mutates: true})
	if v.err != nil && v.torn < 0 {
		return pathErr(KindWriteFile, name, v.err)
	}
	cut, cutErr, limited := int64(len(data)), v.err, false
	if v.err != nil {
		cut = min(cut, v.torn)
	} else if limit, err := f.writeLimit(op); err != nil && limit < cut {
		cut, cutErr, limited = limit, err, true
	}
	err := f.observe(change{dirs: []string{parent(name)}, trunc: name}, func() error {
		return vfs.WriteFile(f.inner, name, data[:cut], perm)
	})
	if err != nil || cutErr == nil {
		return err
	}
	if limited {
		f.noteInjected(op.Seq, cutErr)
	}
	return pathErr(KindWrite, name, cutErr)
}

// Mkdir creates a directory.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	if err := f.begin(Op{Kind: KindMkdir, Path: name, Mutates: true}); err != nil {
		return pathErr(KindMkdir, name, err)
	}
	return f.observe(change{dirs: []string{parent(name)}}, func() error { return vfs.Mkdir(f.inner, name, perm) })
}

// MkdirAll creates a directory and its missing parents.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	if err := f.begin(Op{Kind: KindMkdirAll, Path: name, Mutates: true}); err != nil {
		return pathErr(KindMkdirAll, name, err)
	}
	return f.observe(change{dirs: ancestors(name)}, func() error { return vfs.MkdirAll(f.inner, name, perm) })
}

// Remove removes a file, link or empty directory.
func (f *FS) Remove(name string) error {
	if err := f.begin(Op{Kind: KindRemove, Path: name, Mutates: true}); err != nil {
		return pathErr(KindRemove, name, err)
	}
	return f.observe(change{dirs: []string{parent(name)}}, func() error { return vfs.Remove(f.inner, name) })
}

// RemoveAll removes a tree.
func (f *FS) RemoveAll(name string) error {
	if err := f.begin(Op{Kind: KindRemoveAll, Path: name, Mutates: true}); err != nil {
		return pathErr(KindRemoveAll, name, err)
	}
	return f.observe(change{dirs: []string{parent(name)}}, func() error { return vfs.RemoveAll(f.inner, name) })
}

// Rename renames oldname to newname.
func (f *FS) Rename(oldname, newname string) error {
	if err := f.begin(Op{Kind: KindRename, Path: oldname, NewPath: newname, Mutates: true}); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	return f.observe(change{dirs: []string{parent(oldname), parent(newname)}}, func() error { return vfs.Rename(f.inner, oldname, newname) })
}

// Symlink creates newname as a link to oldname.
func (f *FS) Symlink(oldname, newname string) error {
	if err := f.begin(Op{Kind: KindSymlink, Path: oldname, NewPath: newname, Mutates: true}); err != nil {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: err}
	}
	return f.observe(change{dirs: []string{parent(newname)}}, func() error { return vfs.Symlink(f.inner, oldname, newname) })
}

// Chmod changes the mode of the named file.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	if err := f.begin(Op{Kind: KindChmod, Path: name, Mutates: true}); err != nil {
		return pathErr(KindChmod, name, err)
	}
	return f.observe(change{chmod: name}, func() error { return vfs.Chmod(f.inner, name, mode) })
}

// Chtimes changes the times of the named file.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	if err := f.begin(Op{Kind: KindChtimes, Path: name, Mutates: true}); err != nil {
		return pathErr(KindChtimes, name, err)
	}
	return vfs.Chtimes(f.inner, name, atime, mtime)
}

// SyncDir syncs the named directory of the wrapped FS ([vfs.SyncDir]): a
// "syncdir" operation, which a rule may fail (as a disk's fsync fails
// with EIO). In the power-cut model the directory's entries reach the
// disk.
func (f *FS) SyncDir(name string) error {
	if err := f.begin(Op{Kind: KindSyncDir, Path: name}); err != nil {
		return pathErr(KindSyncDir, name, err)
	}
	if err := vfs.SyncDir(f.inner, name); err != nil {
		return err
	}
	f.syncedDir(name)
	return nil
}
