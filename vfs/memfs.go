package vfs

import (
	"io/fs"
	"time"
)

// MemOptions configures [NewMemFS]. The zero value is ready to use.
type MemOptions struct {
	// Clock returns the time stamped on created and modified entries.
	// Nil means time.Now.
	Clock func() time.Time
	// Umask holds the permission bits cleared from the modes given to
	// creating calls, like a process's umask. The zero value clears none.
	Umask fs.FileMode
}

// MemFS is an in-memory file system that models a whole machine with
// POSIX semantics, symbolic links included. Create one with [NewMemFS].
type MemFS struct {
	opts MemOptions
}

// NewMemFS returns an empty MemFS holding only the root directory "/".
func NewMemFS(opts MemOptions) *MemFS {
	panic("unimplemented")
}

// Clone returns an independent copy of m (copy-on-write).
func (m *MemFS) Clone() *MemFS { panic("unimplemented") }

func (m *MemFS) Open(name string) (fs.File, error) { panic("unimplemented") }
func (m *MemFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	panic("unimplemented")
}
func (m *MemFS) Stat(name string) (fs.FileInfo, error)                      { panic("unimplemented") }
func (m *MemFS) Lstat(name string) (fs.FileInfo, error)                     { panic("unimplemented") }
func (m *MemFS) ReadFile(name string) ([]byte, error)                       { panic("unimplemented") }
func (m *MemFS) ReadDir(name string) ([]fs.DirEntry, error)                 { panic("unimplemented") }
func (m *MemFS) ReadLink(name string) (string, error)                       { panic("unimplemented") }
func (m *MemFS) WriteFile(name string, data []byte, perm fs.FileMode) error { panic("unimplemented") }
func (m *MemFS) Mkdir(name string, perm fs.FileMode) error                  { panic("unimplemented") }
func (m *MemFS) MkdirAll(name string, perm fs.FileMode) error               { panic("unimplemented") }
func (m *MemFS) Remove(name string) error                                   { panic("unimplemented") }
func (m *MemFS) RemoveAll(name string) error                                { panic("unimplemented") }
func (m *MemFS) Rename(oldname, newname string) error                       { panic("unimplemented") }
func (m *MemFS) Symlink(oldname, newname string) error                      { panic("unimplemented") }
func (m *MemFS) Chmod(name string, mode fs.FileMode) error                  { panic("unimplemented") }
func (m *MemFS) Chtimes(name string, atime, mtime time.Time) error          { panic("unimplemented") }

var _ ReadWriteFS = (*MemFS)(nil)
