package sources_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs"
)

// TestOptionsLeftOut: a sync, a fetch or a refresh without a runner, or a
// sync without an absolute home or project, fails with an error naming
// the option and saying what to give, where it panicked (no runner) or
// failed on a relative path (".outfitter/cache/extensions/git: invalid
// argument") before.
func TestOptionsLeftOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	if err := fsys.MkdirAll("/h", 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error, option, says string) {
		t.Helper()
		oe, ok := errors.AsType[*resolve.OptionError](err)
		if !ok || oe.Option != option || !strings.Contains(err.Error(), says) {
			t.Errorf("%s = %v, want an *OptionError naming %s that says %q", what, err, option, says)
		}
	}
	run := sources.Exec{}
	_, err := sources.Sync(ctx, fsys, sources.Options{Home: "/h", Project: "/p"})
	check("Sync without a runner", err, "sources.Options.Runner", "sources.Exec{}")
	_, err = sources.Sync(ctx, fsys, sources.Options{Project: "/p", Runner: run})
	check("Sync without a home", err, "sources.Options.Home", `is "", not an absolute path`)
	_, err = sources.Sync(ctx, fsys, sources.Options{Home: "/h", Project: "p", Runner: run})
	check("Sync with a relative project", err, "sources.Options.Project", `is "p", not an absolute path`)
	err = sources.Fetch(ctx, fsys, nil, []composite.Checkout{{Dir: "/h/c", Source: "git:example.test/x"}}, nil)
	check("Fetch without a runner", err, "the Runner of sources.Fetch", "sources.Exec{}")
	_, err = sources.RefreshExtensions(ctx, fsys, nil, "/h/.outfitter/cache", nil)
	check("RefreshExtensions without a runner", err, "the Runner of sources.RefreshExtensions", "sources.Exec{}")
	r := sources.SyncSource(ctx, fsys, sources.Options{Home: "/h", Project: "/p"}, resolve.Source{URI: "https://example.test/x.git"})
	if r.Status != sources.StatusFailed || !strings.Contains(r.Message, "sources.Options.Runner is nil") {
		t.Errorf("SyncSource without a runner = %+v, want a failed result naming sources.Options.Runner", r)
	}
}
