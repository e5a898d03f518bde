package vfs

import (
	"bytes"
	"io/fs"
	"slices"
	"strings"
)

// replaceInPlace is [ReplaceFile] (and [ReplaceFileIf] when cond is not
// nil) on a MemFS in one step under its lock, for the common case: a
// Linux MemFS, a name whose directory exists, nothing at the name or a
// regular file, and beside it neither the lock file of its replacements
// (held by another session, or left by a dead one) nor a temporary file
// a dead writer left. Done is false, and nothing is changed, in every
// other case: the caller goes the general way, whose errors and cleanup
// stay the only ones.
//
// What readers and other sessions can see is the general way's: the name
// holds the old file or the new one, whole (the MemFS's lock makes the
// step atomic); the new file is a new inode with mode perm exactly (no
// umask), as the temporary file renamed into place is; a replacement
// through the general way holds the lock file while it works, so this
// one falls back and waits for it; and one sync of the file and one of
// its directory are counted, as [Sync] and [SyncDir] count them. The
// temporary file and the lock file, which would exist only while the
// call runs, are not made. cond is called without the MemFS's lock held
// (it may use the file system), and again if the name changed meanwhile:
// the replacement happens only while the name holds what cond last
// approved.
func (m *MemFS) replaceInPlace(name string, data []byte, perm fs.FileMode, cond func(current []byte, exists bool) bool) (done, replaced bool) {
	if m.p != nil || nameErr(name) != nil || strings.HasSuffix(name, "/") || endsWithDot(name) {
		return false, false
	}
	// The temporary name (".NAME." and up to ten digits and ".tmp") must
	// be one the general way could make.
	if i := strings.LastIndexByte(name, '/'); len(name)-i-1+16 > NameMax || len(name)+16 >= PathMax {
		return false, false
	}
	var seen []byte
	seenExists, checked := false, cond == nil
	for {
		m.mu.Lock()
		res, err := m.walk(name, walkChain|walkParent)
		if err != nil || res.parent == nil || res.n != nil && !res.n.mode.IsRegular() || !quietDir(res.parent, res.base) {
			m.mu.Unlock()
			return false, false
		}
		if !checked || cond != nil && (seenExists != (res.n != nil) || seenExists && !bytes.Equal(seen, res.n.data)) {
			seenExists = res.n != nil
			seen = nil
			if seenExists {
				seen = slices.Clone(res.n.data)
			}
			m.mu.Unlock()
			if !cond(seen, seenExists) {
				return true, false
			}
			checked = true
			continue
		}
		dir := m.mutableDir(res.chain())
		n := m.newNode(perm.Perm())
		n.data = m.slab.clone(data)
		n.ownData.Store(true)
		m.setChild(dir, res.base, n)
		dir.mtime = n.mtime
		m.mu.Unlock()
		m.syncs.files.Add(1)
		m.syncs.dirs.Add(1)
		return true, true
	}
}

// quietDir reports whether the directory dir holds neither the lock file
// of the replacements of base nor a regular file or link named as a
// temporary file of base ([IsStrayTemp]); the caller holds m.mu. It
// allocates nothing.
func quietDir(dir *node, base string) bool {
	quiet := func(name string, n *node) bool {
		rest, ok := strings.CutPrefix(name, ".")
		if !ok || !strings.HasPrefix(rest, base) || len(rest) == len(base) || rest[len(base)] != '.' {
			return true
		}
		if rest[len(base):] == ".replace.lock" {
			return false
		}
		b, stray := strayBase(name)
		return !stray || b != base || !n.mode.IsRegular() && !n.isSymlink()
	}
	if dir.big != nil {
		for name, n := range dir.big {
			if !quiet(name, n) {
				return false
			}
		}
		return true
	}
	// The names that start with "."+base+"." sort together, from the
	// first name not before "."+base.
	list := dir.children
	lo, hi := 0, len(list)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if cmpDot(list[h].name, base) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	for _, e := range list[lo:] {
		if !strings.HasPrefix(e.name, ".") || !strings.HasPrefix(e.name[1:], base) {
			break
		}
		if !quiet(e.name, e.n) {
			return false
		}
	}
	return true
}

// cmpDot compares name with "."+base, as strings.Compare would, without
// making the string.
func cmpDot(name, base string) int {
	switch {
	case name == "" || name[0] < '.':
		return -1
	case name[0] > '.':
		return 1
	}
	return strings.Compare(name[1:], base)
}
