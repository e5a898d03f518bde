package composite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/osteele/liquid"

	"github.com/outfitter-go/vfsim/resolve"
)

// TemplateError reports a generated file whose template markers do not
// render.
type TemplateError struct {
	// Path is the file's relative path.
	Path string
	// Err is the engine's error.
	Err error
}

// Error returns upstream's message.
func (e *TemplateError) Error() string {
	return fmt.Sprintf("Cannot render Outfitter template in compositeProfile file '%s': %v", e.Path, e.Err)
}

// Unwrap returns the engine's error.
func (e *TemplateError) Unwrap() error { return e.Err }

// hasTemplate reports whether content holds Outfitter template markers.
func hasTemplate(content string) bool {
	return strings.Contains(content, "[[=") || strings.Contains(content, "[[%")
}

// renderTemplates renders every file holding template markers with Liquid
// ([[= ]] outputs, [[% %]] tags, strict variables) and appends the settings
// paths to its source inputs (§1.7). Other files are left as they are.
func renderTemplates(c *Composite, in *Input) error {
	var bindings map[string]any
	var engine *liquid.Engine
	for i := range c.Files {
		f := &c.Files[i]
		if !hasTemplate(f.Content) {
			continue
		}
		if engine == nil {
			engine = liquid.NewEngine().Delims("[[=", "]]", "[[%", "%]]")
			engine.StrictVariables()
			bindings = templateBindings(in)
		}
		out, err := engine.ParseAndRenderString(f.Content, bindings)
		if err != nil {
			return &TemplateError{Path: f.RelativePath, Err: err}
		}
		f.Content = out
		for _, p := range in.SettingsPaths {
			if !slices.Contains(f.SourceInputs, p) {
				f.SourceInputs = append(f.SourceInputs, p)
			}
		}
	}
	return nil
}

func templateBindings(in *Input) map[string]any {
	custom := plain(in.Settings.CustomSettings)
	if custom == nil {
		custom = map[string]any{}
	}
	var sources []any
	for _, s := range in.Settings.ProfileSources {
		m := map[string]any{}
		if s.URI != "" {
			m["uri"] = s.URI
		}
		if s.GitHub != "" {
			m["github"] = s.GitHub
		}
		if s.Path != "" {
			m["path"] = s.Path
		}
		if s.Ref != "" {
			m["ref"] = s.Ref
		}
		sources = append(sources, m)
	}
	var remote []any
	for _, r := range in.Settings.RemoteSettings {
		remote = append(remote, map[string]any{"uri": r.URI, "github": r.GitHub, "ref": r.Ref, "path": r.Path})
	}
	profile := map[string]any{}
	if p := in.Profile; p != nil {
		profile["id"] = p.ID
		if p.Label != nil {
			profile["label"] = *p.Label
		}
		if p.Description != nil {
			profile["description"] = *p.Description
		}
		inherits := make([]any, len(p.Inherits))
		for i, s := range p.Inherits {
			inherits[i] = s
		}
		profile["inherits"] = inherits
		profile["controls"] = plain(p.Controls.Object)
	}
	return map[string]any{"outfitter": map[string]any{
		"custom_settings": custom,
		"settings": map[string]any{
			"default_profile": in.Settings.DefaultProfile,
			"profile_sources": sources,
			"remote_settings": remote,
			"cache_directory": in.Cache,
			"custom_settings": custom,
		},
		"profile": profile,
		"agent":   in.Agent,
		"project": map[string]any{"root": in.Project},
	}}
}

// plain converts a document value to maps and slices for the engine.
func plain(v any) map[string]any {
	o, ok := v.(*resolve.Object)
	if !ok || o == nil {
		return nil
	}
	m := make(map[string]any, o.Len())
	for _, k := range o.Keys() {
		x, _ := o.Get(k)
		m[k] = plainValue(x)
	}
	return m
}

func plainValue(v any) any {
	switch v := v.(type) {
	case *resolve.Object:
		return plain(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plainValue(e)
		}
		return out
	}
	return v
}
