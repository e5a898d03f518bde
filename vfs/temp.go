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
// at name, atomically and durably: data is written to a new file made by
// [CreateTemp] in name's directory (pattern "."+base+".*.tmp"), given perm
// with [Chmod] (umask does not apply), synced to stable storage ([Sync]),
// closed and renamed over name; then name's directory is synced
// ([SyncDir]) so that the rename itself is committed. A symbolic link at
// name is replaced, never written through.
//
// Which crashes it covers, and how each is tested:
//
//   - A failed call or a process that dies at any point (a full disk, a
//     kill): readers and the next run see the old file or the new one,
//     whole, never a part; the temporary file is removed on every failure
//     that still allows it, and one a kill leaves behind (".NAME.*.tmp")
//     is removed by the next ReplaceFile of the same name. Replacements
//     of one name are serialized across sessions by a lock
//     (".NAME.replace.lock" beside it, held from before the stray files
//     are removed until after the rename, where fsys has [LockFS]), and a
//     stray is removed only under the lock of its name, so a temporary
//     file another session is writing is never taken for one a kill
//     left. Tested by
//     sweeps that stop a write at each operation (package faultfs's
//     CrashAfter), and by killing a real process with SIGKILL before each
//     of the hundreds of operations of a write-back on the OS (sim's
//     TestSIGKILL).
//   - A power cut (the machine stops; the disk keeps only what was synced,
//     and a journaling file system may have committed any prefix of the
//     metadata changes before it): old or new, whole, while ReplaceFile
//     runs; the new file once it has returned nil. The data reaches the
//     disk before the rename can (the file is synced first), and the
//     rename before ReplaceFile returns (the directory is synced after).
//     Tested by sweeps over the power-cut model of package faultfs, which
//     cut the power at every operation and check every disk state the
//     model allows (TestReplaceFilePowerCut, and the sweeps of persist,
//     record, export, default sources and a whole run: go test -run
//     PowerCut ./...).
//
// Not covered: a disk that acknowledges a flush it has not made, and a
// failed sync of the directory after the rename, which is returned as the
// error while the new file is already in place (it may not survive a
// power cut).
//
// On a [MemFS] the syncs are counted and cost nothing, and the common
// case (the name's directory exists, the name is missing or a regular
// file, and no other replacement of it is under way or was cut short)
// is done in one step under the MemFS's lock, without the temporary and
// lock files: whatever a reader sees of it, the steps above could show.
// fsys needs [OpenFileFS] (with files that implement [SyncFile]),
// [ChmodFS], [RenameFS], [RemoveFS] and [SyncDirFS]; without them
// ReplaceFile returns an error wrapping errors.ErrUnsupported and leaves
// name as it was.
func ReplaceFile(fsys FS, name string, data []byte, perm fs.FileMode) error {
	_, err := replaceFile(fsys, name, data, perm, true, nil)
	return err
}

// ReplaceFileIf is [ReplaceFile] on a condition that is checked while
// the replacement lock of name is held: cond is given what name holds
// then (through links, as [ReadFile] reads it; exists is false when
// there is nothing), and name is replaced only when it returns true. A
// read that fails otherwise than with fs.ErrNotExist is returned, and
// name is left as it was. It reports whether name was replaced. Every ReplaceFile of name in
// another session happens wholly before the check or wholly after the
// rename, so a decision taken on an earlier read (name was missing, or
// blank) cannot overwrite what another session wrote since: the check
// sees it. On a file system without [LockFS] the check and the rename are
// not atomic with respect to other sessions. On a [MemFS] cond is called
// without the MemFS's lock held, and again if name changed before the
// replacement: cond should depend on its arguments alone.
func ReplaceFileIf(fsys FS, name string, data []byte, perm fs.FileMode, cond func(current []byte, exists bool) bool) (bool, error) {
	return replaceFile(fsys, name, data, perm, true, cond)
}

// replaceFile is [ReplaceFile], and [ReplaceFileIf] when cond is not nil;
// clean removes the strays of name first, which a caller that removed
// those of the whole directory skips.
func replaceFile(fsys FS, name string, data []byte, perm fs.FileMode, clean bool, cond func(current []byte, exists bool) bool) (replaced bool, err error) {
	if _, ok := fsys.(ChmodFS); !ok {
		return false, unsupported("replace", name)
	}
	if _, ok := fsys.(RenameFS); !ok {
		return false, unsupported("replace", name)
	}
	if _, ok := fsys.(RemoveFS); !ok {
		return false, unsupported("replace", name)
	}
	if _, ok := fsys.(SyncDirFS); !ok {
		return false, unsupported("replace", name)
	}
	if m, ok := fsys.(*MemFS); ok {
		// The common case on a MemFS, in one step (see replaceInPlace).
		if done, replaced := m.replaceInPlace(name, data, perm, cond); done {
			return replaced, nil
		}
	}
	dir, base := path.Dir(name), path.Base(name)
	lock, err := lockReplace(fsys, name)
	if err != nil {
		return false, err
	}
	defer func() { err = errors.Join(err, lock.Unlock()) }()
	if cond != nil {
		current, err := ReadFile(fsys, name)
		exists := !errors.Is(err, fs.ErrNotExist)
		if err != nil && exists {
			return false, err
		}
		if !cond(current, exists) {
			return false, nil
		}
	}
	if clean {
		if err := removeStrays(fsys, dir, func(b string) bool { return b == base }, base); err != nil {
			return false, err
		}
	}
	f, tmp, err := CreateTemp(fsys, dir, "."+base+".*.tmp")
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil && tmp != "" {
			_ = Remove(fsys, tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = Chmod(fsys, tmp, perm.Perm())
	}
	if err == nil {
		// The data and the mode must reach the disk before the rename
		// that publishes them can: without this, a journaling file system
		// may commit the rename first, and a power cut leaves name empty.
		err = Sync(f)
	}
	if err1 := f.Close(); err == nil {
		err = err1
	}
	if err != nil {
		return false, err
	}
	if err := Rename(fsys, tmp, name); err != nil {
		return false, err
	}
	// The rename is committed only with its directory. The file is in
	// place whatever happens now: a failure here is reported, and the
	// temporary name is gone already, so nothing is removed.
	tmp = ""
	return true, SyncDir(fsys, dir)
}

// lockReplace takes the lock that serializes the replacements of name
// ([ReplaceFile], replaceLink) across sessions, and returns its release:
// the lock of the lock file ".<base>.replace.lock" beside name, which
// exists only while it is held. Under it, a temporary file of name is
// either this call's or one a killed writer left (the kernel released
// that writer's lock), so removeStrays never removes the file another
// session is writing. It is another lock than [LockFile]'s, which a
// read-modify-write holds around its ReplaceFile. A file system without
// [LockFS] is written unlocked: the release does nothing.
func lockReplace(fsys FS, name string) (Unlocker, error) {
	lockName := replaceLockName(name)
	u, err := Lock(fsys, lockName)
	if errors.Is(err, errors.ErrUnsupported) {
		return noLock{}, nil
	}
	if err != nil {
		return nil, err
	}
	return &fileLock{fsys: fsys, name: lockName, u: u}, nil
}

// noLock is the lock of a file system without locks: nothing to release.
type noLock struct{}

func (noLock) Unlock() error { return nil }

// replaceLockName is the lock file of the replacements of name.
func replaceLockName(name string) string {
	dir, base := path.Split(name)
	return dir + "." + base + ".replace.lock"
}

// removeStray removes the stray temporary file name of the file called
// base in dir, unless another session holds the replacement lock of base
// (it is writing that file, and the temporary file is its own).
func removeStray(fsys FS, dir, base, name string) error {
	u, err := TryLock(fsys, replaceLockName(path.Join(dir, base)))
	switch {
	case errors.Is(err, ErrLocked):
		return nil
	case errors.Is(err, errors.ErrUnsupported):
		u = nil
	case err != nil:
		return err
	}
	err = Remove(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if u != nil {
		err = errors.Join(err, (&fileLock{fsys: fsys, name: replaceLockName(path.Join(dir, base)), u: u}).Unlock())
	}
	return err
}

// removeStrays removes the temporary files of earlier ReplaceFile calls
// in dir that a killed process left behind, for the names mine selects:
// regular files (and the links of replaceLink) named
// "."+base+"."+digits+".tmp", the names [CreateTemp] draws for the
// pattern. A directory that does not exist is left for the write to
// report; any other failure to list or remove is returned. The caller
// holds the replacement lock of the file called held (see lockReplace),
// or held is ""; a stray of any other file is removed only under that
// file's lock, and left while another session holds it.
func removeStrays(fsys FS, dir string, mine func(base string) bool, held string) error {
	list, err := ReadDir(fsys, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotDir) {
			return nil
		}
		return err
	}
	for _, e := range list {
		if t := e.Type(); !t.IsRegular() && t != fs.ModeSymlink {
			continue
		}
		base, ok := strayBase(e.Name())
		if !ok || !mine(base) {
			continue
		}
		name := path.Join(dir, e.Name())
		if base != held {
			if err := removeStray(fsys, dir, base, name); err != nil {
				return err
			}
			continue
		}
		if err := Remove(fsys, name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// IsStrayTemp reports whether name is the name of a temporary file
// [ReplaceFile] makes for a file called base: "."+base+"."+digits+".tmp".
// One found on disk is what a process killed in the middle of ReplaceFile
// left; the next ReplaceFile of base in that directory removes it.
func IsStrayTemp(name, base string) bool {
	b, ok := strayBase(name)
	return ok && b == base
}

// strayBase returns the base of the file a temporary name of ReplaceFile
// was drawn for: "."+base+"."+digits+".tmp".
func strayBase(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, ".tmp")
	if !ok {
		return "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || i == len(rest)-1 {
		return "", false
	}
	for _, c := range []byte(rest[i+1:]) {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return rest[:i], true
}

// replaceLink puts a symbolic link to target at name atomically, over the
// link there: the new link is made at a temporary name beside it (the
// names of [ReplaceFile]) and renamed over name, and the directory is
// synced, so a crash or a power cut leaves the old link or the new one.
func replaceLink(fsys FS, target, name string, clean bool) (err error) {
	dir, base := path.Dir(name), path.Base(name)
	lock, err := lockReplace(fsys, name)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, lock.Unlock()) }()
	if clean {
		if err := removeStrays(fsys, dir, func(b string) bool { return b == base }, base); err != nil {
			return err
		}
	}
	var tmp string
	for range createTempTries {
		tmp = path.Join(dir, "."+base+"."+strconv.FormatUint(uint64(rand.Uint32()), 10)+".tmp")
		err := Symlink(fsys, target, tmp)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		tmp = ""
	}
	if tmp == "" {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: fs.ErrExist}
	}
	if err := Rename(fsys, tmp, name); err != nil {
		_ = Remove(fsys, tmp)
		return err
	}
	return SyncDir(fsys, dir)
}
