package faultfs

import "github.com/outfitter-go/vfsim/vfs"

// KindLock is the operation of Lock and TryLock: taking an advisory lock
// ([vfs.LockFS]). It counts as mutating, since it creates a missing lock
// file. Its errors have the verb "flock". Releasing a lock is not an
// operation of the FS and never fails by a rule.
const KindLock Kind = "flock"

var _ vfs.LockFS = (*FS)(nil)

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
