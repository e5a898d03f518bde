package composite_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
)

// TestPlanNamesAnUnusableTempDir: a temporary directory that the file
// system does not hold (the default /tmp of a memory FS that has none)
// or that is not absolute fails the plan with an error naming
// Options.TempDir and saying what to give, not with mkdtemp's "no such
// file or directory".
func TestPlanNamesAnUnusableTempDir(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\n"}}
	for _, tc := range []struct{ name, tempDir, remove, says string }{
		{"default /tmp absent", "", "/tmp", `is "", a directory the file system does not hold ("" means /tmp)`},
		{"absent", "/var/none", "", `is "/var/none", a directory`},
		{"relative", "tmp", "", `is "tmp", not an absolute path`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := w.newFS(t)
			if tc.remove != "" {
				must(t, fsys.RemoveAll(tc.remove))
			}
			res := w.resolve(t, fsys)
			_, err := composite.Plan(fsys, composite.Request{Result: res}, composite.Options{TempDir: tc.tempDir})
			oe, ok := errors.AsType[*resolve.OptionError](err)
			if !ok || oe.Option != "composite.Options.TempDir" || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "os.TempDir()") {
				t.Errorf("Plan = %v, want an *OptionError naming composite.Options.TempDir that says %q and os.TempDir()", err, tc.says)
			}
		})
	}
}
