package composite

import (
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
)

const suffixAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// DefaultMaxAge is the age beyond which [Sweep] removes a composite root.
const DefaultMaxAge = 7 * 24 * time.Hour

// CreateRoot creates an empty composite root
// <tempDir>/outfitter-<profile>-<agent>-XXXXXX, like mkdtemp, with a
// six-character [A-Za-z0-9] suffix drawn from random (crypto/rand when nil).
func CreateRoot(fsys vfs.FS, tempDir, profile, agent string, random io.Reader) (string, error) {
	if random == nil {
		random = rand.Reader
	}
	prefix := vfs.Join(tempDir, "outfitter-"+profile+"-"+agent+"-")
	var lastErr error
	for range 100 {
		var buf [6]byte
		if _, err := io.ReadFull(random, buf[:]); err != nil {
			return "", &WriteError{Step: "mkdtemp", Path: prefix, Err: err}
		}
		var sb strings.Builder
		sb.Grow(len(prefix) + len(buf)) // a capacity only
		sb.WriteString(prefix)
		for _, b := range buf {
			sb.WriteByte(suffixAlphabet[int(b)%len(suffixAlphabet)])
		}
		name := sb.String()
		err := vfs.Mkdir(fsys, name, 0o700)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", &WriteError{Step: "mkdtemp", Path: name, Err: err}
		}
		lastErr = err
	}
	return "", &WriteError{Step: "mkdtemp", Path: prefix, Err: lastErr}
}

// Cleanup removes a composite root recursively without following symbolic
// links, so durable sources are never touched. A missing root is not an
// error.
func Cleanup(fsys vfs.FS, root string) error {
	// Clean first: a trailing slash must never turn a root the agent
	// replaced by a link into the link's target.
	return vfs.RemoveAll(fsys, path.Clean(root))
}

// LockRoot takes the lock of a live composite root: the advisory lock
// ([vfs.LockFS]) of the root directory itself, so nothing is added to the
// root. A run holds it from the root's creation until it has removed it
// ([Run.Cleanup]; [Plan] creates and locks the root under the temporary
// directory's lock, see [Sweep]), and [Sweep] never removes a root whose
// lock is held, however old it looks. On the OS backend the kernel releases the
// lock when the process ends, so the root of a session that died is swept
// by age as before. A file system without locks gives a nil Unlocker and
// no error: its roots are swept by age alone, as upstream sweeps them.
func LockRoot(fsys vfs.FS, root string) (vfs.Unlocker, error) {
	u, err := vfs.TryLock(fsys, root)
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return nil, nil
	case err != nil:
		return nil, &WriteError{Step: "lock root", Path: root, Err: err}
	}
	return u, nil
}

// Sweep removes stale composite roots: real directories in dir whose name
// starts with "outfitter-", whose modification time is more than maxAge
// before now (maxAge zero means [DefaultMaxAge]), and whose lock is free.
// A root's modification time changes only when an entry at its top level
// is added, removed or renamed, so the root of a session left open for
// days can look stale while its agent works below it; the run holds the
// root's lock for its whole life ([LockRoot]), and Sweep skips a root
// whose lock is held, whatever its age: a live session's root is never
// removed (upstream removes by age alone). Sweep takes the lock of a root
// before it removes it and holds it meanwhile, so two sweeps never remove
// one root at once. A root is open for a moment between its creation and
// its lock, when it looks stale to a sweep whose clock runs ahead of the
// file times: Sweep tries the lock of a root while it holds the lock of
// dir itself, which [Plan] holds from before it creates its root until it
// has locked it, so Sweep sees a root either not there yet or locked. On
// a file system without locks ([vfs.LockFS]) roots are removed by age
// alone. Links and fresh entries survive; errors are
// ignored. It returns the removed paths.
func Sweep(fsys vfs.FS, dir string, now time.Time, maxAge time.Duration) []string {
	if maxAge == 0 {
		maxAge = DefaultMaxAge
	}
	list, err := vfs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range list {
		if !strings.HasPrefix(e.Name(), "outfitter-") {
			continue
		}
		p := vfs.Join(dir, e.Name())
		fi, err := vfs.Lstat(fsys, p)
		if err != nil || !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		if now.Sub(fi.ModTime()) <= maxAge {
			continue
		}
		u, err := tryLockRoot(fsys, dir, p)
		if err != nil && !errors.Is(err, errors.ErrUnsupported) {
			continue // a live session's root, or one that cannot be locked
		}
		if vfs.RemoveAll(fsys, p) == nil {
			removed = append(removed, p)
		}
		if u != nil {
			_ = u.Unlock()
		}
	}
	return removed
}

// tryLockRoot tries the lock of the root p in dir while it holds the lock
// of dir, which [createLockedRoot] holds across a root's creation and
// lock (see [Sweep]). The lock of dir is held only for the try, which
// never waits, so neither side waits for long.
func tryLockRoot(fsys vfs.FS, dir, p string) (vfs.Unlocker, error) {
	d, err := vfs.Lock(fsys, dir)
	if err != nil {
		return nil, err
	}
	u, err := vfs.TryLock(fsys, p)
	if uerr := d.Unlock(); uerr != nil && err == nil {
		_ = u.Unlock()
		return nil, uerr
	}
	return u, err
}

// createLockedRoot creates a composite root ([CreateRoot]) and takes its
// lock ([LockRoot]) while it holds the lock of tempDir itself, so that no
// [Sweep] tries the lock of the root between the two, when the new root
// is there, unlocked, and looks stale to a clock that runs ahead. The
// lock of the directory adds nothing to it, where a temporary name out of
// the sweep's reach, renamed into place once locked, would need a rename
// that never replaces an existing empty root. A tempDir that is not a
// directory is not locked (a lock would create a file there): the
// creation fails as it would. On a file system without locks the root is
// created and left unlocked, as [LockRoot] leaves it.
func createLockedRoot(fsys vfs.FS, tempDir, profile, agent string, random io.Reader) (string, vfs.Unlocker, error) {
	var dirLock vfs.Unlocker
	if fi, err := vfs.Stat(fsys, tempDir); err == nil && fi.IsDir() {
		u, err := vfs.Lock(fsys, tempDir)
		switch {
		case err == nil:
			dirLock = u
		case !errors.Is(err, errors.ErrUnsupported):
			return "", nil, &WriteError{Step: "lock temporary directory", Path: tempDir, Err: err}
		}
	}
	root, err := CreateRoot(fsys, tempDir, profile, agent, random)
	var lock vfs.Unlocker
	if err == nil {
		if lock, err = LockRoot(fsys, root); err != nil {
			_ = Cleanup(fsys, root)
		}
	}
	if dirLock != nil {
		if uerr := dirLock.Unlock(); uerr != nil && err == nil {
			err = &WriteError{Step: "unlock temporary directory", Path: tempDir, Err: uerr}
			_ = Cleanup(fsys, root)
			if lock != nil {
				_ = lock.Unlock()
			}
		}
	}
	if err != nil {
		return "", nil, err
	}
	return root, lock, nil
}
