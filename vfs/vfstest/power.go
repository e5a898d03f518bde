package vfstest

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
)

// PowerSweep cuts the power at every operation of a run and checks what
// the disk then holds, in the model of [faultfs.FS.TrackDurability]: every
// entry outside Ignore is as it was before the run or as the run leaves
// it, whole (a temporary file named like [vfs.IsStrayTemp]'s, or an empty
// lock file of [vfs.LockFile], may be left beside them); and once the run has returned, the disk holds everything
// the run wrote.
type PowerSweep struct {
	// Base is the machine before the run; each cut runs on a clone.
	Base *vfs.MemFS
	// Run is the run under test, on the file system it is given.
	Run func(fsys *faultfs.FS) error
	// Ordering is the model's ordering; "" is [faultfs.OrderJournal].
	Ordering faultfs.Ordering
	// Ignore lists absolute directories whose content is temporary by
	// design (a composite root): neither checked nor required durable.
	Ignore []string
	// Between, when not nil, accepts other whole states an entry may
	// have on the disk in the middle of the run (a default content the
	// run writes before the new one): it is given the absolute name and
	// the entry.
	Between func(name string, e vfs.Entry) bool
	// Changes, when not nil, lists the absolute names (files or
	// directories, with all below them) that the run may change outside
	// Ignore; a run that changes anything else fails the sweep.
	Changes []string
}

// PowerReport is what a [PowerSweep] did and found.
type PowerReport struct {
	// Ops is the number of operations of the run without faults; Cuts
	// the number of points the power was cut at (before each operation
	// and after the last), Disks the number of disk states checked.
	Ops, Cuts, Disks int
	// Changed lists the absolute names outside Ignore that the run
	// without faults changed (made, rewrote or removed), sorted.
	Changed []string
	// Problems describes each disk state that breaks the rule, with the
	// cut that made it.
	Problems []string
}

// Check runs the sweep and reports every problem through tb; it returns
// the report so that callers can check its size.
func (s PowerSweep) Check(tb TB) PowerReport {
	tb.Helper()
	r := s.Sweep(tb)
	for i, p := range r.Problems {
		if i == 10 {
			tb.Errorf("... and %d more problems", len(r.Problems)-i)
			break
		}
		tb.Errorf("%s", p)
	}
	return r
}

// Sweep runs the sweep and returns its report; a run that fails without
// faults, or a model that cannot follow it, stops the test through tb.
func (s PowerSweep) Sweep(tb TB) PowerReport {
	tb.Helper()
	order := s.Ordering
	if order == "" {
		order = faultfs.OrderJournal
	}
	before := Snapshot(tb, s.Base, "/")
	ref := s.Base.Clone()
	rf := faultfs.New(ref)
	if err := rf.TrackDurability(order); err != nil {
		tb.Fatalf("vfstest: power sweep: %v", err)
		return PowerReport{}
	}
	if err := s.Run(rf); err != nil {
		tb.Fatalf("vfstest: power sweep: the run without faults failed: %v", err)
		return PowerReport{}
	}
	after := Snapshot(tb, ref, "/")
	r := PowerReport{Ops: rf.Count()}
	for _, p := range union(before, after) {
		b, inB := before[p]
		a, inA := after[p]
		if s.ignored(p) || (inB == inA && b.Equal(a)) {
			continue
		}
		r.Changed = append(r.Changed, "/"+p)
		if s.Changes != nil && !s.allowed(p) {
			r.Problems = append(r.Problems, fmt.Sprintf("the run changed /%s, outside what it may change", p))
		}
	}
	// The completed run: everything it wrote is on the disk.
	disk, err := rf.PowerCut()
	if err != nil {
		tb.Fatalf("vfstest: power sweep: %v", err)
		return r
	}
	r.Disks++
	for _, p := range union(after, disk) {
		if s.ignored(p) {
			continue
		}
		a, inA := after[p]
		d, inD := disk[p]
		if inA != inD || !a.Equal(d) {
			r.Problems = append(r.Problems, fmt.Sprintf("cut after the run returned: /%s is %s on the disk, want the run's %s", p, describe(d, inD), describe(a, inA)))
		}
	}
	for n := range r.Ops + 1 {
		m := s.Base.Clone()
		f := faultfs.New(m, faultfs.CrashAfter(n, 0, vfs.ErrIO))
		if err := f.TrackDurability(order); err != nil {
			tb.Fatalf("vfstest: power sweep: %v", err)
			return r
		}
		_ = s.Run(f)
		disks, err := f.PowerCuts()
		if err != nil {
			tb.Fatalf("vfstest: power sweep, cut after op %d: %v", n, err)
			return r
		}
		r.Cuts++
		ops := f.Ops()
		at := "the start"
		if n > 0 && n <= len(ops) {
			op := ops[n-1]
			at = fmt.Sprintf("op %d (%s %s)", n, op.Kind, op.Path)
		}
		for k, disk := range disks {
			r.Disks++
			for _, p := range union(before, after, disk) {
				if s.ignored(p) {
					continue
				}
				b, inB := before[p]
				a, inA := after[p]
				d, inD := disk[p]
				switch {
				case inD == inB && (!inD || d.Equal(b)):
				case inD == inA && (!inD || d.Equal(a)):
				case inD && !inB && leftover(path.Base(p), d):
				case inD && s.Between != nil && s.Between("/"+p, d):
				default:
					r.Problems = append(r.Problems, fmt.Sprintf("cut after %s, %d pending changes committed: /%s is %s on the disk, want the old %s or the new %s",
						at, k, p, describe(d, inD), describe(b, inB), describe(a, inA)))
				}
			}
		}
	}
	return r
}

func (s PowerSweep) ignored(rel string) bool { return under("/"+rel, s.Ignore) }

func (s PowerSweep) allowed(rel string) bool {
	p := "/" + rel
	if under(p, s.Changes) {
		return true
	}
	// The directories above an allowed name may be made for it, and a
	// temporary file may be left beside it.
	for _, c := range s.Changes {
		if strings.HasPrefix(c, p+"/") || (path.Dir(c) == path.Dir(p) && strayTemp(path.Base(p))) {
			return true
		}
	}
	return false
}

// under reports whether p is one of dirs or below one.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

// leftover reports a file a run cut short may leave beside the durable
// ones: a temporary file of [vfs.ReplaceFile] (removed by the next write of
// its name), or an empty lock file of [vfs.LockFile] (taken as it is by the
// next lock).
func leftover(name string, e vfs.Entry) bool {
	switch e.Type {
	case vfs.TypeFile:
		return strayTemp(name) || strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".lock") && len(e.Data) == 0
	case vfs.TypeSymlink:
		return strayTemp(name)
	}
	return false
}

// strayTemp reports a name [vfs.ReplaceFile] gives its temporary files.
func strayTemp(name string) bool {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".tmp") {
		return false
	}
	rest := strings.TrimSuffix(name[1:], ".tmp")
	i := strings.LastIndexByte(rest, '.')
	return i > 0 && vfs.IsStrayTemp(name, rest[:i])
}

func describe(e vfs.Entry, ok bool) string {
	switch {
	case !ok:
		return "absent"
	case e.Type == vfs.TypeFile:
		return fmt.Sprintf("file %q (%o)", e.Data, e.Mode)
	case e.Type == vfs.TypeSymlink:
		return fmt.Sprintf("link to %q", e.Target)
	}
	return fmt.Sprintf("%s (%o)", e.Type, e.Mode)
}

func union(trees ...vfs.Tree) []string {
	var keys []string
	for _, t := range trees {
		for k := range t {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
