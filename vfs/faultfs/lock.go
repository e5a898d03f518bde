package faultfs

import "github.com/outfitter-go/vfsim/vfs"

// KindLock is the operation of Lock, TryLock, LockShared and
// TryLockShared: taking an advisory lock ([vfs.LockFS],
// [vfs.SharedLockFS]). It counts as mutating, since it creates a missing lock
// file. Its errors have the verb "flock". Releasing a lock is not an
// operation of the FS and never fails by a rule.
const KindLock Kind = "flock"

var _ vfs.SharedLockFS = (*FS)(nil)

// Lock takes the exclusive lock of the named file through the wrapped FS,
// waiting while another holder has it.
func (f *FS) Lock(name string) (vfs.Unlocker, error) {
	if err := f.begin(Op{Kind: KindLock, Path: name, Mutates: true}); err != nil {
		return nil, pathErr(KindLock, name, err)
	}
	return vfs.Lock(f.inner, name)
}

// TryLock takes the exclusive lock of the named file through the wrapped
// FS without waiting.
func (f *FS) TryLock(name string) (vfs.Unlocker, error) {
	if err := f.begin(Op{Kind: KindLock, Path: name, Mutates: true}); err != nil {
		return nil, pathErr(KindLock, name, err)
	}
	return vfs.TryLock(f.inner, name)
}

// LockShared takes a shared lock of the named file through the wrapped
// FS, waiting while an exclusive holder has it. A wrapped FS without
// [vfs.SharedLockFS] gives an error wrapping errors.ErrUnsupported, and
// no operation is counted.
func (f *FS) LockShared(name string) (vfs.Unlocker, error) {
	if _, ok := f.inner.(vfs.SharedLockFS); !ok {
		return vfs.LockShared(f.inner, name)
	}
	if err := f.begin(Op{Kind: KindLock, Path: name, Mutates: true}); err != nil {
		return nil, pathErr(KindLock, name, err)
	}
	return vfs.LockShared(f.inner, name)
}

// TryLockShared takes a shared lock of the named file through the wrapped
// FS without waiting; as LockShared, it counts no operation when the
// wrapped FS has no [vfs.SharedLockFS].
func (f *FS) TryLockShared(name string) (vfs.Unlocker, error) {
	if _, ok := f.inner.(vfs.SharedLockFS); !ok {
		return vfs.TryLockShared(f.inner, name)
	}
	if err := f.begin(Op{Kind: KindLock, Path: name, Mutates: true}); err != nil {
		return nil, pathErr(KindLock, name, err)
	}
	return vfs.TryLockShared(f.inner, name)
}
