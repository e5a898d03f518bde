package aferofs_test

import (
	"errors"
	"fmt"

	"github.com/spf13/afero"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/aferofs"
)

// A MemFS serves afero code with real links; an afero MemMapFs serves vfs
// code but admits it has none.
func Example() {
	mem := vfs.NewMemFS(vfs.MemOptions{})
	_ = mem.WriteFile("/settings.json", []byte("{}"), 0o644)
	_ = mem.Symlink("settings.json", "/link")

	a := aferofs.FromVFS(mem)
	data, _ := afero.ReadFile(a, "/link")
	target, _ := a.(afero.Symlinker).ReadlinkIfPossible("/link")
	fmt.Printf("%s via %s\n", data, target)

	fsys := aferofs.ToVFS(afero.NewMemMapFs())
	err := vfs.Symlink(fsys, "settings.json", "/link")
	fmt.Println(errors.Is(err, errors.ErrUnsupported))
	// Output:
	// {} via settings.json
	// true
}
