package composite

import (
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/outfitter-go/vfsim/resolve"
)

// aliases maps the snake_case spelling of a control to its camelCase alias.
var aliases = map[string]string{
	"session_directory":    "sessionDirectory",
	"prompt_template":      "promptTemplate",
	"system_prompt":        "systemPrompt",
	"append_system_prompt": "appendSystemPrompt",
}

// genericControls are the generic controls an agent may translate, in
// both spellings: upstream's genericControlNames but for the agent blocks,
// which [Input.Unsupported] takes from the registry.
var genericControls = []string{
	"model", "provider", "thinking", "environment", "args", "session_directory", "sessionDirectory",
	"extensions", "skills", "prompt_template", "promptTemplate", "system_prompt", "systemPrompt",
	"append_system_prompt", "appendSystemPrompt", "deepwork",
}

// Unsupported returns the warnings about the controls the input's agent
// does not translate, sorted: "<agent> adapter cannot translate requested
// control '<key>'." for each generic key not in generic (the blocks of the
// registered agents are not controls, so they are never reported), then
// '<agent>.<key>' for each key of the agent's own block not in block.
func (in *Input) Unsupported(generic, block []string) []string {
	c := in.profileControls()
	var warnings []string
	report := func(keys []string) {
		slices.Sort(keys)
		for _, k := range keys {
			warnings = append(warnings, fmt.Sprintf("%s adapter cannot translate requested control '%s'.", in.Agent, k))
		}
	}
	var keys []string
	for _, k := range c.Object.Keys() {
		name := k
		if camel, ok := aliases[k]; ok {
			name = camel
		}
		if !slices.Contains(generic, k) && !slices.Contains(in.Agents, k) && !slices.Contains(keys, name) {
			keys = append(keys, name)
		}
	}
	report(keys)
	if own := c.Agent(in.Agent); own != nil && own.Object != nil {
		var keys []string
		seen := map[string]bool{}
		for _, k := range own.Object.Keys() {
			group := k
			if camel, ok := aliases[k]; ok {
				group = camel
			}
			if !slices.Contains(block, k) && !seen[group] {
				seen[group] = true
				keys = append(keys, in.Agent+"."+k)
			}
		}
		report(keys)
	}
	return warnings
}

// AppendPrompts resolves the layered append_system_prompt entries for the
// input's agent with [resolve.AppendSystemPrompts], falling back to those
// of c when no layer has any, and returns the prompt texts and the
// warnings, each "<agent> <message> (<pointer>)" as upstream's adapters
// word them.
func (in *Input) AppendPrompts(c Controls) ([]string, []string) {
	prompts, diags := resolve.AppendSystemPrompts(in.FS, resolve.PromptIncludes{Layers: in.Layers, Home: in.Home, Project: in.Project}, in.Agent, c.AppendSystemPrompt)
	var warnings []string
	for _, d := range diags {
		warnings = append(warnings, fmt.Sprintf("%s %s (%s)", in.Agent, d.Message, d.Path))
	}
	return prompts, warnings
}

func hasAsset(assets fs.FS, name string) bool {
	if assets == nil {
		return false
	}
	if assets == defaultAssets() {
		if _, ok := defaultAssetFiles()[name]; ok {
			return true
		}
	}
	_, err := fs.Stat(assets, name)
	return err == nil
}

// readAsset reads an asset file; the embedded defaults are read once per
// process and shared, so the result must not be modified.
func readAsset(assets fs.FS, name string) ([]byte, error) {
	if assets == defaultAssets() {
		if data, ok := defaultAssetFiles()[name]; ok {
			return data, nil
		}
	}
	return fs.ReadFile(assets, name)
}

// defaultAssetFiles holds every file of the embedded assets by name.
var defaultAssetFiles = sync.OnceValue(func() map[string][]byte {
	files := map[string][]byte{}
	assets := defaultAssets()
	err := fs.WalkDir(assets, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets, name)
		files[name] = data
		return err
	})
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return files
})
