package composite_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

func Example() {
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	_ = fsys.MkdirAll("/tmp", 0o1777)
	_ = fsys.MkdirAll("/home/u/.outfitter/profiles/review", 0o755)
	_ = fsys.MkdirAll("/work/app", 0o755)
	_ = fsys.WriteFile("/home/u/.outfitter/settings.yml", []byte("default_profile: review\nprofile_sources:\n  - path: ./profiles\n"), 0o644)
	_ = fsys.WriteFile("/home/u/.outfitter/profiles/review/profile.yml", []byte("id: review\ncontrols:\n  model: m1\nstate_persistence:\n  debug/: discard\n"), 0o644)

	res, err := resolve.Load(fsys, resolve.Options{Home: "/home/u", Project: "/work/app", AgentID: "claude", Agents: composite.DefaultRegistry().Agents()})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := composite.Plan(fsys, composite.Request{Result: res}, composite.Options{Rand: rand.NewChaCha8([32]byte{}), NoSweep: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := r.Materialize(); err != nil {
		fmt.Println(err)
		return
	}
	plan, _, _ := r.Launch()
	fmt.Println(plan.Command, plan.Args[:2])
	for _, sp := range r.Composite.StatePaths[:3] {
		fmt.Println(sp.RelativePath, sp.Strategy, sp.SourcePath)
	}
	target, _ := fsys.ReadLink(r.Composite.Root + "/agents")
	fmt.Println("agents ->", target)
	// Output:
	// claude [--model m1]
	// settings.json symlink /home/u/.claude/settings.json
	// agents/ symlink /home/u/.claude/agents
	// skills/ symlink /home/u/.claude/skills
	// agents -> /home/u/.claude/agents
}
