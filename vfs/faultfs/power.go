package faultfs

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sync"

	"github.com/outfitter-go/vfsim/vfs"
)

// Ordering is how much of what was not synced a disk may hold after a
// power cut, in the model [FS.TrackDurability] keeps.
type Ordering string

// The orderings.
const (
	// OrderSynced is the POSIX minimum: a file's data and attributes are
	// on the disk once the file was synced, a new, renamed or removed
	// name once its directory was synced; nothing else is.
	OrderSynced Ordering = "synced"
	// OrderJournal adds what a journaling file system (ext4, XFS) may
	// have committed on its own before the cut: any prefix, in order, of
	// the metadata changes not yet synced (names made, renamed, removed;
	// modes; truncations), while file data still reaches the disk only
	// through a sync. It is the ordering under which a file renamed over
	// another before its data was synced comes back empty.
	OrderJournal Ordering = "journal"
)

// TrackDurability starts the power-cut model: besides the visible tree
// (the wrapped FS), f keeps the tree a disk would hold if the power were
// cut now. Everything the wrapped FS holds when it is called counts as on
// the disk; from then on a change reaches the disk only as ordering
// allows. [FS.PowerCut] and [FS.PowerCuts] return the disk.
//
// The wrapped FS must give inode numbers ([vfs.Inode]; a [vfs.MemFS]
// does), and every change to it must go through f. While the model runs,
// f serializes its mutating operations. The model follows names, not
// file handles: a file is synced through the name it was opened with
// (still naming it) or its handle's ReadAt; a Sync it cannot attribute
// makes PowerCut fail rather than guess. A write through a dangling final
// link, which creates the file elsewhere, is not followed.
func (f *FS) TrackDurability(ordering Ordering) error {
	if ordering != OrderSynced && ordering != OrderJournal {
		return fmt.Errorf("faultfs: unknown ordering %q", ordering)
	}
	p := &power{fsys: f, order: ordering, disk: map[uint64]*dnode{}}
	root, err := p.load("/")
	if err != nil {
		return err
	}
	p.root = root
	f.mu.Lock()
	f.power = p
	f.mu.Unlock()
	return nil
}

// PowerCut returns the tree the disk holds if the power is cut now with
// nothing but the syncs done so far committed (the first tree of
// [FS.PowerCuts]), keyed by paths relative to "/". It fails when
// [FS.TrackDurability] was not called or the model lost track of a file.
func (f *FS) PowerCut() (vfs.Tree, error) {
	trees, err := f.powerCuts(1)
	if err != nil {
		return nil, err
	}
	return trees[0], nil
}

// PowerCuts returns every tree the disk may hold if the power is cut now,
// under the ordering given to [FS.TrackDurability]: for [OrderSynced] the
// one tree of [FS.PowerCut]; for [OrderJournal] that tree with each
// prefix of the pending metadata changes committed as well, from none to
// all of them.
func (f *FS) PowerCuts() ([]vfs.Tree, error) { return f.powerCuts(-1) }

func (f *FS) powerCuts(limit int) ([]vfs.Tree, error) {
	f.mu.Lock()
	p := f.power
	f.mu.Unlock()
	if p == nil {
		return nil, errors.New("faultfs: PowerCut without TrackDurability")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lost != nil {
		return nil, p.lost
	}
	disk := cloneDisk(p.disk)
	n := 1
	if p.order == OrderJournal {
		n += len(p.pending)
	}
	if limit > 0 {
		n = min(n, limit)
	}
	trees := make([]vfs.Tree, 0, n)
	for k := range n {
		if k > 0 {
			for _, e := range p.pending[k-1] {
				if !e.done {
					e.apply(disk)
				}
			}
		}
		t := vfs.Tree{}
		materialize(disk, p.root, "", t, map[uint64]bool{})
		trees = append(trees, t)
	}
	return trees, nil
}

// power is the model of the disk under an [FS].
type power struct {
	fsys  *FS
	order Ordering

	// mu serializes the mutating operations while they are observed.
	mu sync.Mutex
	// disk is the disk by inode; root is the root directory's inode.
	disk map[uint64]*dnode
	root uint64
	// pending is the journal of metadata changes not yet on the disk,
	// one entry per operation.
	pending [][]*effect
	// lost is set when a sync could not be attributed.
	lost error
}

// dnode is an inode as the disk holds it.
type dnode struct {
	mode    fs.FileMode // type bits and permissions
	data    []byte
	target  string
	entries map[string]uint64
}

func (n *dnode) clone() *dnode {
	c := *n
	c.entries = maps.Clone(n.entries)
	return &c
}

func cloneDisk(d map[uint64]*dnode) map[uint64]*dnode {
	c := make(map[uint64]*dnode, len(d))
	for ino, n := range d {
		c[ino] = n.clone()
	}
	return c
}

// effectKind is what a metadata change does.
type effectKind int

const (
	effLink   effectKind = iota // dir's entry name now names ino (node: its attributes when new)
	effUnlink                   // dir's entry name is gone
	effChmod                    // ino's permissions are perm
	effTrunc                    // ino's data is empty
)

// effect is one metadata change; done once it reached the disk.
type effect struct {
	kind effectKind
	dir  uint64
	name string
	ino  uint64
	node dnode // attributes of a linked inode not yet on the disk
	perm fs.FileMode
	// dirMode is the mode of the directory dir.
	dirMode fs.FileMode
	done    bool
}

// apply makes e's change in disk. A directory not on the disk yet (made
// but not yet named there) is put on it, unnamed, so that its entries
// are kept for when its name is committed.
func (e *effect) apply(disk map[uint64]*dnode) {
	switch e.kind {
	case effLink:
		d := e.dirNode(disk)
		if d == nil {
			return
		}
		if _, ok := disk[e.ino]; !ok {
			n := e.node
			if n.mode.IsDir() {
				n.entries = map[string]uint64{}
			}
			disk[e.ino] = &n
		}
		d.entries[e.name] = e.ino
	case effUnlink:
		if d := e.dirNode(disk); d != nil {
			delete(d.entries, e.name)
		}
	case effChmod:
		if n := disk[e.ino]; n != nil {
			n.mode = n.mode.Type() | e.perm
		}
	case effTrunc:
		if n := disk[e.ino]; n != nil {
			n.data = nil
		}
	}
}

// dirNode returns the directory e changes, put on disk if it is not
// there yet, or nil if the disk has another kind of file at its inode.
func (e *effect) dirNode(disk map[uint64]*dnode) *dnode {
	d := disk[e.dir]
	if d == nil {
		d = &dnode{mode: e.dirMode, entries: map[string]uint64{}}
		disk[e.dir] = d
	}
	if d.entries == nil {
		return nil
	}
	return d
}

// materialize adds the tree below inode dir, named rel, to t; seen guards
// against a directory that partial syncs left inside itself.
func materialize(disk map[uint64]*dnode, dir uint64, rel string, t vfs.Tree, seen map[uint64]bool) {
	d := disk[dir]
	if d == nil || seen[dir] {
		return
	}
	seen[dir] = true
	defer delete(seen, dir)
	for name, ino := range d.entries {
		n := disk[ino]
		if n == nil {
			continue
		}
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		switch {
		case n.mode.IsDir():
			t[p] = vfs.Entry{Type: vfs.TypeDir, Mode: n.mode.Perm()}
			materialize(disk, ino, p, t, seen)
		case n.mode&fs.ModeSymlink != 0:
			t[p] = vfs.Entry{Type: vfs.TypeSymlink, Target: n.target}
		default:
			t[p] = vfs.Entry{Type: vfs.TypeFile, Mode: n.mode.Perm(), Data: n.data}
		}
	}
}

// load reads the tree below name from the wrapped FS onto the disk and
// returns name's inode.
func (p *power) load(name string) (uint64, error) {
	inner := p.fsys.inner
	fi, err := vfs.Lstat(inner, name)
	if err != nil {
		return 0, err
	}
	ino, ok := vfs.Inode(fi)
	if !ok {
		return 0, fmt.Errorf("faultfs: %s: the wrapped file system gives no inode numbers", name)
	}
	n := &dnode{mode: fi.Mode().Type() | fi.Mode().Perm()}
	switch {
	case fi.IsDir():
		n.entries = map[string]uint64{}
		list, err := vfs.ReadDir(inner, name)
		if err != nil {
			return 0, err
		}
		for _, e := range list {
			child, err := p.load(path.Join(name, e.Name()))
			if err != nil {
				return 0, err
			}
			n.entries[e.Name()] = child
		}
	case fi.Mode()&fs.ModeSymlink != 0:
		if n.target, err = vfs.ReadLink(inner, name); err != nil {
			return 0, err
		}
	case fi.Mode().IsRegular():
		if n.data, err = vfs.ReadFile(inner, name); err != nil {
			return 0, err
		}
	}
	p.disk[ino] = n
	return ino, nil
}

// ventry is a directory entry as the wrapped FS shows it.
type ventry struct {
	ino  uint64
	node dnode // mode and target; no data, no entries
}

// dirState reads the entries of the directory name, following links; a
// name that is not a directory reads as none.
func (p *power) dirState(name string) (uint64, fs.FileMode, map[string]ventry) {
	inner := p.fsys.inner
	fi, err := vfs.Stat(inner, name)
	if err != nil || !fi.IsDir() {
		return 0, 0, nil
	}
	dir, ok := vfs.Inode(fi)
	if !ok {
		return 0, 0, nil
	}
	mode := fi.Mode().Type() | fi.Mode().Perm()
	list, err := vfs.ReadDir(inner, name)
	if err != nil {
		return dir, mode, nil
	}
	out := make(map[string]ventry, len(list))
	for _, e := range list {
		info, err := e.Info()
		if err != nil {
			continue
		}
		ino, ok := vfs.Inode(info)
		if !ok {
			continue
		}
		v := ventry{ino: ino, node: dnode{mode: info.Mode().Type() | info.Mode().Perm()}}
		if info.Mode()&fs.ModeSymlink != 0 {
			v.node.target, _ = vfs.ReadLink(inner, path.Join(name, e.Name()))
		}
		out[e.Name()] = v
	}
	return dir, mode, out
}

// change is what an operation may change, for the model to observe.
type change struct {
	// dirs are the directories whose entries it may change.
	dirs []string
	// trunc names a file it truncates; chmod one whose mode it sets.
	trunc, chmod string
}

// parent returns the directory of name.
func parent(name string) string { return path.Dir(path.Clean(name)) }

// ancestors returns every directory above name, from the root down.
func ancestors(name string) []string {
	var out []string
	for d := parent(name); ; d = path.Dir(d) {
		out = append(out, d)
		if d == "/" || d == "." {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// observe runs op, recording in the model the metadata changes it makes.
func (f *FS) observe(c change, op func() error) error {
	f.mu.Lock()
	p := f.power
	f.mu.Unlock()
	if p == nil {
		return op()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	before := map[uint64]map[string]ventry{}
	for _, d := range c.dirs {
		if ino, _, st := p.dirState(d); st != nil {
			before[ino] = st
		}
	}
	truncIno := uint64(0)
	if c.trunc != "" {
		if fi, err := vfs.Stat(f.inner, c.trunc); err == nil && fi.Mode().IsRegular() {
			truncIno, _ = vfs.Inode(fi)
		}
	}
	err := op()
	var effs []*effect
	seen := map[uint64]bool{}
	for _, d := range c.dirs {
		dir, mode, after := p.dirState(d)
		if after == nil || seen[dir] {
			continue
		}
		seen[dir] = true
		old := before[dir]
		for _, name := range sortedKeys(old) {
			if _, ok := after[name]; !ok {
				effs = append(effs, &effect{kind: effUnlink, dir: dir, dirMode: mode, name: name})
			}
		}
		for _, name := range sortedKeys(after) {
			v := after[name]
			if o, ok := old[name]; ok && o.ino == v.ino {
				continue
			}
			effs = append(effs, &effect{kind: effLink, dir: dir, dirMode: mode, name: name, ino: v.ino, node: v.node})
		}
	}
	if truncIno != 0 {
		if fi, err := vfs.Stat(f.inner, c.trunc); err == nil {
			if ino, _ := vfs.Inode(fi); ino == truncIno {
				effs = append(effs, &effect{kind: effTrunc, ino: ino})
			}
		}
	}
	if c.chmod != "" {
		if fi, err := vfs.Stat(f.inner, c.chmod); err == nil {
			if ino, ok := vfs.Inode(fi); ok {
				effs = append(effs, &effect{kind: effChmod, ino: ino, perm: fi.Mode().Perm()})
			}
		}
	}
	if len(effs) > 0 {
		p.pending = append(p.pending, effs)
	}
	return err
}

func sortedKeys(m map[string]ventry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// syncedDir commits the pending entry changes of the directory name.
func (f *FS) syncedDir(name string) {
	f.mu.Lock()
	p := f.power
	f.mu.Unlock()
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fi, err := vfs.Stat(f.inner, name)
	if err != nil {
		return
	}
	dir, ok := vfs.Inode(fi)
	if !ok {
		return
	}
	for _, entry := range p.pending {
		for _, e := range entry {
			if !e.done && (e.kind == effLink || e.kind == effUnlink) && e.dir == dir {
				e.apply(p.disk)
				e.done = true
			}
		}
	}
	p.compact()
}

// synced commits the data and attributes of the open file fl.
func (f *FS) synced(fl *file) {
	f.mu.Lock()
	p := f.power
	f.mu.Unlock()
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fi, err := fl.f.Stat()
	if err != nil {
		p.lost = fmt.Errorf("faultfs: sync of %s: %w", fl.name, err)
		return
	}
	ino, ok := vfs.Inode(fi)
	if !ok {
		p.lost = fmt.Errorf("faultfs: sync of %s: no inode number", fl.name)
		return
	}
	var data []byte
	if fi.Mode().IsRegular() {
		data, err = p.contents(fl, ino, fi.Size())
		if err != nil {
			p.lost = fmt.Errorf("faultfs: sync of %s: %w", fl.name, err)
			return
		}
	}
	n := p.disk[ino]
	if n == nil {
		n = &dnode{}
		if fi.IsDir() {
			n.entries = map[string]uint64{}
		}
		p.disk[ino] = n
	}
	n.mode = fi.Mode().Type() | fi.Mode().Perm()
	if fi.Mode().IsRegular() {
		n.data = data
	}
	for _, entry := range p.pending {
		for _, e := range entry {
			if !e.done && (e.kind == effChmod || e.kind == effTrunc) && e.ino == ino {
				e.done = true
			}
		}
	}
	p.compact()
}

// contents reads the current data of the file open as fl, inode ino.
func (p *power) contents(fl *file, ino uint64, size int64) ([]byte, error) {
	inner := p.fsys.inner
	if fi, err := vfs.Stat(inner, fl.name); err == nil {
		if i, _ := vfs.Inode(fi); i == ino {
			return vfs.ReadFile(inner, fl.name)
		}
	}
	if r, ok := fl.f.(interface {
		ReadAt([]byte, int64) (int, error)
	}); ok {
		buf := make([]byte, size)
		n, err := r.ReadAt(buf, 0)
		if n == len(buf) {
			return buf, nil
		}
		return nil, err
	}
	return nil, errors.New("the file's name no longer names it and its handle cannot be read")
}

// compact drops the journal entries whose every change is on the disk.
func (p *power) compact() {
	out := p.pending[:0]
	for _, entry := range p.pending {
		for _, e := range entry {
			if !e.done {
				out = append(out, entry)
				break
			}
		}
	}
	clear(p.pending[len(out):])
	p.pending = out
}
