package vfstest_test

import (
	"fmt"
	"time"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// Build a tree with a symbolic link in a MemFS, then compare its snapshot
// with the literal.
func ExampleBuild() {
	var t printTB // in a test, pass the test's *testing.T or *rapid.T
	fsys := vfs.NewMemFS(vfs.MemOptions{Clock: vfstest.NewClock(time.Unix(0, 0)).Now})
	tree := vfstest.Tree{
		"conf/settings.json": vfstest.File("{}"),
		"state":              vfstest.Link("/durable/state").WithMode(0o600),
		"cache":              vfstest.Dir().WithMode(0o700),
	}
	vfstest.Build(t, fsys, "/home", tree)
	got, err := vfs.Snapshot(fsys, "/home")
	if err != nil {
		fmt.Println(err)
		return
	}
	want := tree.Entries(t)
	for _, p := range got.Paths() {
		fmt.Println(p, got[p].Type, got[p].Mode, got[p].Equal(want[p]))
	}
	// Output:
	// cache dir -rwx------ true
	// conf dir -rwxr-xr-x true
	// conf/settings.json file -rw-r--r-- true
	// state symlink ---------- true
}

// printTB is a [vfstest.TB] for examples, which have no *testing.T.
type printTB struct{}

func (printTB) Helper()                           {}
func (printTB) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
func (printTB) Fatalf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
