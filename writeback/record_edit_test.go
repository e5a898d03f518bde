package writeback_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestRecordEditsOneLine: the "always" answer changes the profile file by
// one line, the entry it sets, and keeps every other byte: comments, blank
// lines, indentation, quoting and flow collections (the re-encoding it
// replaced dropped the blank lines, re-indented to two spaces and moved
// comments).
func TestRecordEditsOneLine(t *testing.T) {
	const head = "# my profile\nid: a\n\ncontrols:\n    model: m1   # the model\n" +
		"    environment: {A: \"x\"}\n    skills: [ review ]\n    list:\n    - one\n"
	for _, tc := range []struct {
		name, key, in, want string
	}{{
		name: "existing entry",
		key:  "settings.json",
		in:   head + "\nstate_persistence:\n    settings.json: prompt   # ask me\n    mcp.json: \"prompt\"\n\nlabel: x\n",
		want: head + "\nstate_persistence:\n    settings.json: symlink   # ask me\n    mcp.json: \"prompt\"\n\nlabel: x\n",
	}, {
		name: "existing quoted entry",
		key:  "mcp.json",
		in:   head + "state_persistence:\n    settings.json: prompt\n    \"mcp.json\": 'prompt'\n",
		want: head + "state_persistence:\n    settings.json: prompt\n    \"mcp.json\": symlink\n",
	}, {
		name: "new entry after the last one",
		key:  "plugins/",
		in:   head + "state_persistence:\n    settings.json: prompt\n    mcp.json:\n        prompt\n\n# the label\nlabel: x\n",
		want: head + "state_persistence:\n    settings.json: prompt\n    mcp.json:\n        prompt\n    plugins/: symlink\n\n# the label\nlabel: x\n",
	}, {
		name: "empty mapping",
		key:  "plugins/",
		in:   head + "state_persistence:   # none yet\nlabel: x\n",
		want: head + "state_persistence:   # none yet\n    plugins/: symlink\nlabel: x\n",
	}, {
		name: "no mapping",
		key:  "plugins/",
		in:   head + "\n# end\n",
		want: head + "\n# end\nstate_persistence:\n    plugins/: symlink\n",
	}, {
		name: "CRLF line endings",
		key:  "plugins/",
		in:   "id: a\r\nstate_persistence:\r\n  mcp.json: prompt\r\nlabel: x\r\n",
		want: "id: a\r\nstate_persistence:\r\n  mcp.json: prompt\r\n  plugins/: symlink\r\nlabel: x\r\n",
	}, {
		name: "no mapping and no final line feed",
		key:  "plugins/",
		in:   "id: a",
		want: "id: a\nstate_persistence:\n  plugins/: symlink\n",
	}, {
		name: "double-quoted value with escaped quotes",
		key:  "settings.json",
		in:   "state_persistence:\n  settings.json: \"pr\\\"o\\\"mpt\"  # q\n  mcp.json: prompt\n",
		want: "state_persistence:\n  settings.json: symlink  # q\n  mcp.json: prompt\n",
	}, {
		name: "single-quoted value with a doubled quote",
		key:  "settings.json",
		in:   "state_persistence:\n  settings.json: 'it''s'  # q\n  mcp.json: prompt\n",
		want: "state_persistence:\n  settings.json: symlink  # q\n  mcp.json: prompt\n",
	}, {
		name: "plain value with a # inside and a tab before its comment",
		key:  "settings.json",
		in:   "state_persistence:\n  settings.json: pro#mpt \t# q\n",
		want: "state_persistence:\n  settings.json: symlink \t# q\n",
	}, {
		name: "plain value with a comment whose # no space follows",
		key:  "settings.json",
		in:   "state_persistence:\n  settings.json: prompt #q\n",
		want: "state_persistence:\n  settings.json: symlink #q\n",
	}, {
		name: "null value",
		key:  "settings.json",
		in:   "state_persistence:\n  settings.json: ~   # unset\nlabel: x\n",
		want: "state_persistence:\n  settings.json: symlink   # unset\nlabel: x\n",
	}, {
		name: "empty quoted value",
		key:  "settings.json",
		in:   "state_persistence:\n  settings.json: ''   # empty\nlabel: x\n",
		want: "state_persistence:\n  settings.json: symlink   # empty\nlabel: x\n",
	}, {
		name: "existing entry on the last line, no final line feed",
		key:  "settings.json",
		in:   "id: a\nstate_persistence:\n  settings.json: prompt",
		want: "id: a\nstate_persistence:\n  settings.json: symlink",
	}, {
		name: "empty mapping on the first line, one space before its comment",
		key:  "plugins/",
		in:   "state_persistence: # none yet\n\nid: a\n",
		want: "state_persistence: # none yet\n  plugins/: symlink\n\nid: a\n",
	}, {
		name: "empty mapping on the last line, no final line feed",
		key:  "plugins/",
		in:   "id: a\nstate_persistence:",
		want: "id: a\nstate_persistence:\n  plugins/: symlink\n",
	}, {
		name: "new entry after one on the last line, no final line feed",
		key:  "plugins/",
		in:   "id: a\nstate_persistence:\n    mcp.json: prompt",
		want: "id: a\nstate_persistence:\n    mcp.json: prompt\n    plugins/: symlink\n",
	}, {
		name: "new entry after a value of two lines",
		key:  "plugins/",
		in:   "state_persistence:\n  mcp.json:\n    pro\n    mpt\nlabel: x\n",
		want: "state_persistence:\n  mcp.json:\n    pro\n    mpt\n  plugins/: symlink\nlabel: x\n",
	}, {
		name: "new entry after a value running to the end of the file",
		key:  "plugins/",
		in:   "state_persistence:\n  mcp.json:\n    prompt",
		want: "state_persistence:\n  mcp.json:\n    prompt\n  plugins/: symlink\n",
	}, {
		name: "new entry after a sequence at the entries' indentation",
		key:  "plugins/",
		in:   "state_persistence:\n  mcp.json:\n  - a\n  - b\nlabel: x\n",
		want: "state_persistence:\n  mcp.json:\n  - a\n  - b\n  plugins/: symlink\nlabel: x\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMemFS(vfs.MemOptions{})
			vfstest.Build(t, fsys, "/", vfstest.Tree{"p.yml": vfstest.File(tc.in)})
			must(t, writeback.Record(fsys, "/p.yml", tc.key))
			got, err := fsys.ReadFile("/p.yml")
			must(t, err)
			if string(got) != tc.want {
				t.Errorf("edited profile:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestRecordFallsBackToReencoding: where no one-line edit says it (a flow
// mapping, a tagged or anchored value, a block scalar), the document is
// re-encoded, and still holds the entry and everything else.
func TestRecordFallsBackToReencoding(t *testing.T) {
	for _, in := range []string{
		"id: a\nstate_persistence: {settings.json: prompt}\n",
		"id: a\nstate_persistence: {}\n",
		"id: a\nstate_persistence: null\n",
		"id: a\nstate_persistence:\n  settings.json: !!str prompt\n",
		"id: a\nstate_persistence:\n  settings.json: &p prompt\n",
		"id: a\nstate_persistence:\n  settings.json: |\n    prompt\n",
		"{id: a}\n",
		"",
		"id: a\nstate_persistence:\n  settings.json: \"pro\n    mpt\"\n",
		"id: a\nstate_persistence:\n  settings.json: 'pro\n    mpt'\n",
	} {
		fsys := vfs.NewMemFS(vfs.MemOptions{})
		vfstest.Build(t, fsys, "/", vfstest.Tree{"p.yml": vfstest.File(in)})
		must(t, writeback.Record(fsys, "/p.yml", "settings.json"))
		got, err := fsys.ReadFile("/p.yml")
		must(t, err)
		var doc struct {
			ID    string            `yaml:"id"`
			State map[string]string `yaml:"state_persistence"`
		}
		if err := yaml.Unmarshal(got, &doc); err != nil {
			t.Fatalf("%q: edited profile does not parse: %v\n%s", in, err, got)
		}
		if doc.State["settings.json"] != "symlink" || (in != "" && doc.ID != "a") {
			t.Errorf("%q: edited profile:\n%s", in, got)
		}
	}
}

// TestPropRecordEditsOneLine: on random profile files (two- or
// four-space indentation, comments, blank lines, flow and block
// collections, quoted and plain values, with or without a
// state_persistence mapping, LF or CRLF), the "always" answer changes
// exactly one line (none when the entry was symlink already) or adds
// exactly one (two for a new mapping), and the result holds the original
// data with the entry set.
func TestPropRecordEditsOneLine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ind := strings.Repeat(" ", rapid.SampledFrom([]int{2, 4}).Draw(t, "indent"))
		nl := rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(t, "newline")
		values := []string{"prompt", "\"prompt\"", "'discard'", "warn   # why", "symlink"}
		keys := []string{"settings.json", "\"mcp.json\"", "plugins/", "'models.json'"}
		var lines []string
		filler := func(label string) {
			for range rapid.IntRange(0, 2).Draw(t, label) {
				lines = append(lines, rapid.SampledFrom([]string{"", "# a comment", "  # indented comment"}).Draw(t, label+"-line"))
			}
		}
		lines = append(lines, "id: a")
		filler("head")
		lines = append(lines, "controls:", ind+"model: m1   # the model", ind+"environment: {A: \"x\"}", ind+"list:", ind+"- one", ind+"-   two")
		filler("controls")
		state := rapid.SampledFrom([]string{"none", "empty", "entries"}).Draw(t, "state")
		var present []string
		if state != "none" {
			lines = append(lines, rapid.SampledFrom([]string{"state_persistence:", "state_persistence:   # overrides"}).Draw(t, "state-key"))
		}
		if state == "entries" {
			for i, k := range rapid.Permutation(keys).Draw(t, "keys")[:rapid.IntRange(1, len(keys)).Draw(t, "n")] {
				v := rapid.SampledFrom(values).Draw(t, "value")
				if rapid.Bool().Draw(t, "nested") {
					lines = append(lines, ind+k+":", ind+ind+v)
				} else {
					lines = append(lines, ind+k+": "+v)
				}
				if i == 0 {
					filler("between")
				}
				present = append(present, strings.Trim(k, "\"'"))
			}
		}
		filler("state")
		if rapid.Bool().Draw(t, "label") {
			lines = append(lines, "label: \"A long label\"")
		}
		in := strings.Join(lines, nl)
		if rapid.Bool().Draw(t, "final-newline") {
			in += nl
		}
		key := rapid.SampledFrom([]string{"settings.json", "mcp.json", "plugins/", "models.json", "trust.json"}).Draw(t, "key")

		fsys := vfs.NewMemFS(vfs.MemOptions{})
		if err := vfs.WriteFile(fsys, "/p.yml", []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := writeback.Record(fsys, "/p.yml", key); err != nil {
			t.Fatal(err)
		}
		got, err := fsys.ReadFile("/p.yml")
		if err != nil {
			t.Fatal(err)
		}
		var before, after map[string]any
		if err := yaml.Unmarshal([]byte(in), &before); err != nil {
			t.Fatalf("input does not parse: %v\n%s", err, in)
		}
		if err := yaml.Unmarshal(got, &after); err != nil {
			t.Fatalf("edited profile does not parse: %v\n%s", err, got)
		}
		sp, _ := before["state_persistence"].(map[string]any)
		if sp == nil {
			sp = map[string]any{}
		}
		sp[key] = "symlink"
		before["state_persistence"] = sp
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("edited profile holds %v, want %v\n%s", after, before, got)
		}
		// The text: the same lines but one changed, or one or two added.
		a := strings.Split(strings.TrimSuffix(in, nl), nl)
		b := strings.Split(strings.TrimSuffix(string(got), nl), nl)
		p := 0
		for p < len(a) && p < len(b) && a[p] == b[p] {
			p++
		}
		s := 0
		for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
			s++
		}
		removed, added := len(a)-p-s, len(b)-p-s
		want := 1
		if state == "none" {
			want = 2
		}
		switch {
		case slices.Contains(present, key) && removed == added && removed <= 1: // none when it was symlink
		case !slices.Contains(present, key) && removed == 0 && added == want:
		default:
			t.Fatalf("edit removed %d lines and added %d:\n%q\nbecame\n%q", removed, added, in, got)
		}
	})
}
