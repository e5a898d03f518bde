package composite

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
)

// Writes below the composite root are temporary by design: they are
// plain WriteFile and Mkdir calls, never synced, and a power cut may lose
// them (the root is thrown away and rebuilt by the next run). Every write
// that lands outside it (a durable source's default content, the system
// prompt export, a settings file reached through a state path's link) goes
// through writeDurable, which survives a power cut once it returns.

// writeDurable puts data at name with permission bits perm so that a
// crash or a power cut leaves the old file or the new one, whole, and the
// new one once it returned: the missing parents are made with
// [vfs.MkdirAllSynced] and the file with [vfs.ReplaceFile]. A link at name
// is replaced; callers that write through a link pass its real path. The
// file system needs what ReplaceFile needs; without it the error wraps
// errors.ErrUnsupported and nothing is written.
func writeDurable(fsys FS, name string, data []byte, perm fs.FileMode) error {
	if err := vfs.MkdirAllSynced(fsys, path.Dir(name), 0o755); err != nil {
		return err
	}
	return vfs.ReplaceFile(fsys, name, data, perm)
}

// writeDefault writes a durable source's default content at name, as
// [writeDurable] does, only when cond, checked under the lock that
// serializes the replacements of name, still holds of what name holds
// then: a decision taken on an earlier look (the source was missing or
// blank) never overwrites what another session persisted since.
func writeDefault(fsys FS, name string, data []byte, perm fs.FileMode, cond func(current []byte, exists bool) bool) error {
	if err := vfs.MkdirAllSynced(fsys, path.Dir(name), 0o755); err != nil {
		return err
	}
	_, err := vfs.ReplaceFileIf(fsys, name, data, perm, cond)
	return err
}

// resetBlank writes a blank durable source's default content at name, as
// [writeDefault] does on the condition [blank], unless the source is in
// use: the agent of another live session holds a shared lock of the file
// while it runs (sim takes it before the launch), and may be between its
// truncation of the file and its write, when the file is blank for a
// moment; a reset then would rename a new file over the one the agent is
// writing, and its content would be lost. Under the lock that serializes
// the replacements of name, with name still blank, the exclusive lock of
// the file itself is tried: held by a shared holder, name is left as it
// is and inUse is true; taken, name is read again (an agent may have
// written it and gone between the first read and the lock) and replaced
// while it is still blank, under the lock, which is released after. A
// file system without shared locks ([vfs.SharedLockFS]) has no holder to
// wait for: the reset is writeDefault's. Resets of one name never see
// each other's exclusive lock: they are serialized by the replacement
// lock, and a reset's lock is on the file it replaces.
func resetBlank(fsys FS, name string, data []byte, perm fs.FileMode) (inUse bool, err error) {
	if _, ok := fsys.(vfs.SharedLockFS); !ok {
		return false, writeDefault(fsys, name, data, perm, blank)
	}
	if err := vfs.MkdirAllSynced(fsys, path.Dir(name), 0o755); err != nil {
		return false, err
	}
	var held vfs.Unlocker
	var lockErr error
	release := func() {
		if held != nil {
			lockErr = errors.Join(lockErr, held.Unlock())
			held = nil
		}
	}
	// cond may be called again when name changed (see vfs.ReplaceFileIf):
	// each call starts afresh.
	cond := func(current []byte, exists bool) bool {
		release()
		inUse = false
		if !blank(current, exists) {
			return false
		}
		u, err := vfs.TryLock(fsys, name)
		switch {
		case errors.Is(err, vfs.ErrLocked):
			inUse = true
			return false
		case errors.Is(err, errors.ErrUnsupported):
			return true
		case err != nil:
			lockErr = errors.Join(lockErr, err)
			return false
		}
		held = u
		now, err := fsys.ReadFile(name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			lockErr = errors.Join(lockErr, err)
			release()
			return false
		}
		if !blank(now, err == nil) {
			release()
			return false
		}
		return true
	}
	_, err = vfs.ReplaceFileIf(fsys, name, data, perm, cond)
	release()
	if err = errors.Join(err, lockErr); err != nil {
		return false, err
	}
	return inUse, nil
}

// missing is the condition of a source created with its default
// content: there is still nothing at its name.
func missing(_ []byte, exists bool) bool { return !exists }

// blank is the condition of a source reset to its default content: it
// still holds nothing but white space.
func blank(data []byte, exists bool) bool { return exists && strings.TrimSpace(string(data)) == "" }

// existingPerm returns the permission bits of the file at name, following
// links, or def when there is none.
func existingPerm(fsys FS, name string, def fs.FileMode) (fs.FileMode, error) {
	fi, err := fsys.Stat(name)
	switch {
	case err == nil && fi.Mode().IsRegular():
		return fi.Mode().Perm(), nil
	case err == nil || errors.Is(err, fs.ErrNotExist):
		return def, nil
	}
	return 0, err
}

// isLink reports whether name is a symbolic link; a missing name is not,
// and a file system without links has none.
func isLink(fsys FS, name string) (bool, error) {
	mode, err := vfs.Lprobe(fsys, name)
	switch {
	case err == nil:
		return mode&fs.ModeSymlink != 0, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, errors.ErrUnsupported):
		return false, nil
	}
	if _, mem := fsys.(*vfs.MemFS); mem {
		// A MemFS's Lprobe answers with the bare errno: the error as
		// Lstat makes it.
		if _, lerr := vfs.Lstat(fsys, name); lerr != nil {
			err = lerr
		}
	}
	return false, err
}

// mkdirAllSynced is [vfs.MkdirAllSynced], remembered like mkdirAll: for
// the directories of durable sources, whose names must survive a power
// cut.
func (m madeDirs) mkdirAllSynced(fsys FS, dir string) error {
	if m[dir] {
		return nil
	}
	if err := vfs.MkdirAllSynced(fsys, dir, 0o755); err != nil {
		return err
	}
	m[dir] = true
	return nil
}
