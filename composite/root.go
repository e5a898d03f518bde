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
// root. A run holds it from just after it creates the root until it has
// removed it ([Run.Cleanup]; [Plan] makes another root if a sweep took
// its new one before the lock, see [Sweep]), and [Sweep] never removes a
// root whose lock is held, however old it looks. On the OS backend the kernel releases the
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
// one root at once. A root is unlocked for a moment between its creation
// and its lock, when it looks stale to a sweep whose clock runs ahead of
// the file times; if a sweep removes it then, [Plan] finds its root gone
// when it locks it and makes another. On a file system without locks
// ([vfs.LockFS]) roots are removed by age alone. Links and fresh entries survive; errors are
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
		u, err := vfs.TryLock(fsys, p)
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

// rootAttempts bounds the roots [createLockedRoot] makes when sweeps keep
// taking them before their lock.
const rootAttempts = 8

// errRootSwept reports that sweeps took every root createLockedRoot made
// before it could lock it.
var errRootSwept = errors.New("swept before it was locked, every time")

// createLockedRoot creates a composite root ([CreateRoot]) and takes its
// lock ([LockRoot]). Between the two the new root is there, unlocked, and
// looks stale to a [Sweep] whose clock runs ahead of the file times,
// which may lock and remove it. The lock then finds the sweep's lock
// held, or no directory at the name (the lock of a missing name creates a
// file there, which is removed): the root is made again under a new name,
// at most rootAttempts times. Nothing is locked but the root itself, so
// no other session, and no other user of a shared temporary directory,
// can make Plan or Sweep wait. On a file system without locks the root is
// created and left unlocked, as [LockRoot] leaves it.
func createLockedRoot(fsys vfs.FS, tempDir, profile, agent string, random io.Reader) (string, vfs.Unlocker, error) {
	for attempt := 1; ; attempt++ {
		root, err := CreateRoot(fsys, tempDir, profile, agent, random)
		if err != nil {
			return "", nil, err
		}
		lock, err := LockRoot(fsys, root)
		switch {
		case errors.Is(err, vfs.ErrLocked):
			// A sweep holds it: it is removing the root.
		case err != nil:
			_ = Cleanup(fsys, root)
			return "", nil, err
		case lock == nil:
			return root, nil, nil
		default:
			fi, err := vfs.Lstat(fsys, root)
			if err == nil && fi.IsDir() {
				return root, lock, nil
			}
			// Swept before the lock, which made a file at the name.
			if err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
				_ = vfs.Remove(fsys, root)
			}
			_ = lock.Unlock()
		}
		if attempt == rootAttempts {
			return "", nil, &WriteError{Step: "lock root", Path: root, Err: errRootSwept}
		}
	}
}
