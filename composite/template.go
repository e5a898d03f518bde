package composite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/resolve"
)

// TemplateError reports a generated file whose template markers do not
// render.
type TemplateError struct {
	// Path is the file's relative path.
	Path string
	// Err is the engine's error, a [*jsstack.LiquidError].
	Err error
}

// Error returns upstream's message, LiquidJS's error quoted as String()
// gives it.
func (e *TemplateError) Error() string {
	return fmt.Sprintf("Cannot render Outfitter template in compositeProfile file '%s': %v", e.Path, e.Err)
}

// Unwrap returns the engine's error.
func (e *TemplateError) Unwrap() error { return e.Err }

// hasTemplate reports whether content holds Outfitter template markers.
func hasTemplate(content string) bool {
	return strings.Contains(content, "[[=") || strings.Contains(content, "[[%")
}

// renderTemplates renders every file holding template markers as upstream
// does, with LiquidJS's twin ([[= ]] outputs, [[% %]] tags, strict filters
// and variables; see [jsstack.RenderLiquid]), and appends the settings
// paths to its source inputs (§1.7). Other files are left as they are. The
// files of one call share one environment, as upstream's share one
// context object: what increment and decrement write in one file, a later
// file sees.
func renderTemplates(c *Composite, in *Input) error {
	var env *jsstack.LiquidEnv
	for i := range c.Files {
		f := &c.Files[i]
		if !hasTemplate(f.Content) {
			continue
		}
		if env == nil {
			env = jsstack.NewLiquidEnv(templateBindings(in))
		}
		out, err := jsstack.RenderLiquid(f.Content, env)
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

// templateBindings returns upstream's template context: outfitter's
// custom_settings, settings, profile, agent and project, as ordered
// objects (the order shows in the json filter and in for loops over an
// object).
func templateBindings(in *Input) *resolve.Object {
	custom := in.Settings.CustomSettings
	if custom == nil {
		custom = resolve.NewObject()
	}
	sources := []any{}
	for _, s := range in.Settings.ProfileSources {
		m := resolve.NewObject()
		if s.URI != "" {
			m.Set("uri", s.URI)
		}
		if s.GitHub != "" {
			m.Set("github", s.GitHub)
		}
		if s.Path != "" {
			m.Set("path", s.Path)
		}
		if s.Ref != "" {
			m.Set("ref", s.Ref)
		}
		sources = append(sources, m)
	}
	remote := []any{}
	for _, r := range in.Settings.RemoteSettings {
		m := resolve.NewObject()
		m.Set("uri", r.URI)
		m.Set("github", r.GitHub)
		m.Set("ref", r.Ref)
		m.Set("path", r.Path)
		remote = append(remote, m)
	}
	profile := resolve.NewObject()
	if p := in.Profile; p != nil {
		profile.Set("id", p.ID)
		if p.Label != nil {
			profile.Set("label", *p.Label)
		}
		if p.Description != nil {
			profile.Set("description", *p.Description)
		}
		inherits := make([]any, len(p.Inherits))
		for i, s := range p.Inherits {
			inherits[i] = s
		}
		profile.Set("inherits", inherits)
		controls := p.Controls.Object
		if controls == nil {
			controls = resolve.NewObject()
		}
		profile.Set("controls", controls)
	}
	settings := resolve.NewObject()
	settings.Set("default_profile", in.Settings.DefaultProfile)
	settings.Set("profile_sources", sources)
	settings.Set("remote_settings", remote)
	settings.Set("cache_directory", in.Cache)
	settings.Set("custom_settings", custom)
	project := resolve.NewObject()
	project.Set("root", in.Project)
	outfitter := resolve.NewObject()
	outfitter.Set("custom_settings", custom)
	outfitter.Set("settings", settings)
	outfitter.Set("profile", profile)
	outfitter.Set("agent", in.Agent)
	outfitter.Set("project", project)
	root := resolve.NewObject()
	root.Set("outfitter", outfitter)
	return root
}
