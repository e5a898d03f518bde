package composite

import (
	"io/fs"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// Input is what an [Adapter] sees of one run: the resolved profile, the
// directories of the run and the file system the durable side lives on.
// Its methods are what every adapter builds on: the agent's [Controls],
// the declared [Input.StatePaths], the generated [Input.ProfileFile] and
// [Input.PluginFiles], the [Input.Unsupported] controls and the
// [Input.AppendPrompts]. Fields are added as the adapters need them.
type Input struct {
	// Agent is the id of the adapter the input is for.
	Agent string
	// Agents are the ids of the registered agents: their controls blocks
	// are agent blocks, not controls an adapter could translate.
	Agents []string
	// FS is the file system of the machine; adapters only read from it.
	FS vfs.FS
	// Root is the composite root directory.
	Root string
	// Home is the user's home directory; empty when none was given.
	Home string
	// Project is the project directory; relative resource paths resolve
	// against it, as upstream resolves them against the working directory.
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

	// Profile is the resolved profile after catalog skill resolution.
	Profile *resolve.Profile
	// Layers are the loaded profile definitions of the stack (for layered
	// prompt includes).
	Layers []resolve.Layer
	// Settings is the merged settings record.
	Settings resolve.Settings
	// SettingsPaths are the loaded settings files, lowest first.
	SettingsPaths []string
	// Assets holds Outfitter's own files (bundled skill, pi extension).
	Assets fs.FS
	// Cwd stands for the process working directory: relative extension
	// sources and relative state sources resolve against it. Empty means
	// Project.
	Cwd string
	// Env is the process environment the agent would inherit, as
	// "NAME=value" strings (os.Environ's form; the last entry of a name
	// wins, see [LookupEnv]); only DEEPWORK_ADDITIONAL_JOBS_FOLDERS is read
	// from it.
	Env []string
	// Onboarding is set for a first-run onboarding launch (see
	// [Request].Onboarding).
	Onboarding *Onboarding
	// Platform is the operating system the run acts as ([Request].Platform).
	Platform vfs.Platform

	candidates stateCandidates // recorded by StatePaths for Composite.Candidates
}

// profileControls returns the profile's generic controls, never nil.
func (in *Input) profileControls() *resolve.Controls {
	if in.Profile == nil {
		return &resolve.Controls{}
	}
	return &in.Profile.Controls
}

// cwd returns the directory relative paths resolve against.
func (in *Input) cwd() string {
	if in.Cwd != "" {
		return in.Cwd
	}
	return in.Project
}

// statePersistence returns the profile's state_persistence overrides.
func (in *Input) statePersistence() *resolve.Object {
	if in.Profile == nil {
		return nil
	}
	return in.Profile.StatePersistence
}
