package writeback_test

import (
	"errors"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// TestRefreshRefusesARootReplacedByALink: an agent that replaces the
// composite root by a link to durable state must not have a refresh write
// into that state.
func TestRefreshRefusesARootReplacedByALink(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	const durable = "/h/.pi/agent"
	must(t, m.MkdirAll(durable, 0o755))
	must(t, m.WriteFile(durable+"/keybindings.json", []byte(`{"mine":"ctrl+k"}`), 0o644))
	must(t, m.MkdirAll("/tmp", 0o755))
	must(t, m.Symlink(durable, "/tmp/outfitter-x-pi-AAAAAA"))
	before := vfstest.Snapshot(t, m, "/h")
	generate := func() ([]composite.File, error) {
		return []composite.File{{RelativePath: "keybindings.json", Content: "{}\n"}, {RelativePath: "outfitter/profile.json", Content: "{}\n"}}, nil
	}
	_, err := writeback.Refresh(m, "/tmp/outfitter-x-pi-AAAAAA", vfs.Tree{}, nil, "/p/profile.yml", generate)
	var re *writeback.RefreshError
	if !errors.As(err, &re) {
		t.Fatalf("Refresh = %v, want a *RefreshError", err)
	}
	vfstest.WantUnchanged(t, m, "/h", before, "refresh through a replaced root changed durable state")
}
