package jsstack

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzParseYAML: ParseYAML never panics, whatever the text, and what it
// refuses it refuses with an error; the seeds are the library table's
// documents.
func FuzzParseYAML(f *testing.F) {
	data, err := os.ReadFile("testdata/node-yaml.json")
	if err != nil {
		f.Fatal(err)
	}
	var rows [][2]json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		f.Fatal(err)
	}
	for _, r := range rows {
		var doc string
		if err := json.Unmarshal(r[0], &doc); err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseYAML(data)
		if err != nil && v != nil {
			t.Fatalf("a value and an error: %v", err)
		}
		if err != nil && err.Error() == "" {
			t.Fatal("an error without text")
		}
	})
}
