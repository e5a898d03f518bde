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

// unsupportedControls warns, sorted, about generic control keys outside
// generic (nil: none checked) and about <agent>.<key> keys outside nested.
func unsupportedControls(agent string, c *resolve.Controls, generic, nested []string) []string {
	var warnings []string
	report := func(keys []string) {
		slices.Sort(keys)
		for _, k := range keys {
			warnings = append(warnings, fmt.Sprintf("%s adapter cannot translate requested control '%s'.", agent, k))
		}
	}
	if generic != nil {
		var keys []string
		for _, k := range c.Object.Keys() {
			name := k
			if camel, ok := aliases[k]; ok {
				name = camel
			}
			if !slices.Contains(generic, k) && !slices.Contains(keys, name) {
				keys = append(keys, name)
			}
		}
		report(keys)
	}
	block := c.Pi
	if agent == "claude" {
		block = c.Claude
	}
	if block != nil && block.Object != nil {
		var keys []string
		seen := map[string]bool{}
		for _, k := range block.Object.Keys() {
			group := k
			if camel, ok := aliases[k]; ok {
				group = camel
			}
			if !slices.Contains(nested, k) && !seen[group] {
				seen[group] = true
				keys = append(keys, agent+"."+k)
			}
		}
		report(keys)
	}
	return warnings
}

// looksLikePath is upstream's heuristic for a raw prompt that names a file.
var looksLikePath = regexp.MustCompile(`(?i)^[^/\s]+(/[^/\s]+)*/[^/\s]+\.(md|markdown|txt|prompt)$`)

// appendPrompts resolves the layered append_system_prompt entries (highest
// layer first) and returns the prompt texts and the warnings.
func appendPrompts(in *Input, agent string, m agentControls) ([]string, []string) {
	var prompts, warnings []string
	resolveEntry := func(e resolve.PromptEntry, layer *resolve.Layer, pointer string) {
		warn := func(msg string) {
			warnings = append(warnings, fmt.Sprintf("%s %s (%s)", agent, msg, pointer))
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
		block := lc.Pi
		if agent == "claude" {
			block = lc.Claude
		}
		if block != nil && block.AppendSystemPrompt != nil {
			entries = block.AppendSystemPrompt
		}
		for _, e := range entries {
			found = true
			resolveEntry(e, layer, layer.ProfilePath+"#/controls/append_system_prompt/0")
		}
	}
	if !found {
		for i, e := range m.AppendSystemPrompt {
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
