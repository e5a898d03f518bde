package writeback_test

import (
	"testing"

	"go.yaml.in/yaml/v3"

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
