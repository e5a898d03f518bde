package faultfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// fileTree is the machine the tests inject faults into: /d/f holding "F".
func fileTree() vfstest.Tree { return vfstest.Tree{"d/f": vfstest.File("F")} }

// every calls each operation of fsys once, on names that exist in
// fileTree, and returns the errors keyed by kind.
func every(fsys *faultfs.FS) map[faultfs.Kind]error {
	errs := map[faultfs.Kind]error{}
	f, err := fsys.Open("/d/f")
	errs[faultfs.KindOpen] = err
	if err == nil {
		f.Close()
	}
	g, err := fsys.OpenFile("/d/g", os.O_WRONLY|os.O_CREATE, 0o644)
	errs[faultfs.KindOpenFile] = err
	if err == nil {
		g.Close()
	}
	_, errs[faultfs.KindStat] = fsys.Stat("/d/f")
	_, errs[faultfs.KindLstat] = fsys.Lstat("/d/f")
	_, errs[faultfs.KindReadFile] = fsys.ReadFile("/d/f")
	_, errs[faultfs.KindReadDir] = fsys.ReadDir("/d")
	errs[faultfs.KindSymlink] = fsys.Symlink("f", "/d/l")
	_, errs[faultfs.KindReadLink] = fsys.ReadLink("/d/l")
	errs[faultfs.KindWriteFile] = fsys.WriteFile("/d/h", []byte("H"), 0o644)
	errs[faultfs.KindMkdir] = fsys.Mkdir("/d/m", 0o755)
	errs[faultfs.KindMkdirAll] = fsys.MkdirAll("/d/n/o", 0o755)
	errs[faultfs.KindChmod] = fsys.Chmod("/d/f", 0o600)
	errs[faultfs.KindChtimes] = fsys.Chtimes("/d/f", time.Time{}, time.Unix(1, 0))
	errs[faultfs.KindRename] = fsys.Rename("/d/h", "/d/i")
	errs[faultfs.KindRemove] = fsys.Remove("/d/m")
	errs[faultfs.KindRemoveAll] = fsys.RemoveAll("/d/n")
	return errs
}

var mutating = map[faultfs.Kind]bool{
	faultfs.KindOpenFile: true, faultfs.KindSymlink: true, faultfs.KindWriteFile: true,
	faultfs.KindMkdir: true, faultfs.KindMkdirAll: true, faultfs.KindChmod: true,
	faultfs.KindChtimes: true, faultfs.KindRename: true, faultfs.KindRemove: true,
	faultfs.KindRemoveAll: true,
}

func TestNoRulesForwardsEverything(t *testing.T) {
	t.Parallel()
	mem := vfstest.MemWith(t, "/", fileTree())
	fsys := faultfs.New(mem)
	for kind, err := range every(fsys) {
		if err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	got := vfstest.Snapshot(t, mem, "/d")
	want := vfs.Tree{
		"f": {Type: vfs.TypeFile, Mode: 0o600, Data: []byte("F")},
		"g": {Type: vfs.TypeFile, Mode: 0o644, Data: []byte{}},
		"i": {Type: vfs.TypeFile, Mode: 0o644, Data: []byte("H")},
		"l": {Type: vfs.TypeSymlink, Target: "f", TargetExists: true},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("inner tree (-want +got):\n%s", diff)
	}
}

func TestReadOnly(t *testing.T) {
	t.Parallel()
	mem := vfstest.MemWith(t, "/", fileTree())
	fsys := faultfs.New(mem, faultfs.ReadOnly())
	for kind, err := range every(fsys) {
		if mutating[kind] {
			if !errors.Is(err, vfs.ErrReadOnly) {
				t.Errorf("%s: %v, want EROFS", kind, err)
			}
			continue
		}
		if kind == faultfs.KindReadLink {
			// The link could not be created.
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %v, want ErrNotExist", kind, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want success", kind, err)
		}
	}
	if _, err := mem.Lstat("/d/g"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused OpenFile created the file: %v", err)
	}
}

func TestErrorShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind   faultfs.Kind
		want   error
		wantOp string
	}{
		{kind: faultfs.KindOpen, wantOp: "open"},
		{kind: faultfs.KindOpenFile, wantOp: "open"},
		{kind: faultfs.KindStat, wantOp: "stat"},
		{kind: faultfs.KindLstat, wantOp: "lstat"},
		{kind: faultfs.KindReadFile, wantOp: "open"},
		{kind: faultfs.KindReadDir, wantOp: "open"},
		{kind: faultfs.KindReadLink, wantOp: "readlink"},
		{kind: faultfs.KindWriteFile, wantOp: "open"},
		{kind: faultfs.KindMkdir, wantOp: "mkdir"},
		{kind: faultfs.KindMkdirAll, wantOp: "mkdir"},
		{kind: faultfs.KindRemove, wantOp: "remove"},
		{kind: faultfs.KindRemoveAll, wantOp: "unlinkat"},
		{kind: faultfs.KindRename, wantOp: "rename"},
		{kind: faultfs.KindSymlink, wantOp: "symlink"},
		{kind: faultfs.KindChmod, wantOp: "chmod"},
		{kind: faultfs.KindChtimes, wantOp: "chtimes"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			t.Parallel()
			fsys := faultfs.New(vfstest.MemWith(t, "/", fileTree()), faultfs.OnNthOf(tt.kind, 1, syscall.EACCES))
			err := every(fsys)[tt.kind]
			if !errors.Is(err, fs.ErrPermission) || !errors.Is(err, syscall.EACCES) {
				t.Fatalf("error %v does not match fs.ErrPermission and EACCES", err)
			}
			var pe *fs.PathError
			var le *os.LinkError
			switch {
			case errors.As(err, &pe):
				if pe.Op != tt.wantOp {
					t.Errorf("Op = %q, want %q", pe.Op, tt.wantOp)
				}
			case errors.As(err, &le):
				if le.Op != tt.wantOp || le.New == "" {
					t.Errorf("LinkError %#v, want Op %q and both names", le, tt.wantOp)
				}
			default:
				t.Errorf("error %T is neither *fs.PathError nor *os.LinkError", err)
			}
			injected := fsys.Injected()
			if len(injected) != 1 || injected[0].Kind != tt.kind {
				t.Errorf("Injected() = %+v, want one %s", injected, tt.kind)
			}
		})
	}
}

func TestNth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rule faultfs.Rule
		want []int // 1-based indexes of the failing calls among five ReadFiles and five Stats, interleaved
	}{
		{name: "nth overall", rule: faultfs.OnNth(3, vfs.ErrIO), want: []int{3}},
		{name: "nth of kind", rule: faultfs.OnNthOf(faultfs.KindStat, 2, vfs.ErrIO), want: []int{4}},
		{name: "predicate", rule: faultfs.When(func(op faultfs.Op) bool { return op.Kind == faultfs.KindReadFile }, vfs.ErrIO), want: []int{1, 3, 5, 7, 9}},
		{
			name: "nth of narrowed kind",
			rule: faultfs.OnNthOf(faultfs.KindReadFile, 2, vfs.ErrIO).If(func(op faultfs.Op) bool { return op.Path == "/d/f" }),
			want: []int{3},
		},
		{name: "beyond the count", rule: faultfs.OnNth(11, vfs.ErrIO), want: nil},
		{name: "zero rule", rule: faultfs.Rule{}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := faultfs.New(vfstest.MemWith(t, "/", fileTree()), tt.rule)
			var failed []int
			for i := 1; i <= 10; i++ {
				var err error
				if i%2 == 1 {
					_, err = fsys.ReadFile("/d/f")
				} else {
					_, err = fsys.Stat("/d/f")
				}
				if err != nil {
					if !errors.Is(err, vfs.ErrIO) {
						t.Fatalf("call %d: %v, want EIO", i, err)
					}
					failed = append(failed, i)
				}
			}
			if diff := cmp.Diff(tt.want, failed); diff != "" {
				t.Errorf("failing calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteFailsAfter(t *testing.T) {
	t.Parallel()
	mem := vfstest.MemWith(t, "/", fileTree())
	fsys := faultfs.New(mem, faultfs.WriteFailsAfter("/d/big", 5, vfs.ErrNoSpace))
	f, err := fsys.OpenFile("/d/big", os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	type write struct {
		N   int
		Err bool
	}
	var got []write
	for _, chunk := range []string{"abc", "defg", "hi"} {
		n, err := f.Write([]byte(chunk))
		if err != nil && !errors.Is(err, vfs.ErrNoSpace) {
			t.Fatalf("Write: %v, want ENOSPC", err)
		}
		got = append(got, write{N: n, Err: err != nil})
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	want := []write{{N: 3}, {N: 2, Err: true}, {N: 0, Err: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	data, err := mem.ReadFile("/d/big")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("abcde", string(data)); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	if n := len(fsys.Injected()); n != 2 {
		t.Errorf("Injected() has %d ops, want the 2 failed writes", n)
	}
	// Other files are not limited.
	if err := fsys.WriteFile("/d/other", []byte("0123456789"), 0o644); err != nil {
		t.Errorf("WriteFile of another file: %v", err)
	}
	// A file opened again takes n bytes again, and a Write that reaches
	// the mark without passing it succeeds.
	f, err = fsys.OpenFile("/d/big", os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Write([]byte("12345")); n != 5 || err != nil {
		t.Errorf("a Write up to the mark = %d, %v; want 5 and no error", n, err)
	}
	if n, err := f.Write([]byte("6")); n != 0 || !errors.Is(err, vfs.ErrNoSpace) {
		t.Errorf("a Write past the mark = %d, %v; want 0 and ENOSPC", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCloseFailureStillCloses(t *testing.T) {
	t.Parallel()
	fsys := faultfs.New(vfstest.MemWith(t, "/", fileTree()), faultfs.OnNthOf(faultfs.KindClose, 1, vfs.ErrIO))
	f, err := fsys.Open("/d/f")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); !errors.Is(err, vfs.ErrIO) {
		t.Fatalf("Close: %v, want EIO", err)
	}
	if _, err := f.Read(make([]byte, 1)); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Read after failed Close: %v, want ErrClosed", err)
	}
}

func TestLog(t *testing.T) {
	t.Parallel()
	fsys := faultfs.New(vfstest.MemWith(t, "/", fileTree()))
	_, _ = fsys.ReadFile("/d/f")
	_ = fsys.Rename("/d/f", "/d/g")
	f, err := fsys.OpenFile("/d/g", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	want := []faultfs.Op{
		{Seq: 1, Kind: faultfs.KindReadFile, Path: "/d/f"},
		{Seq: 2, Kind: faultfs.KindRename, Path: "/d/f", NewPath: "/d/g", Mutates: true},
		{Seq: 3, Kind: faultfs.KindOpenFile, Path: "/d/g"},
		{Seq: 4, Kind: faultfs.KindClose, Path: "/d/g"},
	}
	if diff := cmp.Diff(want, fsys.Ops()); diff != "" {
		t.Errorf("Ops (-want +got):\n%s", diff)
	}
	if got := fsys.Count(faultfs.KindReadFile); got != 1 {
		t.Errorf("Count(readfile) = %d, want 1", got)
	}
	fsys.ResetLog()
	_, _ = fsys.Stat("/d/g")
	if diff := cmp.Diff([]faultfs.Op{{Seq: 5, Kind: faultfs.KindStat, Path: "/d/g"}}, fsys.Ops()); diff != "" {
		t.Errorf("Ops after ResetLog (-want +got):\n%s", diff)
	}
}

func TestMissingCapability(t *testing.T) {
	t.Parallel()
	// openOnly hides every method of MapFS but Open.
	inner := openOnly{fstest.MapFS{"f": {Data: []byte("F")}}}
	fsys := faultfs.New(inner)
	tests := []struct {
		name string
		err  error
	}{
		{name: "symlink", err: fsys.Symlink("a", "/b")},
		{name: "lstat", err: second(fsys.Lstat("/b"))},
		{name: "readlink", err: second(fsys.ReadLink("/b"))},
		{name: "mkdir", err: fsys.Mkdir("/b", 0o755)},
		{name: "rename", err: fsys.Rename("/a", "/b")},
		{name: "chmod", err: fsys.Chmod("/b", 0o755)},
		{name: "writefile", err: fsys.WriteFile("/b", nil, 0o644)},
		{name: "flock", err: second(fsys.Lock("/b"))},
		{name: "tryflock", err: second(fsys.TryLock("/b"))},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, errors.ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", tt.name, tt.err)
		}
	}
	// Reads fall back to Open, as the vfs helpers do.
	data, err := fsys.ReadFile("f")
	if err != nil || string(data) != "F" {
		t.Errorf("ReadFile through Open = %q, %v", data, err)
	}
}

type openOnly struct{ fs.FS }

func second[T any](_ T, err error) error { return err }

func TestConcurrent(t *testing.T) {
	t.Parallel()
	fsys := faultfs.New(vfstest.MemWith(t, "/", fileTree()), faultfs.OnNthOf(faultfs.KindWriteFile, 50, vfs.ErrNoSpace))
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures := 0
	for i := range 10 {
		wg.Go(func() {
			for j := range 10 {
				err := fsys.WriteFile("/d/w", []byte{byte(i), byte(j)}, 0o644)
				if err != nil {
					mu.Lock()
					failures++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if failures != 1 {
		t.Errorf("%d writes failed, want exactly the 50th", failures)
	}
	if got := fsys.Count(); got != 100 {
		t.Errorf("Count() = %d, want 100", got)
	}
}

func TestShortWriteWriteFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rule faultfs.Rule
		file string
		data string
		want string // content after the WriteFile
		fail bool
	}{
		{name: "cut short", rule: faultfs.ShortWrite(4, vfs.ErrNoSpace), file: "/d/f", data: "0123456789", want: "0123", fail: true},
		{name: "nothing fits", rule: faultfs.ShortWrite(0, vfs.ErrNoSpace), file: "/d/f", data: "0123456789", want: "", fail: true},
		{name: "exactly fits", rule: faultfs.ShortWrite(10, vfs.ErrNoSpace), file: "/d/f", data: "0123456789", want: "0123456789"},
		{name: "new file", rule: faultfs.ShortWrite(2, vfs.ErrNoSpace), file: "/d/new", data: "abc", want: "ab", fail: true},
		{name: "by name", rule: faultfs.WriteFailsAfter("/d/f", 1, vfs.ErrNoSpace), file: "/d/f", data: "abc", want: "a", fail: true},
		{name: "other name", rule: faultfs.WriteFailsAfter("/d/g", 1, vfs.ErrNoSpace), file: "/d/f", data: "abc", want: "abc"},
		{
			name: "narrowed away",
			rule: faultfs.ShortWrite(1, vfs.ErrNoSpace).If(func(op faultfs.Op) bool { return op.Path == "/d/g" }),
			file: "/d/f", data: "abc", want: "abc",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mem := vfstest.MemWith(t, "/", fileTree())
			fsys := faultfs.New(mem, tt.rule)
			err := fsys.WriteFile(tt.file, []byte(tt.data), 0o644)
			if !tt.fail {
				if err != nil {
					t.Fatalf("WriteFile: %v, want success", err)
				}
			} else {
				var pe *fs.PathError
				if !errors.Is(err, vfs.ErrNoSpace) || !errors.As(err, &pe) || pe.Op != "write" || pe.Path != tt.file {
					t.Fatalf("WriteFile: %#v, want a write PathError for %s wrapping ENOSPC", err, tt.file)
				}
				if inj := fsys.Injected(); len(inj) != 1 || inj[0].Kind != faultfs.KindWriteFile {
					t.Errorf("Injected() = %+v, want the one writefile", inj)
				}
			}
			data, err := mem.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(data)); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
		})
	}
}

// TestShortWriteEveryFile: without narrowing, every file written takes n
// bytes, each counted on its own.
func TestShortWriteEveryFile(t *testing.T) {
	t.Parallel()
	mem := vfstest.MemWith(t, "/", fileTree())
	fsys := faultfs.New(mem, faultfs.ShortWrite(2, vfs.ErrIO))
	for _, name := range []string{"/d/a", "/d/b"} {
		f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := f.Write([]byte("xyz")); n != 2 || !errors.Is(err, vfs.ErrIO) {
			t.Errorf("%s: Write = %d, %v; want 2 and EIO", name, n, err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if data, err := mem.ReadFile(name); err != nil || string(data) != "xy" {
			t.Errorf("%s = %q, %v; want %q", name, data, err, "xy")
		}
	}
}

// crashScript is the operations TestCrashAfter runs, in order, each
// through fsys; it returns the errors.
func crashScript(fsys *faultfs.FS) []error {
	var errs []error
	errs = append(errs, fsys.WriteFile("/d/f", []byte("NEW"), 0o644)) // 1
	errs = append(errs, fsys.Mkdir("/d/m", 0o755))                    // 2
	f, err := fsys.OpenFile("/d/g", os.O_WRONLY|os.O_CREATE, 0o600)   // 3
	errs = append(errs, err)
	if err == nil {
		_, err = f.Write([]byte("GGGG")) // 4
		errs = append(errs, err)
		_, err = f.Write([]byte("gg")) // 5
		errs = append(errs, err)
		errs = append(errs, f.Close()) // 6
	}
	errs = append(errs, fsys.Rename("/d/g", "/d/h")) // 7
	_, err = fsys.ReadFile("/d/h")                   // 8
	errs = append(errs, err)
	return errs
}

func TestCrashAfter(t *testing.T) {
	t.Parallel()
	file := func(data string, mode fs.FileMode) vfs.Entry {
		return vfs.Entry{Type: vfs.TypeFile, Mode: mode, Data: []byte(data)}
	}
	dir := vfs.Entry{Type: vfs.TypeDir, Mode: 0o755}
	tests := []struct {
		n      int
		torn   int64
		want   vfs.Tree
		failed int // errors returned, all EIO
	}{
		{n: 0, torn: 0, want: vfs.Tree{"f": file("", 0o644)}, failed: 5},
		{n: 0, torn: 2, want: vfs.Tree{"f": file("NE", 0o644)}, failed: 5},
		{n: 1, torn: 0, want: vfs.Tree{"f": file("NEW", 0o644)}, failed: 4},
		{n: 2, torn: 0, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir}, failed: 3},
		{n: 3, torn: 0, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir, "g": file("", 0o600)}, failed: 5},
		// Writes after the torn one write nothing.
		{n: 3, torn: 3, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir, "g": file("GGG", 0o600)}, failed: 5},
		{n: 4, torn: 1, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir, "g": file("GGGGg", 0o600)}, failed: 4},
		{n: 5, torn: 0, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir, "g": file("GGGGgg", 0o600)}, failed: 3},
		{n: 6, torn: 0, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir, "g": file("GGGGgg", 0o600)}, failed: 2},
		{n: 7, torn: 0, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir, "h": file("GGGGgg", 0o600)}, failed: 1},
		{n: 8, torn: 0, want: vfs.Tree{"f": file("NEW", 0o644), "m": dir, "h": file("GGGGgg", 0o600)}, failed: 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d,torn=%d", tt.n, tt.torn), func(t *testing.T) {
			t.Parallel()
			mem := vfstest.MemWith(t, "/", fileTree())
			fsys := faultfs.New(mem, faultfs.CrashAfter(tt.n, tt.torn, vfs.ErrIO))
			failed := 0
			for _, err := range crashScript(fsys) {
				if err == nil {
					continue
				}
				if !errors.Is(err, vfs.ErrIO) {
					t.Errorf("error %v, want EIO", err)
				}
				failed++
			}
			if failed != tt.failed {
				t.Errorf("%d operations failed, want %d", failed, tt.failed)
			}
			got := vfstest.Snapshot(t, mem, "/d")
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("tree after the crash (-want +got):\n%s", diff)
			}
			for _, op := range fsys.Ops() {
				if (op.Seq > tt.n) != (op.Injected != nil) {
					t.Errorf("op %d (%s) injected %v; want failures exactly after op %d", op.Seq, op.Kind, op.Injected, tt.n)
				}
			}
		})
	}
}

// TestCrashAfterNarrowed: with If, only the selected operations count
// and fail.
func TestCrashAfterNarrowed(t *testing.T) {
	t.Parallel()
	mem := vfstest.MemWith(t, "/", fileTree())
	fsys := faultfs.New(mem, faultfs.CrashAfter(1, 0, vfs.ErrIO).If(func(op faultfs.Op) bool { return op.Mutates }))
	if _, err := fsys.ReadFile("/d/f"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Mkdir("/d/a", 0o755); err != nil {
		t.Fatalf("first mutation: %v", err)
	}
	if _, err := fsys.Stat("/d/a"); err != nil {
		t.Errorf("a read after the crash point: %v, want it to run", err)
	}
	if err := fsys.Mkdir("/d/b", 0o755); !errors.Is(err, vfs.ErrIO) {
		t.Errorf("second mutation: %v, want EIO", err)
	}
}

// TestShortWriteNotedBehindLaterOps: a cut-short Write is noted as
// injected even when other operations began while it wrote: here the
// wrapped file's write starts one, which a rule fails before it reaches
// the wrapped FS.
func TestShortWriteNotedBehindLaterOps(t *testing.T) {
	t.Parallel()
	var outer *faultfs.FS
	inner := faultfs.New(vfstest.MemWith(t, "/", fileTree()), faultfs.When(func(op faultfs.Op) bool {
		if op.Kind == faultfs.KindWrite {
			_, _ = outer.ReadLink("/d/f") // failed by outer's rule, never reaches inner
		}
		return false
	}, vfs.ErrIO))
	outer = faultfs.New(inner, faultfs.WriteFailsAfter("/d/w", 2, vfs.ErrNoSpace), faultfs.When(func(op faultfs.Op) bool { return op.Kind == faultfs.KindReadLink }, vfs.ErrIO))
	f, err := outer.OpenFile("/d/w", os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Write([]byte("abcd")); n != 2 || !errors.Is(err, vfs.ErrNoSpace) {
		t.Errorf("Write = %d, %v; want 2 and ENOSPC", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var got []faultfs.Kind
	for _, op := range outer.Injected() {
		got = append(got, op.Kind)
	}
	if diff := cmp.Diff([]faultfs.Kind{faultfs.KindWrite, faultfs.KindReadLink}, got); diff != "" {
		t.Errorf("injected kinds (-want +got):\n%s", diff)
	}
}
