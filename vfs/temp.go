package vfs

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"strings"
)

// createTempTries bounds the names [CreateTemp] tries, as os.CreateTemp does.
const createTempTries = 10000

// CreateTemp creates a new file in the directory dir, opened for reading
// and writing, and returns it with its name, like os.CreateTemp: the name is
// pattern with a random string in place of its last "*", or appended when
// there is none. The file is opened through [OpenFileFS] with
// O_CREATE|O_EXCL and mode 0600, so an entry that already has the name is
// never opened or followed — a symbolic link there, even a dangling one,
// fails the attempt with fs.ErrExist and another name is drawn. Only dir
// itself is resolved through links, as the kernel does.
//
// The pattern may not contain a path separator. The caller closes the file
// and removes it when it is no longer wanted.
func CreateTemp(fsys FS, dir, pattern string) (File, string, error) {
	o, ok := fsys.(OpenFileFS)
	if !ok {
		return nil, "", unsupported("createtemp", path.Join(dir, pattern))
	}
	if strings.Contains(pattern, "/") {
		return nil, "", &fs.PathError{Op: "createtemp", Path: pattern, Err: errors.New("pattern contains path separator")}
	}
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	var err error
	for range createTempTries {
		name := path.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		var f File
		f, err = o.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", &fs.PathError{Op: "createtemp", Path: path.Join(dir, pattern), Err: fs.ErrExist}
}

// ReplaceFile puts a regular file holding data with permission bits perm
// at name, atomically: data is written to a new file made by [CreateTemp]
// in name's directory (pattern "."+base+".*.tmp"), given perm with
// [Chmod] (umask does not apply), closed, and renamed over name. Readers see
// the old file or the new one, never a part; a failed write, a full disk or
// an interruption before the rename leaves name as it was, and the
// temporary file is removed on every failure that still allows it. A
// symbolic link at name is replaced, never written through. fsys needs
// [OpenFileFS], [ChmodFS], [RenameFS] and [RemoveFS]; without them
// ReplaceFile returns an error wrapping errors.ErrUnsupported and writes
// nothing.
func ReplaceFile(fsys FS, name string, data []byte, perm fs.FileMode) (err error) {
	if _, ok := fsys.(ChmodFS); !ok {
		return unsupported("replace", name)
	}
	if _, ok := fsys.(RenameFS); !ok {
		return unsupported("replace", name)
	}
	if _, ok := fsys.(RemoveFS); !ok {
		return unsupported("replace", name)
	}
	f, tmp, err := CreateTemp(fsys, path.Dir(name), "."+path.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = Remove(fsys, tmp)
		}
	}()
	_, err = f.Write(data)
	if err1 := f.Close(); err == nil {
		err = err1
	}
	if err != nil {
		return err
	}
	if err := Chmod(fsys, tmp, perm.Perm()); err != nil {
		return err
	}
	return Rename(fsys, tmp, name)
}
