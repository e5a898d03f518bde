package sim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// upstreamScenarios parses the scenario files of fixtures/upstream, in
// file name order.
func upstreamScenarios(tb testing.TB) []*fixtures.Scenario {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "upstream", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []*fixtures.Scenario
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		sc, err := fixtures.ParseScenario(data, f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, sc)
	}
	return out
}

// newMachine is a memory machine with a home, a project and /tmp, and the
// given files.
func newMachine(t *testing.T, files map[string]string) *vfs.MemFS {
	t.Helper()
	m := vfs.NewMemFS(vfs.MemOptions{})
	for _, d := range []string{"/h", "/p", "/tmp"} {
		if err := m.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vfstest.WriteFiles(t, m, "/", files)
	return m
}
