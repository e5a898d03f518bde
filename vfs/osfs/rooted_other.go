//go:build !linux

package osfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// errRooted is the error of every call of a rooted FS here: confinement
// that holds while another process swaps directories for links needs
// openat2's RESOLVE_IN_ROOT, which only Linux has.
var errRooted = fmt.Errorf("rooted file system needs Linux openat2: %w", errors.ErrUnsupported)

func (f *FS) rootedOpen(string, int, fs.FileMode) (*os.File, error) { return nil, errRooted }
func (f *FS) rootedStat(string, bool) (fs.FileInfo, error)          { return nil, errRooted }
func (f *FS) rootedReadDir(string) ([]fs.DirEntry, error)           { return nil, errRooted }
func (f *FS) rootedReadLink(string) (string, error)                 { return "", errRooted }
func (f *FS) rootedMkdir(string, fs.FileMode) error                 { return errRooted }
func (f *FS) rootedSymlink(string, string) error                    { return errRooted }
func (f *FS) rootedRemove(string) error                             { return errRooted }
func (f *FS) rootedRemoveAll(string) error                          { return errRooted }
func (f *FS) rootedRename(string, string) error                     { return errRooted }
func (f *FS) rootedChmod(string, fs.FileMode) error                 { return errRooted }
func (f *FS) rootedChtimes(string, time.Time, time.Time) error      { return errRooted }
func (f *FS) rootedSyncDir(string) error                            { return errRooted }
