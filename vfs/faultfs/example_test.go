package faultfs_test

import (
	"errors"
	"fmt"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
)

// The second write-side call of a kind fails as if the disk were full.
func ExampleNew() {
	mem := vfs.NewMemFS(vfs.MemOptions{})
	fsys := faultfs.New(mem, faultfs.OnNthOf(faultfs.KindWriteFile, 2, vfs.ErrNoSpace))

	fmt.Println(fsys.WriteFile("/a", []byte("1"), 0o644))
	err := fsys.WriteFile("/b", []byte("2"), 0o644)
	fmt.Println(err, errors.Is(err, vfs.ErrNoSpace))
	_, err = fsys.ReadFile("/b")
	fmt.Println(errors.Is(err, vfs.ErrNoSpace), fsys.Count(faultfs.KindWriteFile, faultfs.KindReadFile))
	// Output:
	// <nil>
	// open /b: no space left on device true
	// false 3
}
