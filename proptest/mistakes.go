package proptest

import (
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"
)

// Text is how a YAML file of a world is spelled, or broken: a rewrite of
// the text its fields render. The zero value keeps the text as rendered.
type Text struct {
	// Header and Trailer are written before and after the document
	// ("%YAML 1.2\n---\n", "---\n", a comment; "...\n").
	Header, Trailer string
	// CRLF ends every line with a carriage return and a line feed; BOM
	// starts the file with a byte order mark.
	CRLF, BOM bool
	// Break is a mistake made in the file (one of [Breaks]), "" for none.
	Break string
}

// Breaks are the mistakes a [Text] can make, each a kind of refusal
// upstream's reading of the file reports: an empty or comment-only file,
// and YAML syntax errors (a duplicate key, an unquoted ": " in a value, a
// quote or a flow sequence never closed, a tab in the indentation, a key
// less indented than its siblings, a second document).
var Breaks = []string{"empty", "comment", "dup_key", "nested_colon", "open_quote", "open_flow", "tab", "dedent", "second_doc"}

// apply rewrites the rendered text of a file.
func (x Text) apply(s string) string {
	switch x.Break {
	case "empty":
		s = ""
	case "comment":
		s = "# nothing here yet\n"
	case "dup_key":
		s = strings.TrimPrefix(s, "{}\n") + "note: first\nnote: second\n"
	case "nested_colon":
		s = strings.TrimPrefix(s, "{}\n") + "note: Remember: this is plain text\n"
	case "open_quote":
		s = strings.TrimPrefix(s, "{}\n") + "note: \"never closed\n"
	case "open_flow":
		s = strings.TrimPrefix(s, "{}\n") + "tags: [alpha, beta\n"
	case "tab":
		s = strings.TrimPrefix(s, "{}\n") + "extra:\n\tvalue: x\n"
	case "dedent":
		s = strings.TrimPrefix(s, "{}\n") + "extra:\n  one: 1\n two: 2\n"
	case "second_doc":
		s = strings.TrimPrefix(s, "{}\n") + "---\nnote: again\n"
	}
	s = x.Header + s + x.Trailer
	if x.CRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if x.BOM {
		s = "\ufeff" + s
	}
	return s
}

// textGen draws how a file is written: mostly as rendered, now and then
// with YAML spellings upstream's yaml library reads (directives, document
// markers, CRLF, a byte order mark), rarely broken. label names the file.
func textGen(t *rapid.T, label string) Text {
	var x Text
	if oneIn(t, "spelled "+label, 5) {
		x.Header = rapid.SampledFrom([]string{"", "---\n", "%YAML 1.2\n---\n", "# written by hand\n", "--- # start\n", "%YAML 1.2\n%TAG !x! tag:example.com,2000:\n---\n"}).Draw(t, "header "+label)
		x.Trailer = rapid.SampledFrom([]string{"", "", "...\n", "# end\n"}).Draw(t, "trailer "+label)
		x.CRLF = oneIn(t, "crlf "+label, 3)
		x.BOM = oneIn(t, "bom "+label, 4)
	}
	return x
}

// yamlSpellings are values written in the spellings of YAML upstream's
// library reads: escapes (a surrogate pair among them), block scalars
// with each chomping, single quotes.
var yamlSpellings = []string{
	`"\ud83d\ude80 Launch"`, `"Caf\u00e9 \x41\t\/ tab"`, "|\n  First line.\n  Second line.\n", "|-\n  Kept\n\n  apart.\n",
	">\n  Folded\n  text.\n\n", ">-\n  Folded\n  stripped.\n", "|+\n  Keep all\n\n", `'It''s quoted'`, `"\U0001F600 grin"`,
}

// coreScalars are custom_settings values in the number and other plain
// spellings of the YAML 1.2 core schema, which reach generated files.
var coreScalars = []string{
	"{<<: {team: merged, level: 1}, level: 2}",
	"{n: 1e3, h: 0x1F, o: 0o17, f: 1.50, neg: -0, inf: .inf, ninf: -.Inf, big: 12345678901234567890, date: 2001-12-14}",
	"{plus: +12, lead: 007, exp: 1.5E-3, dot: .5, nan: .NaN, t: True, n: NULL, tilde: ~, y: yes, s: 0b101}",
	"{list: [1e21, 1e-7, 0x10, 0o10], key: 2001-12-14t21:59:43.10-05:00}",
}

// schemaMistakes are top-level entries of a definition that upstream's
// schema refuses, with the key they need free.
var schemaMistakes = []Entry{
	{"label", "[not, a, string]"}, {"template", "\"yes\""}, {"profile_export", "1"}, {"description", "{text: x}"},
}

// controlMistakes are controls entries upstream's schema refuses.
var controlMistakes = []Entry{
	{"model", "5"}, {"args", "\"--single\""}, {"environment", "{COUNT: 3}"}, {"environment", "[A, B]"},
	{"skills", "review"}, {"extensions", "{a: b}"}, {"thinking", "[low]"},
}

// settingsMistakes are settings entries upstream's schema refuses.
var settingsMistakes = []Entry{
	{"default_agent", "[pi]"}, {"cache_directory", "5"}, {"custom_settings", "[a, b]"}, {"profile_export", "\"no\""},
}

// unusualIDs are ids of definitions upstream reads as names (leading
// digits, dots, underscores); badIDs are ids upstream refuses as profile
// slugs.
var (
	unusualIDs = []string{"1st", "team.dev", "v2.0-beta", "x_y", "0"}
	badIDs     = []string{"Team", "équipe", "has space"}
)

// mistakes are the kinds of mistake a world may hold, one at most: a
// broken file (see [Breaks]), a schema violation in a definition's top
// level, its controls or a settings file, an id upstream refuses, and an
// inheritance cycle.
var mistakes = []string{"break_profile", "break_profile", "break_settings", "schema", "control", "settings", "bad_id", "cycle"}

// renameProfile gives the i-th definition a new id; when no other
// definition keeps the old one, the parents and default profiles that
// named it follow, so that a rename is an unusual spelling, not a
// missing profile. An id that YAML reads as a number ("0") is not
// followed: written plain, a reference to it would be a number.
func renameProfile(w *World, i int, id string) {
	old := w.Profiles[i].ID
	w.Profiles[i].ID = id
	if strings.Trim(id, "0123456789") == "" {
		return
	}
	for j, p := range w.Profiles {
		if j != i && p.ID == old {
			return
		}
	}
	for j := range w.Profiles {
		p := &w.Profiles[j]
		if slices.Contains(p.Inherits, old) {
			p.Inherits = slices.Clone(p.Inherits)
			for k, parent := range p.Inherits {
				if parent == old {
					p.Inherits[k] = id
				}
			}
		}
	}
	for _, l := range w.Layers() {
		if s := w.Settings(l); s.DefaultProfile == old {
			s.DefaultProfile = id
		}
	}
}

// shapeLoc draws the source of a profile of a deep or wide world: the
// first definition's most of the time, so that the chain is found where
// the default profile is, else any.
func shapeLoc(t *rapid.T, w *World, label string) Loc {
	if oneIn(t, label+" elsewhere", 4) {
		return rapid.SampledFrom(biasedLocs).Draw(t, label)
	}
	return w.Profiles[0].Loc
}

// widen adds to a drawn world what users who make mistakes and spell
// things unusually write: spelled files and values, unusual ids, deep and
// wide inheritance, and now and then one mistake.
func widen(t *rapid.T, w *World) {
	switch rapid.SampledFrom([]string{"plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain", "deep", "wide"}).Draw(t, "shape") {
	case "deep":
		n := rapid.IntRange(5, 12).Draw(t, "depth")
		for i := 1; i <= n; i++ {
			p := Profile{Loc: shapeLoc(t, w, "deep_loc"), ID: fmt.Sprintf("lvl%02d", i)}
			if i > 1 {
				p.Inherits = []string{fmt.Sprintf("lvl%02d", i-1)}
			}
			p.Controls.Extra = []Entry{{"environment", fmt.Sprintf("{LEVEL: %q, L%02d: \"set\"}", fmt.Sprint(i), i)}}
			if oneIn(t, "deep_model", 3) {
				p.Controls.Extra = append(p.Controls.Extra, Entry{"model", jsonString(fmt.Sprintf("m-%d", i))})
			}
			w.Profiles = append(w.Profiles, p)
		}
		w.Profiles[0].Inherits = append(slices.Clone(w.Profiles[0].Inherits), fmt.Sprintf("lvl%02d", n))
	case "wide":
		n := rapid.IntRange(20, 40).Draw(t, "width")
		var ids []string
		for i := 1; i <= n; i++ {
			p := Profile{Loc: shapeLoc(t, w, "wide_loc"), Flat: oneIn(t, "wide_flat", 3), ID: fmt.Sprintf("w%02d", i)}
			if i > 1 && oneIn(t, "wide_parent", 3) {
				p.Inherits = []string{ids[rapid.IntRange(0, len(ids)-1).Draw(t, "wide_parent_index")]}
			}
			p.Top = []Entry{{"label", jsonString(fmt.Sprintf("Wide %d", i))}}
			ids = append(ids, p.ID)
			w.Profiles = append(w.Profiles, p)
		}
		w.Profiles[0].Inherits = append(slices.Clone(w.Profiles[0].Inherits), ids[len(ids)-1])
	}
	for i := range w.Profiles {
		p := &w.Profiles[i]
		label := fmt.Sprintf("profile %d", i)
		if i > 0 && oneIn(t, "unusual_id "+label, 12) {
			renameProfile(w, i, rapid.SampledFrom(unusualIDs).Draw(t, "unusual_id"))
		}
		if oneIn(t, "spelled_value "+label, 6) {
			key := rapid.SampledFrom([]string{"label", "description"}).Draw(t, "spelled_key")
			p.Top = append(slices.DeleteFunc(slices.Clone(p.Top), func(e Entry) bool { return e.Key == key }), Entry{key, rapid.SampledFrom(yamlSpellings).Draw(t, "spelled_value")})
		}
		if oneIn(t, "anchored "+label, 10) && !slices.ContainsFunc(p.Top, func(e Entry) bool { return e.Key == "label" || e.Key == "description" }) {
			p.Top = append(p.Top, Entry{"label", "&name " + jsonString("Named "+p.ID)}, Entry{"description", "*name"})
		}
		p.Text = textGen(t, label)
	}
	for _, l := range w.Layers() {
		s := w.Settings(l)
		if oneIn(t, "core_scalars "+string(l), 6) {
			s.Extra = append(slices.DeleteFunc(slices.Clone(s.Extra), func(e Entry) bool { return e.Key == "custom_settings" }),
				Entry{"custom_settings", rapid.SampledFrom(coreScalars).Draw(t, "core_scalars")})
		}
		s.Text = textGen(t, "settings "+string(l))
	}
	if !oneIn(t, "mistake", 16) {
		return
	}
	p := &w.Profiles[rapid.IntRange(0, len(w.Profiles)-1).Draw(t, "mistaken_profile")]
	switch rapid.SampledFrom(mistakes).Draw(t, "mistake_kind") {
	case "break_profile":
		p.Text.Break = rapid.SampledFrom(Breaks).Draw(t, "break")
	case "break_settings":
		layers := w.Layers()
		w.Settings(rapid.SampledFrom(layers).Draw(t, "broken_layer")).Text.Break = rapid.SampledFrom(Breaks).Draw(t, "break")
	case "schema":
		m := rapid.SampledFrom(schemaMistakes).Draw(t, "schema_mistake")
		p.Top = append(slices.DeleteFunc(slices.Clone(p.Top), func(e Entry) bool { return e.Key == m.Key }), m)
	case "control":
		if p.Controls.PiModel == "" {
			m := rapid.SampledFrom(controlMistakes).Draw(t, "control_mistake")
			p.Controls.Extra = append(slices.DeleteFunc(slices.Clone(p.Controls.Extra), func(e Entry) bool { return e.Key == m.Key }), m)
		}
	case "settings":
		s := w.Settings(rapid.SampledFrom(w.Layers()).Draw(t, "mistaken_layer"))
		m := rapid.SampledFrom(settingsMistakes).Draw(t, "settings_mistake")
		// The mistaken value replaces the one the file sets.
		switch m.Key {
		case "default_agent":
			s.DefaultAgent = ""
		case "cache_directory":
			s.CacheDirectory = false
		}
		s.Extra = append(slices.DeleteFunc(slices.Clone(s.Extra), func(e Entry) bool { return e.Key == m.Key }), m)
	case "bad_id":
		p.ID = rapid.SampledFrom(badIDs).Draw(t, "bad_id")
	case "cycle":
		if len(w.Profiles) > 1 {
			j := rapid.IntRange(1, len(w.Profiles)-1).Draw(t, "cycle_with")
			w.Profiles[0].Inherits = append(slices.Clone(w.Profiles[0].Inherits), w.Profiles[j].ID)
			w.Profiles[j].Inherits = append(slices.Clone(w.Profiles[j].Inherits), w.Profiles[0].ID)
		}
	}
}
