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

// A crash after the first operation: the WriteFile it interrupts has
// truncated the file and written nothing, and nothing later happens.
func ExampleCrashAfter() {
	mem := vfs.NewMemFS(vfs.MemOptions{})
	_ = mem.WriteFile("/profile.yml", []byte("id: eng\n"), 0o644)
	fsys := faultfs.New(mem, faultfs.CrashAfter(1, 0, vfs.ErrIO))

	data, _ := fsys.ReadFile("/profile.yml")
	fmt.Println(fsys.WriteFile("/profile.yml", append(data, "model: m\n"...), 0o644))
	fmt.Println(fsys.Remove("/profile.yml"))
	data, _ = mem.ReadFile("/profile.yml")
	fmt.Printf("%q\n", data)
	// Output:
	// write /profile.yml: input/output error
	// remove /profile.yml: input/output error
	// ""
}

func ExampleFS_PowerCut() {
	mem := vfs.NewMemFS(vfs.MemOptions{})
	_ = mem.MkdirAll("/d", 0o755)
	_ = mem.WriteFile("/d/auth.json", []byte("old"), 0o600)
	fsys := faultfs.New(mem)
	_ = fsys.TrackDurability(faultfs.OrderJournal)

	// A write in place, never synced: the disk may hold it truncated.
	_ = fsys.WriteFile("/d/auth.json", []byte("new"), 0o600)
	disks, _ := fsys.PowerCuts()
	for i, disk := range disks {
		fmt.Printf("disk %d: %q\n", i, disk["d/auth.json"].Data)
	}

	// ReplaceFile syncs: once it returned, the disk holds the new file.
	_ = vfs.ReplaceFile(fsys, "/d/auth.json", []byte("newer"), 0o600)
	disk, _ := fsys.PowerCut()
	fmt.Printf("%q\n", disk["d/auth.json"].Data)
	// Output:
	// disk 0: "old"
	// disk 1: ""
	// "newer"
}
