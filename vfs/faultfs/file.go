package faultfs

import (
	"errors"
	"io"
	"io/fs"
	"sync"

	"github.com/outfitter-go/vfsim/vfs"
)

// file is an open file of an [FS]: its writes and its close are
// operations of the FS, and writes obey [WriteFailsAfter] rules.
type file struct {
	fsys *FS
	f    fs.File
	name string

	mu      sync.Mutex
	written int64
}

// dirFile is a file whose wrapped file can list a directory.
type dirFile struct {
	*file
}

// ReadDir reads directory entries from the wrapped file.
func (d dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	return d.f.(fs.ReadDirFile).ReadDir(n)
}

// wrap returns fl as a file of f, listing directories when fl can.
func (f *FS) wrap(fl fs.File, name string) vfs.File {
	w := &file{fsys: f, f: fl, name: name}
	if _, ok := fl.(fs.ReadDirFile); ok {
		return dirFile{w}
	}
	return w
}

// Name returns the name the file was opened with.
func (fl *file) Name() string { return fl.name }

// Read reads from the wrapped file.
func (fl *file) Read(p []byte) (int, error) { return fl.f.Read(p) }

// Stat describes the wrapped file.
func (fl *file) Stat() (fs.FileInfo, error) { return fl.f.Stat() }

// Write is a "write" operation: it may fail whole by a rule, be torn by a
// [CrashAfter] rule or cut short by a [ShortWrite] rule (the bytes before
// the cut are written), and otherwise writes to the wrapped file.
func (fl *file) Write(p []byte) (int, error) {
	op, v := fl.fsys.beginSeq(Op{Kind: KindWrite, Path: fl.name, Mutates: true})
	// A crash that tears nothing (torn 0) writes no byte below either:
	// v.torn <= 0 here (a mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if v.err != nil && v.torn < 0 {
		return 0, pathErr(KindWrite, fl.name, v.err)
	}
	w, ok := fl.f.(io.Writer)
	if !ok {
		return 0, pathErr(KindWrite, fl.name, errors.ErrUnsupported)
	}
	fl.mu.Lock()
	defer fl.mu.Unlock()
	cut, cutErr, limited := int64(len(p)), v.err, false
	if v.err != nil {
		cut = min(cut, v.torn)
	} else if limit, err := fl.fsys.writeLimit(op); err != nil && fl.written+cut > limit {
		cut, cutErr, limited = max(limit-fl.written, 0), err, true
	}
	n, err := w.Write(p[:cut])
	fl.written += int64(n)
	if err != nil || cutErr == nil {
		return n, err
	}
	if limited {
		fl.fsys.noteInjected(op.Seq, cutErr)
	}
	return n, pathErr(KindWrite, fl.name, cutErr)
}

// Sync is a "sync" operation: it may fail by a rule (as fsync fails
// with EIO), and otherwise syncs the wrapped file ([vfs.Sync]); in the
// power-cut model the file's data and attributes reach the disk.
func (fl *file) Sync() error {
	if err := fl.fsys.begin(Op{Kind: KindSync, Path: fl.name}); err != nil {
		return pathErr(KindSync, fl.name, err)
	}
	if err := vfs.Sync(fl.f); err != nil {
		return err
	}
	fl.fsys.synced(fl)
	return nil
}

// Close is a "close" operation. An injected failure still closes the
// wrapped file, as a failing close(2) still releases the descriptor.
func (fl *file) Close() error {
	inj := fl.fsys.begin(Op{Kind: KindClose, Path: fl.name})
	err := fl.f.Close()
	if inj != nil {
		return pathErr(KindClose, fl.name, inj)
	}
	return err
}

// writeLimit returns the byte limit and error of the first [ShortWrite]
// rule that applies to op, or a nil error.
func (f *FS) writeLimit(op Op) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if r.limit >= 0 && r.considers(op) {
			return r.limit, r.err
		}
	}
	return 0, nil
}
