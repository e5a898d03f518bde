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

// templateBindings returns upstream's template context (createCompositeProfileTemplateContext):
// outfitter's custom_settings, settings, profile, agent and project, as
// ordered objects with the keys upstream's objects hold, in their order,
// those it holds with no value included (their size and for loops count
// them).
func templateBindings(in *Input) *resolve.Object {
	custom := in.Settings.CustomSettings
	if custom == nil {
		custom = resolve.NewObject()
	}
	optional := func(s string) any {
		if s == "" {
			return jsstack.LiquidUndefined
		}
		return s
	}
	list := func(l []string) any {
		if l == nil {
			return jsstack.LiquidUndefined
		}
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out
	}
	// Settings loader's convertProfileSource: the filters, then the
	// source's own keys.
	sources := []any{}
	for _, s := range in.Settings.ProfileSources {
		m := resolve.NewObject()
		m.Set("only", list(s.Only))
		m.Set("except", list(s.Except))
		switch {
		case s.URI != "":
			m.Set("uri", s.URI)
			m.Set("ref", optional(s.Ref))
			m.Set("path", optional(s.Path))
		case s.GitHub != "":
			m.Set("github", s.GitHub)
			m.Set("ref", optional(s.Ref))
			m.Set("path", optional(s.Path))
		default:
			m.Set("path", s.Path)
		}
		sources = append(sources, m)
	}
	// convertRemoteSettingsSource.
	remote := []any{}
	for _, r := range in.Settings.RemoteSettings {
		m := resolve.NewObject()
		if r.URI != "" {
			m.Set("uri", r.URI)
		} else {
			m.Set("github", r.GitHub)
		}
		m.Set("ref", optional(r.Ref))
		m.Set("path", r.Path)
		remote = append(remote, m)
	}
	settings := resolve.NewObject()
	settings.Set("default_profile", optional(in.Settings.DefaultProfile))
	settings.Set("profile_sources", sources)
	settings.Set("remote_settings", remote)
	settings.Set("cache_directory", optional(in.Settings.CacheDirectory))
	settings.Set("custom_settings", custom)
	project := resolve.NewObject()
	project.Set("root", in.Project)
	outfitter := resolve.NewObject()
	outfitter.Set("custom_settings", custom)
	outfitter.Set("settings", settings)
	outfitter.Set("profile", templateProfile(in))
	outfitter.Set("agent", in.Agent)
	outfitter.Set("project", project)
	root := resolve.NewObject()
	root.Set("outfitter", outfitter)
	return root
}

// templateProfile returns the resolved profile as upstream's object holds
// it: the keys its loader gives a definition (id, label, description,
// inherits, controls, statePersistence, profileExport, each optional one
// only when set), merged over the stack lowest first, so that a key first
// set by a higher layer comes after the keys of the lower ones.
func templateProfile(in *Input) *resolve.Object {
	out := resolve.NewObject()
	p := in.Profile
	if p == nil {
		return out
	}
	values := map[string]any{"id": p.ID}
	if p.Label != nil {
		values["label"] = *p.Label
	}
	if p.Description != nil {
		values["description"] = *p.Description
	}
	inherits := make([]any, len(p.Inherits))
	for i, s := range p.Inherits {
		inherits[i] = s
	}
	values["inherits"] = inherits
	controls := p.Controls.Object
	if controls == nil {
		controls = resolve.NewObject()
	}
	values["controls"] = controls
	if p.StatePersistence != nil {
		values["statePersistence"] = p.StatePersistence
	}
	if p.ProfileExport != nil {
		values["profileExport"] = *p.ProfileExport
	}
	keys := func(d *resolve.Profile) []string {
		k := []string{"id"}
		if d.Label != nil {
			k = append(k, "label")
		}
		if d.Description != nil {
			k = append(k, "description")
		}
		k = append(k, "inherits", "controls")
		if d.StatePersistence != nil {
			k = append(k, "statePersistence")
		}
		if d.ProfileExport != nil {
			k = append(k, "profileExport")
		}
		return k
	}
	var order []string
	for _, l := range in.Layers {
		if l.Profile != nil {
			order = append(order, keys(l.Profile)...)
		}
	}
	order = append(order, keys(p)...)
	for _, k := range order {
		if v, ok := values[k]; ok && !out.Has(k) {
			out.Set(k, v)
		}
	}
	return out
}
