package composite

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
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

// looksLikePath is upstream's heuristic for a raw prompt that names a file.
var looksLikePath = regexp.MustCompile(`(?i)^[^/\s]+(/[^/\s]+)*/[^/\s]+\.(md|markdown|txt|prompt)$`)

// AppendPrompts resolves the layered append_system_prompt entries for the
// input's agent, highest layer first (an agent block replaces the generic
// entries within its layer), falling back to those of c when no layer has
// any, and returns the prompt texts and the warnings.
func (in *Input) AppendPrompts(c Controls) ([]string, []string) {
	var prompts, warnings []string
	resolveEntry := func(e resolve.PromptEntry, layer *resolve.Layer, pointer string) {
		warn := func(msg string) {
			warnings = append(warnings, fmt.Sprintf("%s %s (%s)", in.Agent, msg, pointer))
		}
		switch e.Kind {
		case resolve.PromptFile, resolve.PromptRepoFile:
			base := ""
			if e.Kind == resolve.PromptRepoFile {
				base = in.Project
			} else if layer != nil {
				base = includeRoot(in.Home, layer)
			}
			p := e.Value
			if !path.IsAbs(p) {
				if base == "" {
					p = ""
				} else {
					p = path.Join(base, p)
				}
			}
			var data []byte
			var err error = fs.ErrNotExist
			if p != "" {
				data, err = vfs.ReadFile(in.FS, p)
			}
			if err != nil {
				kind := "file"
				if e.Kind == resolve.PromptRepoFile {
					kind = "repo_file"
				}
				warn(fmt.Sprintf("Prompt %s include '%s' was not found.", kind, e.Value))
				return
			}
			prompts = append(prompts, string(data))
		default:
			t := strings.TrimSpace(e.Value)
			if !strings.ContainsAny(t, " \n") && (strings.HasPrefix(t, "/") || strings.HasPrefix(t, "./") ||
				strings.HasPrefix(t, "../") || strings.HasPrefix(t, "~/") || looksLikePath.MatchString(t)) {
				warn(fmt.Sprintf("Raw append_system_prompt entry looks like a file path; use { file: '%s' }.", e.Value))
			}
			prompts = append(prompts, e.Value)
		}
	}
	found := false
	for i := len(in.Layers) - 1; i >= 0; i-- {
		layer := &in.Layers[i]
		if layer.Profile == nil {
			continue
		}
		lc := layer.Profile.Controls
		entries := lc.AppendSystemPrompt
		if block := lc.Agent(in.Agent); block != nil && block.AppendSystemPrompt != nil {
			entries = block.AppendSystemPrompt
		}
		for _, e := range entries {
			found = true
			resolveEntry(e, layer, layer.ProfilePath+"#/controls/append_system_prompt/0")
		}
	}
	if !found {
		for i, e := range c.AppendSystemPrompt {
			resolveEntry(e, nil, fmt.Sprintf("<profile>#/controls/append_system_prompt/%d", i))
		}
	}
	return prompts, warnings
}

// includeRoot is the directory relative prompt files of a layer resolve
// against (inferProfileIncludeSourceRoot).
func includeRoot(home string, l *resolve.Layer) string {
	dir := path.Dir(l.ProfilePath)
	for d := dir; ; d = path.Dir(d) {
		switch path.Base(d) {
		case ".outfitter":
			if home != "" && d == path.Join(home, ".outfitter") {
				return d
			}
			return path.Dir(d)
		case "outfitter":
			return path.Dir(d)
		}
		if d == "/" || d == "." {
			break
		}
	}
	return l.SourceRoot
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
