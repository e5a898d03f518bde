package main

import (
	"strings"
	"testing"
)

// TestPlatformFlag checks vfsim run --platform and check --platform: the
// table of macOS cases passes as the platform each scenario names, fails
// as the other, and a bad platform or --overlay with a platform other
// than Linux is a usage error.
func TestPlatformFlag(t *testing.T) {
	t.Parallel()
	const fx = "../../testdata/platforms/macos_cases"
	if code, out, errs := runCLI(t, "run", "--fixture", fx, "--scenario", "darwin"); code != 0 {
		t.Errorf("run darwin = %d\n%s%s", code, out, errs)
	}
	code, out, _ := runCLI(t, "run", "--fixture", fx, "--scenario", "darwin", "--platform", "linux")
	if code != 1 || !strings.Contains(out, "failed expectations") {
		t.Errorf("run darwin --platform linux = %d, want 1 with failed expectations\n%s", code, out)
	}
	code, out, errs := runCLI(t, "check", "--platform", "darwin", fx)
	if code != 1 || !strings.Contains(out, "1 passed, 1 failed") {
		t.Errorf("check --platform darwin = %d, want the linux scenario alone failing\n%s%s", code, out, errs)
	}
	for _, args := range [][]string{
		{"run", "--fixture", fx, "--scenario", "linux", "--platform", "macos"},
		{"check", "--platform", "windows", fx},
		{"run", "--fixture", fx, "--scenario", "linux", "--overlay", "--platform", "darwin"},
	} {
		code, _, errs := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, "platform") && !strings.Contains(errs, "darwin") {
			t.Errorf("%q = %d, %q; want a usage error (2) about the platform", args, code, errs)
		}
	}
}
