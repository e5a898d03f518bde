package proptest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestUpstreamWorldGenDrawsEveryDimension checks that the weights which
// keep most runs launching leave every dimension of the campaign drawn:
// each kind of broken file in profiles and settings, each schema mistake,
// refused id, cycles, unusual ids, YAML spellings, deep and wide worlds,
// risky templates, odd skill entries, invalid SKILL.md files and skill
// references to file names with spaces.
func TestUpstreamWorldGenDrawsEveryDimension(t *testing.T) {
	t.Parallel()
	const worlds = 10000
	seen := map[string]int{}
	gen := UpstreamWorldGen()
	for i := range worlds {
		w := gen.Example(i)
		mark := map[string]bool{}
		for _, p := range w.Profiles {
			if p.Text.Break != "" {
				mark["profile break "+p.Text.Break] = true
			}
			for _, m := range schemaMistakes {
				if slices.Contains(p.Top, m) {
					mark["schema "+m.Key+": "+m.Value] = true
				}
			}
			for _, m := range controlMistakes {
				if slices.Contains(p.Controls.Extra, m) {
					mark["control "+m.Key+": "+m.Value] = true
				}
			}
			for _, id := range append(slices.Clone(badIDs), unusualIDs...) {
				if p.ID == id {
					mark["id "+id] = true
				}
			}
			if p.Text.Header != "" || p.Text.CRLF || p.Text.BOM {
				mark["spelled profile"] = true
			}
			for _, e := range p.Top {
				if slices.Contains(yamlSpellings, e.Value) {
					mark["yaml spelling"] = true
				}
				if e.Key == "template" && e.Value == "true" {
					mark["template profile"] = true
				}
			}
			for _, e := range p.Controls.Extra {
				for _, tpl := range riskyTemplates {
					if strings.Contains(e.Value, jsonString(tpl)) {
						mark["risky template"] = true
					}
				}
				for _, s := range oddSkillEntries {
					if e.Key == "skills" && strings.Contains(e.Value, s) {
						mark["odd skill entry"] = true
					}
				}
				if strings.Contains(e.Value, `"docs/team guide.md"`) {
					mark["skill entry reference with a space"] = true
				}
			}
			for _, q := range w.Profiles {
				if p.ID != q.ID && slices.Contains(p.Inherits, q.ID) && slices.Contains(q.Inherits, p.ID) {
					mark["cycle"] = true
				}
			}
			switch p.ID {
			case "lvl05":
				mark["deep"] = true
			case "w20":
				mark["wide"] = true
			}
		}
		for _, l := range w.Layers() {
			s := w.Settings(l)
			if s.Text.Break != "" {
				mark["settings break "+s.Text.Break] = true
			}
			for _, m := range settingsMistakes {
				if slices.Contains(s.Extra, m) {
					mark["settings "+m.Key+": "+m.Value] = true
				}
			}
			for _, e := range s.Extra {
				if slices.Contains(coreScalars, e.Value) {
					mark["core scalars"] = true
				}
			}
		}
		for _, f := range w.Files {
			if strings.HasSuffix(f.Path, "/SKILL.md") {
				switch {
				case strings.Contains(f.Data, `file: "docs/team guide.md"`):
					mark["SKILL.md reference with a space"] = true
				case !strings.HasPrefix(f.Data, "---\n"):
					mark["SKILL.md without frontmatter"] = true
				case strings.Contains(f.Data, "name: other-name"), strings.Contains(f.Data, "name: Bad_Name"):
					mark["invalid SKILL.md name"] = true
				}
			}
		}
		for _, r := range w.Runs {
			if r.Strict {
				mark["strict run"] = true
			}
		}
		for k := range mark {
			seen[k]++
		}
	}
	var want []string
	for _, b := range Breaks {
		want = append(want, "profile break "+b, "settings break "+b)
	}
	for _, m := range schemaMistakes {
		want = append(want, "schema "+m.Key+": "+m.Value)
	}
	for _, m := range controlMistakes {
		want = append(want, "control "+m.Key+": "+m.Value)
	}
	for _, m := range settingsMistakes {
		want = append(want, "settings "+m.Key+": "+m.Value)
	}
	for _, id := range append(slices.Clone(badIDs), unusualIDs...) {
		want = append(want, "id "+id)
	}
	want = append(want, "cycle", "deep", "wide", "spelled profile", "yaml spelling", "core scalars", "template profile",
		"risky template", "odd skill entry", "skill entry reference with a space", "SKILL.md reference with a space",
		"SKILL.md without frontmatter", "invalid SKILL.md name", "strict run")
	for _, k := range want {
		if seen[k] == 0 {
			t.Errorf("%d worlds draw no %s", worlds, k)
		}
	}
	if t.Failed() {
		var all []string
		for k, n := range seen {
			all = append(all, fmt.Sprintf("%s %d", k, n))
		}
		slices.Sort(all)
		t.Logf("drawn: %s", strings.Join(all, "; "))
	}
}
