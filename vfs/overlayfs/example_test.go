package overlayfs_test

import (
	"fmt"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/overlayfs"
)

// A dry run: changes land in the overlay only, and Changes lists them.
func Example() {
	lower := vfs.NewMemFS(vfs.MemOptions{})
	_ = lower.MkdirAll("/home/.config", 0o755)
	_ = lower.WriteFile("/home/.config/settings.json", []byte("{}"), 0o644)
	_ = lower.WriteFile("/home/old.log", []byte("log"), 0o644)
	_ = lower.Symlink(".config/settings.json", "/home/settings")

	fsys := overlayfs.New(lower, overlayfs.Options{})
	_ = fsys.WriteFile("/home/settings", []byte(`{"theme":"dark"}`), 0o644) // through the lower link
	_ = fsys.Remove("/home/old.log")
	_ = fsys.MkdirAll("/home/.cache", 0o700)

	data, _ := fsys.ReadFile("/home/.config/settings.json")
	fmt.Printf("overlay: %s\n", data)
	data, _ = lower.ReadFile("/home/.config/settings.json")
	fmt.Printf("lower:   %s\n", data)

	d, err := fsys.Changes()
	if err != nil {
		fmt.Println(err)
		return
	}
	for p := range d.Added {
		fmt.Println("added  ", p)
	}
	for p := range d.Changed {
		fmt.Println("changed", p)
	}
	for _, p := range d.Removed {
		fmt.Println("removed", p)
	}
	// Output:
	// overlay: {"theme":"dark"}
	// lower:   {}
	// added   home/.cache
	// changed home/.config/settings.json
	// removed home/old.log
}
