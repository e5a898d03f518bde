package jsstack

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestNodeUTF16MatchesNode checks NodeUTF16 on ill-formed UTF-8 around
// every boundary of the lead and continuation bytes against Node's own
// decoding: testdata/node-utf8-decoding.json holds, for each byte
// sequence (hex), the UTF-16 units of Buffer.from(bytes).toString("utf8")
// in Node 20 (lead bytes C1 C2 DF E0 E1 EC ED EE EF F0 F1 F3 F4 F5, a
// first continuation 7F 80 8F 90 9F A0 BF or C0, then up to two 80, then
// "x").
func TestNodeUTF16MatchesNode(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/node-utf8-decoding.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][2]string
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	// Sequences cut by the end of the text, also from Node.
	rows = append(rows, [2]string{"f090", "fffd"}, [2]string{"e0a0", "fffd"}, [2]string{"f09080", "fffd"}, [2]string{"c2", "fffd"})
	if len(rows) < 300 {
		t.Fatalf("%d rows of Node's decoding, want the whole table", len(rows))
	}
	for _, row := range rows {
		in, err := hex.DecodeString(row[0])
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range NodeUTF16(in) {
			got = append(got, fmt.Sprintf("%04x", u))
		}
		if strings.Join(got, " ") != row[1] {
			t.Errorf("NodeUTF16(%s) = %s, Node gives %s", row[0], strings.Join(got, " "), row[1])
		}
	}
}
