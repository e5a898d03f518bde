package sim_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/sim/launch"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// A Go program embeds the engine on the host file system: Execute loads
// the settings, resolves the profile, assembles the composite profile in a
// real temporary directory, launches the agent CLI as a process (package
// launch), classifies what the agent changed and removes the composite.
// Here the "pi" CLI is a shell script that writes its settings through the
// symlinked state path, leaves a scratch file and exits with code 3.
func Example_embed() {
	dir, err := os.MkdirTemp("", "vfsim-embed-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir) // a real path, as the agent sees it
	home, project, tmp := dir+"/home", dir+"/project", dir+"/tmp"
	for name, text := range map[string]string{
		home + "/.outfitter/settings.yml":              "default_profile: solo\nprofile_sources:\n  - path: ./profiles\n",
		home + "/.outfitter/profiles/solo/profile.yml": "id: solo\ncontrols:\n  model: solo-model\n",
		project + "/README.md":                         "A project.\n",
		tmp + "/.keep":                                 "",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err == nil {
			err = os.WriteFile(name, []byte(text), 0o644)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}

	// Forward SIGINT, SIGTERM and SIGHUP to the agent while it runs.
	signals, stop := launch.Notify()
	defer stop()
	script := `printf '{"theme":"dark"}\n' > "$PI_CODING_AGENT_DIR/settings.json"
echo scratch > "$PI_CODING_AGENT_DIR/scratch.txt"
exit 3`
	agent := launch.New(launch.Options{
		Commands: map[string]launch.Command{
			"pi": {Path: "/bin/sh", Args: []string{"-c", script, "pi"}},
		},
		Stdout:  io.Discard,
		Signals: signals,
	})

	spec := sim.Spec{Home: home, Project: project}
	opts := sim.Options{TempDir: tmp, Env: []string{"PATH=/usr/bin:/bin"}} // os.Environ() in a real program
	res := sim.Execute(context.Background(), osfs.New(), spec, agent, opts)
	if res.Err != nil {
		fmt.Println("run failed:", res.Err)
	}
	fmt.Println("profile:", res.ProfileID, "agent:", res.AgentID, "exit code:", res.ExitCode)
	fmt.Println("launched:", res.Plan.Command, res.Plan.Args[2:4])
	for _, w := range res.Warnings {
		fmt.Println("warning:", w)
	}
	settings, _ := os.ReadFile(home + "/.pi/agent/settings.json")
	fmt.Printf("durable settings: %s", settings)
	_, err = os.Lstat(res.Root)
	fmt.Println("composite removed:", errors.Is(err, fs.ErrNotExist))
	// Output:
	// profile: solo agent: pi exit code: 3
	// launched: pi [--model solo-model]
	// warning: pi wrote undeclared composite profile state 'scratch.txt' and it was not persisted.
	// durable settings: {"theme":"dark"}
	// composite removed: true
}
