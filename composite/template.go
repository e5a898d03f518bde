package composite

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/osteele/liquid"
	"github.com/osteele/liquid/render"

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
			engine = newTemplateEngine()
			bindings = templateBindings(in)
		}
		out, err := engine.ParseAndRenderString(f.Content, bindings)
		if err != nil {
			return &TemplateError{Path: f.RelativePath, Err: undefinedVariable(err, f.Content, bindings)}
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

// newTemplateEngine returns the Liquid engine of Outfitter templates:
// [[= ]] outputs, [[% %]] tags, strict variables.
func newTemplateEngine() *liquid.Engine {
	engine := liquid.NewEngine().Delims("[[=", "]]", "[[%", "%]]")
	engine.StrictVariables()
	return engine
}

// UndefinedVariableError is LiquidJS's error for an output whose variable
// is undefined under strict variables, which upstream quotes when a
// template fails to render: its text is "UndefinedVariableError:
// undefined variable: <path>, line:<line>, col:<col>", where path is the
// variable's path up to its first undefined segment and line and col
// (from 1, col in UTF-16 units as JavaScript counts) are where the
// variable starts in the file.
type UndefinedVariableError struct {
	// Variable is the path up to the first undefined segment.
	Variable string
	// Line and Col locate the variable in the file, from 1.
	Line, Col int
	// Err is the Liquid engine's own error.
	Err error
}

// Error returns LiquidJS's text.
func (e *UndefinedVariableError) Error() string {
	return fmt.Sprintf("UndefinedVariableError: undefined variable: %s, line:%d, col:%d", e.Variable, e.Line, e.Col)
}

// Unwrap returns the engine's error.
func (e *UndefinedVariableError) Unwrap() error { return e.Err }

// outputTag matches an output tag whose expression is a plain dotted
// variable path: the form whose failure LiquidJS reports as an
// [UndefinedVariableError] and whose failing segment the bindings tell.
var outputTag = regexp.MustCompile(`^\[\[=(\s*)([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\]\]$`)

// undefinedVariable returns err as LiquidJS words it when it is the
// engine's undefined-variable error of an output tag holding a plain
// variable path that the bindings do not define; any other error is
// returned as it is, in the engine's own words. The engine gives the tag's
// text and its line (from 0); the variable is the tag's first occurrence
// from the start of that line, after the delimiter and blanks.
func undefinedVariable(err error, content string, bindings map[string]any) error {
	var re render.Error
	if !errors.As(err, &re) || re.Cause() == nil || re.Cause().Error() != "undefined variable" {
		return err
	}
	// The engine's text ends with " in " and the tag's text, which holds
	// no " in " when it is a plain variable path. It begins with the
	// cause's words, never with " in ", so "i > 0" is the same test.
	text := err.Error()
	if i := strings.LastIndex(text, " in "); i >= 0 {
		text = text[i+len(" in "):]
	}
	m := outputTag.FindStringSubmatch(text)
	if m == nil {
		return err
	}
	variable, ok := firstUndefined(strings.Split(m[2], "."), bindings)
	if !ok {
		return err
	}
	start := 0
	for range re.LineNumber() {
		i := strings.IndexByte(content[start:], '\n')
		if i < 0 {
			return err
		}
		start += i + 1
	}
	i := strings.Index(content[start:], text)
	if i < 0 {
		return err
	}
	begin := start + i + len("[[=") + len(m[1])
	line := 1 + strings.Count(content[:begin], "\n")
	col := 1 + len(utf16.Encode([]rune(content[strings.LastIndexByte(content[:begin], '\n')+1:begin])))
	return &UndefinedVariableError{Variable: variable, Line: line, Col: col, Err: err}
}

// firstUndefined walks path through the bindings as LiquidJS reads
// properties and returns the path up to the first segment that is
// undefined; ok is false when every segment is defined (a null value,
// which LiquidJS renders as nothing, included).
func firstUndefined(path []string, bindings map[string]any) (string, bool) {
	var cur any = bindings
	for i, seg := range path {
		if cur == nil {
			return "", false // LiquidJS reads any property of null as null
		}
		var next any
		defined := false
		switch v := cur.(type) {
		case map[string]any:
			next, defined = v[seg]
			if !defined && seg == "size" {
				next, defined = len(v), true
			}
		case []any:
			switch {
			case seg == "size":
				next, defined = len(v), true
			case seg == "first" && len(v) > 0:
				next, defined = v[0], true
			case seg == "last" && len(v) > 0:
				next, defined = v[len(v)-1], true
			}
		case string:
			if seg == "size" {
				next, defined = len(utf16.Encode([]rune(v))), true
			}
		}
		if !defined {
			return strings.Join(path[:i+1], "."), true
		}
		cur = next
	}
	return "", false
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
