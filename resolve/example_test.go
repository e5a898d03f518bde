package resolve_test

import (
	"fmt"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

func Example() {
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	files := map[string]string{
		"/home/me/.outfitter/settings.yml":      "default_profile: engineer\nprofile_sources: [{path: ./profiles}]\n",
		"/home/me/.outfitter/profiles/base.yml": "label: Base\ncontrols:\n  args: [--base]\n  environment: {SHARED: base}\n",
		"/home/me/.outfitter/profiles/engineer/profile.yml": "inherits: [base]\n" +
			"controls:\n  model: m1\n  args: [--eng]\n  system_prompt: Be brief.\n  environment: {SHARED: engineer}\n",
	}
	for _, dir := range []string{"/home/me/.outfitter/profiles/engineer", "/work/app"} {
		if err := fsys.MkdirAll(dir, 0o755); err != nil {
			panic(err)
		}
	}
	for name, text := range files {
		if err := fsys.WriteFile(name, []byte(text), 0o644); err != nil {
			panic(err)
		}
	}

	res, err := resolve.Load(fsys, resolve.Options{Agents: composite.DefaultRegistry().Agents(), Home: "/home/me", Project: "/work/app"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range res.Layers {
		fmt.Println(l.ID, l.Layout)
	}
	fmt.Print(string(res.Profile.GeneratedJSON()))
	// Output:
	// base flat-file
	// engineer directory
	// {
	//   "id": "engineer",
	//   "label": "Base",
	//   "controls": {
	//     "args": [
	//       "--eng",
	//       "--base"
	//     ],
	//     "environment": {
	//       "SHARED": "engineer"
	//     },
	//     "model": "m1",
	//     "system_prompt": "Be brief.",
	//     "systemPrompt": "Be brief."
	//   }
	// }
}

func ExampleLoad_errors() {
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	if err := fsys.MkdirAll("/home/me/.outfitter/profiles", 0o755); err != nil {
		panic(err)
	}
	settings := "profile_sources: [{path: ./profiles}]\n"
	if err := fsys.WriteFile("/home/me/.outfitter/settings.yml", []byte(settings), 0o644); err != nil {
		panic(err)
	}
	if err := fsys.WriteFile("/home/me/.outfitter/profiles/a.yml", []byte("inherits: [b]\n"), 0o644); err != nil {
		panic(err)
	}
	if err := fsys.WriteFile("/home/me/.outfitter/profiles/b.yml", []byte("inherits: [a]\n"), 0o644); err != nil {
		panic(err)
	}
	_, err := resolve.Load(fsys, resolve.Options{Agents: composite.DefaultRegistry().Agents(), Home: "/home/me", Project: "/work/app", ProfileID: "a"})
	fmt.Println(err)
	// Output:
	// Cannot resolve profile 'a': /profiles/a/inherits Profile inheritance cycle detected: a -> b -> a
}
