package composite

import "github.com/outfitter-go/vfsim/vfs"

// Input is what an [Adapter] sees of one run: the resolved profile, the
// directories of the run and the file system the durable side lives on.
// Fields are added as the adapters need them.
type Input struct {
	// FS is the file system of the machine; adapters only read from it.
	FS vfs.FS
	// Root is the composite root directory.
	Root string
	// Home is the user's home directory; empty when none was given.
	Home string
	// Project is the project directory.
	Project string
	// Cache is the resolved cache directory.
	Cache string
	// ProfileFolders are the resource folders of the profile layers, lowest
	// precedence first.
	ProfileFolders []string
	// ProfilePaths are the profile files of the layers, lowest first.
	ProfilePaths []string
	// PassThrough are the command-line arguments passed to the agent.
	PassThrough []string
}
