package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/outfitter-go/vfsim/vfs"
)

// A MemFS resolves symbolic links like the kernel: writes go through a
// link to its target, and a snapshot records the link itself.
func Example() {
	m := vfs.NewMemFS(vfs.MemOptions{})
	_ = m.MkdirAll("/home/.pi/agent", 0o755)
	_ = m.MkdirAll("/tmp/composite", 0o755)
	_ = m.Symlink("/home/.pi/agent/settings.json", "/tmp/composite/settings.json")

	// The agent writes through the link; the durable file is created.
	_ = m.WriteFile("/tmp/composite/settings.json", []byte("{}\n"), 0o644)
	data, _ := m.ReadFile("/home/.pi/agent/settings.json")
	fmt.Printf("durable: %q\n", data)

	tree, _ := vfs.Snapshot(m, "/tmp/composite")
	for _, p := range tree.Paths() {
		e := tree[p]
		fmt.Println(p, e.Type, e.Target, e.TargetExists)
	}

	_, err := m.Stat("/tmp/composite/missing")
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// durable: "{}\n"
	// settings.json symlink /home/.pi/agent/settings.json true
	// true
}

// Clone copies a file system in constant time; the copies are independent.
func ExampleMemFS_Clone() {
	pristine := vfs.NewMemFS(vfs.MemOptions{})
	_ = pristine.WriteFile("/settings.yml", []byte("default_profile: base\n"), 0o644)

	run := pristine.Clone()
	_ = run.WriteFile("/settings.yml", []byte("changed\n"), 0o644)

	before, _ := vfs.Snapshot(pristine, "/")
	after, _ := vfs.Snapshot(run, "/")
	d := vfs.Diff(before, after)
	fmt.Printf("%q -> %q\n", d.Changed["settings.yml"].Before.Data, d.Changed["settings.yml"].After.Data)
	// Output:
	// "default_profile: base\n" -> "changed\n"
}
