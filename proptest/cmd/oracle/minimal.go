package main

import (
	"strings"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/proptest"
)

// minimalWorld is the smallest world: user settings that select the home
// profile a, that profile with the given controls, state and files, the
// given other files, and one run of the given agent with the given ops.
func minimalWorld(agent string, controls []proptest.Entry, state []proptest.Rule, profileFiles, files []proptest.File, ops ...fixtures.Op) proptest.World {
	w := proptest.World{
		User: &proptest.Settings{DefaultProfile: "a", DeclaresSources: true, Sources: []proptest.SourceRef{{Loc: proptest.LocHome}}},
		Profiles: []proptest.Profile{{
			Loc: proptest.LocHome, ID: "a", Controls: proptest.Controls{Extra: controls}, State: state, Files: profileFiles,
		}},
		Files: files,
		Runs:  []proptest.Run{{Agent: agent}},
	}
	for _, op := range ops {
		w.Runs[0].Ops = append(w.Runs[0].Ops, proptest.Op{Op: op})
	}
	return w
}

// entries builds controls entries from key, value pairs.
func entries(kv ...string) []proptest.Entry {
	var out []proptest.Entry
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, proptest.Entry{Key: kv[i], Value: kv[i+1]})
	}
	return out
}

// skillMD is a valid SKILL.md of a catalog skill.
func skillMD(id string) string {
	return "---\nname: " + id + "\ndescription: Skill " + id + ".\n---\nUse " + id + ".\n"
}

// minimalWorlds are hand-shrunk worlds, one per rule of the divergence
// table (and one per documented deviation), each showing its rule and
// nothing else; export -minimal writes them as m-<name>.
func minimalWorlds() map[string]proptest.World {
	worlds := baseMinimalWorlds()
	for _, kind := range proptest.Breaks {
		w := minimalWorld("pi", entries("model", `"m1"`), nil, nil, nil)
		w.Profiles[0].Text = proptest.Text{Break: kind}
		worlds["yaml-broken-"+strings.ReplaceAll(kind, "_", "-")] = w
	}
	// A flow sequence left open at the end of the text after flow
	// collections closed in an indented block: the library ends it at
	// the end of the text and refuses it there, not at the line after the
	// last closed one.
	w := minimalWorld("pi", entries("model", `"m1"`, "environment", `{A: "x"}`, "skills", "[review]"), nil, nil, nil)
	w.Profiles[0].Text = proptest.Text{Break: "open_flow"}
	worlds["yaml-broken-open-flow-after-flows"] = w
	return worlds
}

// baseMinimalWorlds are the hand-shrunk worlds but the broken files.
func baseMinimalWorlds() map[string]proptest.World {
	always := minimalWorld("pi", entries("environment", `{A: "x"}`), []proptest.Rule{{Key: "plugins/", Strategy: "prompt"}}, nil, nil,
		fixtures.Op{Op: fixtures.OpWrite, Path: "plugins/x", Data: "v1\n"})
	always.Runs[0].Interactive = true
	always.Runs[0].Answers = map[string]string{"plugins/": "always"}
	return map[string]proptest.World{
		"controls-camelcase":           minimalWorld("pi", entries("systemPrompt", `"Be brief."`), nil, nil, nil),
		"unsupported-control-warnings": minimalWorld("claude", entries("temperature", "0.2", "provider", `"acme"`, "prompt_template", `"t"`), nil, nil, nil),
		"deepwork-named-jobs": minimalWorld("pi", entries("deepwork", "{jobs: [job_a]}"), nil, nil,
			[]proptest.File{{Path: "home/.outfitter/deepwork/jobs/job_a/job.yml", Data: "name: job_a\n"}}),
		"skill-passthrough-warning": minimalWorld("pi", entries("skills", "[ghost-skill]", "pi", "{skills: [ghost-skill]}"), nil, nil, nil),
		"skill-shadowing-warning": minimalWorld("pi", entries("skills", "[review]"), nil, nil, []proptest.File{
			{Path: "project/.outfitter/skills/review/SKILL.md", Data: skillMD("review")},
			{Path: "home/.outfitter/skills/review/SKILL.md", Data: skillMD("review")},
		}),
		"always-answer-yaml":  always,
		"report-tokenization": minimalWorld("pi", nil, nil, []proptest.File{{Path: "cli_specific/pi/.mcp.json", Data: "[1, 2]\n"}}, nil),
		"liquid-error-text":   minimalWorld("pi", entries("system_prompt", `"[[= outfitter.nothing ]]"`), nil, nil, nil),
		// Templates as LiquidJS renders them (internal/jsstack's Liquid
		// twin): a render with whitespace control, raw, filters with
		// arguments, a loop, comparisons and a literal [[, then one world
		// per class of LiquidJS error, each with its line and column.
		"liquid-render": minimalWorld("pi", entries("system_prompt",
			`"Agent: [[%- if outfitter.agent == 'pi' and outfitter.profile.inherits.size < 1 -%]]\n  [[= outfitter.agent | upcase | append: '!' | replace: 'I', 'i' ]]\n[[%- endif %]] [[ -f x ]] [[% raw %]][[= kept ]][[% endraw %]][[% for s in outfitter.settings.profile_sources %]] [[= forloop.index ]]:[[= s | json ]][[% endfor %]] [[= outfitter.custom_settings.missing | default: 'none' ]]"`), nil, nil, nil),
		"liquid-tokenization-error": minimalWorld("pi", entries("system_prompt", `"line one\nline two [[= outfitter.agent | upcase 'x' ]]"`), nil, nil, nil),
		"liquid-parse-error":        minimalWorld("pi", entries("system_prompt", `"[[% if outfitter.agent %]]\n  [[= outfitter.agent | nosuchfilter ]]\n[[% endif %]]"`), nil, nil, nil),
		"liquid-render-error":       minimalWorld("pi", entries("system_prompt", `"é😀 [[= outfitter.agent | append ]]"`), nil, nil, nil),
		// The bindings as upstream's objects hold them: a profile source's
		// filters as keys with no value, the settings' own cache_directory
		// (unset: no value), the profile's keys merged over its stack.
		"liquid-bindings": func() proptest.World {
			w := minimalWorld("pi", entries("system_prompt", `"SRC[[% for s in outfitter.settings.profile_sources %]][[= s.size ]]:[[% for k in s %]][[= k[0] ]],[[% endfor %]];[[% endfor %]] SET[[= outfitter.settings | json ]] [[= outfitter.settings.size ]] PROF[[= outfitter.profile | json ]] OUT[[% for k in outfitter %]][[= k[0] ]],[[% endfor %]]"`, "model", `"m"`), []proptest.Rule{{Key: "plugins/", Strategy: "discard"}}, nil, nil)
			w.Profiles[0].Top = entries("label", `"L"`)
			w.Profiles[0].Inherits = []string{"b"}
			w.Profiles = append(w.Profiles, proptest.Profile{Loc: proptest.LocHome, ID: "b", Top: entries("description", `"D"`, "profile_export", "false")})
			return w
		}(),
		// YAML as upstream's yaml library reads it (internal/jsstack's yaml
		// twin): a file spelled with a %YAML 1.2 directive, a BOM, a
		// document end, an escaped surrogate pair, block scalars, an
		// anchor, core-schema numbers and a merge key in custom_settings,
		// which reach outfitter/profile.json; then one world per kind of
		// broken file, each refused with the library's text, line and
		// column.
		"yaml-spellings": func() proptest.World {
			w := minimalWorld("pi", entries("model", "&m \"m1\"", "pi", "{model: *m}", "temperature", "1e3",
				"limits", "{hex: 0x1F, oct: 0o17, inf: .inf, nan: .nan, big: 12345678901234567890, date: 2001-12-14, zero: -0, dot: .5, t: True, n: ~}"), nil, nil, nil)
			w.Profiles[0].Top = entries("label", `"\ud83d\ude80 Launch \/ go"`, "description", "|-\n  Kept\n\n  apart.")
			w.Profiles[0].Text = proptest.Text{Header: "%YAML 1.2\n---\n", Trailer: "...\n", BOM: true}
			w.User.Extra = entries("custom_settings", "{<<: {team: merged, n: 0x1F}, big: 12345678901234567890, e: 1e3, inf: .inf, d: 2001-12-14, o: 0o17}")
			w.User.Text = proptest.Text{CRLF: true, Header: "--- # settings\n"}
			return w
		}(),
		"quoted-control-characters": func() proptest.World {
			w := minimalWorld("pi", entries("model", `"m1"`), nil, nil, nil)
			w.Profiles[0].Text = proptest.Text{CRLF: true, Break: "open_flow"}
			return w
		}(),
		"liquid-undefined-in-tag": minimalWorld("pi", entries("system_prompt", `"x\n[[% for s in outfitter.nothing %]][[= s ]][[% endfor %]]"`), nil, nil, nil),
		"skill-md-validation": minimalWorld("pi", entries("skills", "[review]"), nil, nil,
			[]proptest.File{{Path: "project/.outfitter/skills/review/SKILL.md", Data: "# review\n"}}),
		"skill-error-scope": minimalWorld("pi", entries("pi", "{skills: [{id: ghost-skill}]}"), nil, nil, nil),
		"json-error-text": minimalWorld("pi", nil, nil, nil,
			[]proptest.File{{Path: "home/.pi/agent/keybindings.json", Data: "{\n"}}),
		"pi-skill-path-resolution": minimalWorld("pi", entries("skills", "[skills/review]"), nil,
			[]proptest.File{{Path: "skills/review/SKILL.md", Data: skillMD("review")}}, nil),
		"skill-reference-materialization": minimalWorld("pi", entries("skills", "[review]"), nil, nil, []proptest.File{
			{Path: "project/.outfitter/skills/review/SKILL.md", Data: "---\nname: review\nreferences:\n  - file: docs/ref.md\n---\nUse review.\n"},
			{Path: "project/docs/ref.md", Data: "Reference.\n"},
		}),
		"pi-planning-error-order": minimalWorld("pi", nil, nil, []proptest.File{{Path: "cli_specific/pi/.mcp.json", Data: "[1, 2]\n"}},
			[]proptest.File{{Path: "home/.pi/agent/keybindings.json", Data: "{\n"}}),
		"system-prompt-export": func() proptest.World {
			w := minimalWorld("pi", nil, nil, nil, nil)
			w.Profiles[0].Top = entries("profile_export", "true")
			return w
		}(),
		// The documented deviation: a relative claude session_directory
		// is created against the project, upstream's against the working
		// directory, which is the project when capturing.
		"relative-session-directory": minimalWorld("claude", entries("session_directory", `"./sessions/s1"`), nil, nil, nil),
	}
}
