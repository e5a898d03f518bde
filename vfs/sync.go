package vfs

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// A SyncFile is an open file that can commit what was written to it to
// stable storage, like (*os.File).Sync (fsync(2)): once Sync returns nil
// the file's data and attributes survive a power cut, though a new or
// renamed name of the file does so only once its directory is synced
// ([SyncDirFS]). The files of [MemFS] and of the OS backend implement it.
type SyncFile interface {
	File
	// Sync commits the file's content and attributes to stable storage.
	// If there is an error, it is of type *fs.PathError.
	Sync() error
}

// A SyncDirFS can commit a directory's entries to stable storage: once
// SyncDir returns nil, the names created, renamed into or removed from the
// directory before the call survive a power cut (an fsync(2) of the
// directory on the OS). The data of the files named is a matter of the
// files' own [SyncFile.Sync].
type SyncDirFS interface {
	FS
	// SyncDir commits the entries of the named directory, following links.
	// If there is an error, it is of type *fs.PathError.
	SyncDir(name string) error
}

// Sync commits an open file to stable storage through [SyncFile], or
// returns an error wrapping errors.ErrUnsupported when the file cannot be
// synced (never a silent success: durability is not claimed where it is
// not had).
func Sync(f fs.File) error {
	if s, ok := f.(interface{ Sync() error }); ok {
		return s.Sync()
	}
	name := ""
	if n, ok := f.(interface{ Name() string }); ok {
		name = n.Name()
	}
	return &fs.PathError{Op: "sync", Path: name, Err: errors.ErrUnsupported}
}

// SyncDir commits the entries of the named directory through
// [SyncDirFS], or returns an error wrapping errors.ErrUnsupported.
func SyncDir(fsys FS, name string) error {
	if s, ok := fsys.(SyncDirFS); ok {
		return s.SyncDir(name)
	}
	return &fs.PathError{Op: "sync", Path: name, Err: errors.ErrUnsupported}
}

// MkdirAllSynced is [MkdirAll] whose new directories survive a power cut:
// after making name and its missing parents, it syncs ([SyncDir]) the
// deepest directory that existed before and every directory made below it
// down to name's parent, so that each new name is committed in its
// directory. An existing name is left alone and nothing is synced. fsys
// needs [MkdirAllFS] or [MkdirFS], [StatFS] semantics and [SyncDirFS]; a
// missing SyncDirFS fails with an error wrapping errors.ErrUnsupported
// before anything is made.
func MkdirAllSynced(fsys FS, name string, perm fs.FileMode) error {
	if _, ok := fsys.(SyncDirFS); !ok {
		return &fs.PathError{Op: "mkdir", Path: name, Err: errors.ErrUnsupported}
	}
	plain := plainFits(name)
	if !plain {
		name = path.Clean(name)
	}
	if m, ok := fsys.(*MemFS); ok {
		// The common case on a MemFS, in one step (see mkdirAllSynced).
		if done, err := m.mkdirAllSynced(name, plain, perm); done {
			return err
		}
	}
	if mode, err := probeStat(fsys, name); err == nil {
		if mode.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: name, Err: ErrNotDir}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// The deepest ancestor that exists: everything below it is new.
	base := name
	for base != "/" && base != "." {
		base = path.Dir(base)
		_, err := probeStat(fsys, base)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := MkdirAll(fsys, name, perm); err != nil {
		return err
	}
	for d := base; ; {
		if err := SyncDir(fsys, d); err != nil {
			return err
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(name, d), "/")
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return nil
		}
		d = path.Join(d, rest[:i])
	}
}

// probeStat is [Probe] with [Stat]'s error where it is returned: a
// missing name gives Probe's (a MemFS's bare ENOENT, which errors.Is
// matches as fs.ErrNotExist), any other failure Stat's *fs.PathError
// (which a MemFS makes again; other file systems' Probe returns it).
func probeStat(fsys FS, name string) (fs.FileMode, error) {
	mode, err := Probe(fsys, name)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return mode, err
	}
	if _, mem := fsys.(*MemFS); mem {
		if _, serr := Stat(fsys, name); serr != nil {
			return 0, serr
		}
	}
	return 0, err
}

// syncDirOf commits the directory of name after a new entry was made
// there: the directory of name as written, so that the entry the caller
// made is the one committed.
func syncDirOf(fsys FS, name string) error { return SyncDir(fsys, path.Dir(name)) }
