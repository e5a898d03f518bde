package overlayfs

import (
	"io/fs"
	"path"
	"syscall"

	"github.com/outfitter-go/vfsim/vfs"
)

// namedInfo is a FileInfo reporting the caller's base name.
type namedInfo struct {
	fs.FileInfo
	name string
}

func (i namedInfo) Name() string { return i.name }

// lookup resolves name for a read operation and requires it to exist.
// The result's stack is appended to stackBuf.
func (f *FS) lookup(op, name string, mode vfs.ResolveMode, stackBuf []frame) (walkResult, error) {
	if err := vfs.CheckName(op, name); err != nil {
		return walkResult{}, err
	}
	res, err := f.walk(name, mode, stackBuf)
	if err != nil {
		return walkResult{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	if !res.exists {
		return walkResult{}, &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
	}
	return res, nil
}

// Stat returns information about the named file, following links.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.stat("stat", name, walkFollow)
}

// Lstat returns information about the named file without following a final
// symbolic link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.stat("lstat", name, 0)
}

func (f *FS) stat(op, name string, mode vfs.ResolveMode) (fs.FileInfo, error) {
	var buf [stackRoom]frame
	res, err := f.lookup(op, name, mode, buf[:0])
	if err != nil {
		return nil, err
	}
	fi, err := f.freshInfo(res.final())
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return namedInfo{FileInfo: fi, name: path.Base(name)}, nil
}

// ReadFile returns the named file's content, following links.
func (f *FS) ReadFile(name string) ([]byte, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.readFile(name)
}

func (f *FS) readFile(name string) ([]byte, error) {
	var buf [stackRoom]frame
	res, err := f.lookup("open", name, walkFollow, buf[:0])
	if err != nil {
		return nil, err
	}
	e := res.final()
	if e.isDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	var data []byte
	if e.upper {
		data, err = f.upper.ReadFile(e.path)
	} else {
		data, err = vfs.ReadFile(f.lower, e.path)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: vfs.Cause(err)}
	}
	return data, nil
}

// ReadDir lists the named directory, following links: the entries of both
// layers, sorted by name, without the removed ones.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.readDirNamed(name)
}

func (f *FS) readDirNamed(name string) ([]fs.DirEntry, error) {
	var buf [stackRoom]frame
	res, err := f.lookup("open", name, walkFollow, buf[:0])
	if err != nil {
		return nil, err
	}
	if !res.final().isDir() {
		return nil, &fs.PathError{Op: "readdirent", Path: name, Err: syscall.ENOTDIR}
	}
	list, err := f.readDir(res.stack)
	if err != nil {
		return nil, &fs.PathError{Op: "readdirent", Path: name, Err: err}
	}
	return list, nil
}

// ReadLink returns the verbatim target of the named symbolic link.
func (f *FS) ReadLink(name string) (string, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.readLinkNamed(name)
}

func (f *FS) readLinkNamed(name string) (string, error) {
	var buf [stackRoom]frame
	res, err := f.lookup("readlink", name, 0, buf[:0])
	if err != nil {
		return "", err
	}
	e := res.final()
	if !e.isLink() {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: syscall.EINVAL}
	}
	t, err := f.readLink(e)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return t, nil
}

// Open opens the named file or directory for reading, following links. The
// handle reads the content or listing of the moment it was opened.
func (f *FS) Open(name string) (fs.File, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.openRead(name)
}

func (f *FS) openRead(name string) (*readFile, error) {
	var buf [stackRoom]frame
	res, err := f.lookup("open", name, walkFollow, buf[:0])
	if err != nil {
		return nil, err
	}
	e := res.final()
	fi, err := f.freshInfo(e)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	rf := &readFile{name: name, info: namedInfo{FileInfo: fi, name: path.Base(name)}}
	if e.isDir() {
		list, err := f.readDir(res.stack)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		rf.dir = list
		return rf, nil
	}
	if e.upper {
		rf.data, err = f.upper.ReadFile(e.path)
	} else {
		rf.data, err = vfs.ReadFile(f.lower, e.path)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: vfs.Cause(err)}
	}
	return rf, nil
}

// view is the merged view read without taking the lock, for callers that
// hold it.
type view struct{ f *FS }

func (v view) Open(name string) (fs.File, error)          { return v.f.openRead(name) }
func (v view) Stat(name string) (fs.FileInfo, error)      { return v.f.stat("stat", name, walkFollow) }
func (v view) Lstat(name string) (fs.FileInfo, error)     { return v.f.stat("lstat", name, 0) }
func (v view) ReadFile(name string) ([]byte, error)       { return v.f.readFile(name) }
func (v view) ReadDir(name string) ([]fs.DirEntry, error) { return v.f.readDirNamed(name) }
func (v view) ReadLink(name string) (string, error)       { return v.f.readLinkNamed(name) }
