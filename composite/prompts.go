package composite

import (
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/outfitter-go/vfsim/resolve"
)

// aliasPairs are the controls upstream spells both ways, in the order of
// its controlAliases (agents/AdapterProfileControls.ts:32): camelCase,
// snake_case.
var aliasPairs = [...][2]string{
	{"sessionDirectory", "session_directory"},
	{"promptTemplate", "prompt_template"},
	{"systemPrompt", "system_prompt"},
	{"appendSystemPrompt", "append_system_prompt"},
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
// does not translate, "<agent> adapter cannot translate requested control
// '<key>'.", in upstream's order (findUnsupportedControlNames,
// agents/AdapterProfileControls.ts:77): for the generic controls, first
// each alias pair (session_directory, prompt_template, system_prompt,
// append_system_prompt) that is present and that neither spelling of
// generic names, by its snake_case key when present, then every other key
// not in generic, in the order of the merged controls (the blocks of the
// registered agents are not controls, so they are never reported); then
// the keys of the agent's own block the same way against block, as
// '<agent>.<key>'. Keys are named as written.
func (in *Input) Unsupported(generic, block []string) []string {
	c := in.profileControls()
	var warnings []string
	report := func(prefix string, o *resolve.Object, supported []string) {
		for _, k := range unsupportedKeys(o.Keys(), supported) {
			warnings = append(warnings, fmt.Sprintf("%s adapter cannot translate requested control '%s%s'.", in.Agent, prefix, k))
		}
	}
	report("", c.Object, append(slices.Clip(generic), in.Agents...))
	if own := c.Agent(in.Agent); own != nil && own.Object != nil {
		report(in.Agent+".", own.Object, block)
	}
	return warnings
}

// unsupportedKeys returns the keys not in supported, upstream's way: the
// alias pairs first (one name each, the snake_case one when present), then
// the other keys in order.
func unsupportedKeys(keys, supported []string) []string {
	var out []string
	paired := map[string]bool{}
	for _, p := range aliasPairs {
		camel, snake := slices.Contains(keys, p[0]), slices.Contains(keys, p[1])
		if !camel && !snake {
			continue
		}
		if !slices.Contains(supported, p[0]) && !slices.Contains(supported, p[1]) {
			if snake {
				out = append(out, p[1])
			} else {
				out = append(out, p[0])
			}
		}
		paired[p[0]], paired[p[1]] = true, true
	}
	for _, k := range keys {
		if !paired[k] && !slices.Contains(supported, k) {
			out = append(out, k)
		}
	}
	return out
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

// readAssetText is readAsset as text; the embedded defaults' text is made
// once per process.
func readAssetText(assets fs.FS, name string) (string, error) {
	if assets == defaultAssets() {
		if text, ok := defaultAssetTexts()[name]; ok {
			return text, nil
		}
	}
	data, err := fs.ReadFile(assets, name)
	return string(data), err
}

// defaultAssetTexts holds the text of every file of the embedded assets
// by name.
var defaultAssetTexts = sync.OnceValue(func() map[string]string {
	texts := make(map[string]string, len(defaultAssetFiles()))
	for name, data := range defaultAssetFiles() {
		texts[name] = string(data)
	}
	return texts
})

// defaultAssetFiles holds every file of the embedded assets by name. It
// only answers sooner: an asset it lacks is read from the embedded set,
// so a mutant that leaves it partial or empty is equivalent.
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
