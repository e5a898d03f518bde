package osfs_test

import (
	"fmt"
	"os"

	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// A rooted FS resolves an absolute link target inside its root, like a
// chroot, and stores the target verbatim.
func ExampleNewRooted() {
	dir, err := os.MkdirTemp("", "osfs-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	fsys := osfs.NewRooted(dir)
	_ = fsys.MkdirAll("/fixture/home", 0o755)
	_ = fsys.WriteFile("/fixture/home/settings.json", []byte("{}\n"), 0o644)
	_ = fsys.Symlink("/fixture/home/settings.json", "/fixture/link")

	target, _ := fsys.ReadLink("/fixture/link")
	data, _ := fsys.ReadFile("/fixture/link")
	_, err = fsys.ReadFile("/../../etc/passwd")
	fmt.Printf("target %s\ndata %s", target, data)
	fmt.Println(err)
	// Output:
	// target /fixture/home/settings.json
	// data {}
	// open /../../etc/passwd: no such file or directory
}
