package writeback_test

import (
	"context"
	"fmt"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// A pi composite with settings.json linked to the durable settings, a
// warn directory and the unknown pseudo-path: the agent writes through
// the link, into the warn directory and somewhere undeclared.
func Example() {
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	const root = "/tmp/outfitter-default-pi-x"
	paths := []composite.StatePath{
		{RelativePath: "settings.json", Strategy: composite.StrategySymlink, SourcePath: "/home/u/.pi/agent/settings.json"},
		{RelativePath: "cache/", Strategy: composite.StrategyWarn, Directory: true},
		{RelativePath: composite.UnknownPath, Strategy: composite.StrategyWarn},
	}
	_ = vfs.MkdirAll(fsys, "/home/u/.pi/agent", 0o755)
	_ = vfs.WriteFile(fsys, "/home/u/.pi/agent/settings.json", []byte("{}"), 0o644)
	_ = vfs.MkdirAll(fsys, root+"/cache", 0o755)
	_ = vfs.Symlink(fsys, "/home/u/.pi/agent/settings.json", root+"/settings.json")

	baseline, _ := writeback.Snapshot(fsys, root, paths)

	_ = vfs.WriteFile(fsys, root+"/settings.json", []byte(`{"theme":"light"}`), 0o644)
	_ = vfs.WriteFile(fsys, root+"/cache/entry.txt", []byte("x"), 0o644)
	_ = vfs.WriteFile(fsys, root+"/Notes.txt", []byte("x"), 0o644)

	issues, _ := writeback.Detect(fsys, root, paths, baseline)
	report, err := writeback.Handle(context.Background(), fsys, root, paths, issues, writeback.Options{Agent: "pi"})
	for _, w := range report.Warnings {
		fmt.Println(w)
	}
	durable, _ := vfs.ReadFile(fsys, "/home/u/.pi/agent/settings.json")
	fmt.Println(string(durable), err)
	// Output:
	// pi wrote 'cache/' with state_persistence 'warn' and it was not persisted.
	// pi wrote undeclared composite profile state 'Notes.txt' and it was not persisted.
	// {"theme":"light"} <nil>
}
