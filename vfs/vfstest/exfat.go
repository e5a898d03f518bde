package vfstest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// exfatTools are the commands [MountExFAT] runs, and the Debian package
// of each.
var exfatTools = []struct{ cmd, pkg string }{
	{"mkfs.exfat", "exfatprogs"},
	{"mount.exfat-fuse", "exfat-fuse"},
	{"losetup", "mount"},
	{"umount", "mount"},
	{"cc", "gcc"},
}

// noCacheShim makes exfat-fuse's FUSE library tell the kernel to cache
// neither names nor content: it adds libfuse's own options to the
// arguments that exfat-fuse hands to fuse_main_real (exfat-fuse takes -o
// options for itself and drops libfuse's). The kernel's caches key a
// name by its exact spelling, and libfuse gives each spelling of one
// entry a node of its own: with libfuse's defaults, a name looked up in
// one case is still found for a second after the entry was removed or
// renamed under another case, and a file read under one spelling keeps
// its cached content after a write of the same size under another.
// Those are faults of the caches in front of exFAT, not of exFAT, and a
// sequence of operations faster than a second would report them.
const noCacheShim = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
struct fuse_operations;
typedef int (*main_fn)(int, char **, const struct fuse_operations *, size_t, void *);
int fuse_main_real(int argc, char **argv, const struct fuse_operations *op, size_t size, void *data) {
	main_fn real = (main_fn)dlsym(RTLD_NEXT, "fuse_main_real");
	char **args = calloc(argc + 3, sizeof(char *));
	for (int i = 0; i < argc; i++) args[i] = argv[i];
	args[argc] = "-o";
	args[argc + 1] = "entry_timeout=0,negative_timeout=0,attr_timeout=0,direct_io";
	return real(argc + 2, args, op, size, data);
}
`

// MountExFAT makes a real case-insensitive file system for t: a 64 MiB
// exFAT image below t.TempDir(), formatted with mkfs.exfat (Debian's
// exfatprogs), attached to a loop device and mounted with exfat-fuse
// (Debian's exfat-fuse), and returns the directory it is mounted on. The
// mount is removed, and the loop device detached, when t ends.
//
// It needs Linux, root, /dev/fuse, a free loop device, the tools above
// and a C compiler (for the shim that turns off the kernel's caching of
// names and content, see noCacheShim). Where one of them is missing, or the
// mount cannot be made, it skips t and says which and why. It fails t
// when the mount is made but does not fold case, which would make every
// result meaningless.
func MountExFAT(t *testing.T) string {
	t.Helper()
	skip := func(format string, args ...any) {
		t.Helper()
		t.Skipf("SKIPPED: no exFAT mount, so the case-folding differential against a real case-insensitive file system did not run: "+format, args...)
	}
	if runtime.GOOS != "linux" {
		skip("it needs Linux, this is %s", runtime.GOOS)
	}
	if os.Geteuid() != 0 {
		skip("it needs root to attach a loop device and mount it")
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		skip("/dev/fuse: %v", err)
	}
	tools := map[string]string{}
	for _, tool := range exfatTools {
		p, err := lookTool(tool.cmd)
		if err != nil {
			skip("%s is missing (Debian package %s): %v", tool.cmd, tool.pkg, err)
		}
		tools[tool.cmd] = p
	}
	dir := t.TempDir()
	run := func(env []string, name string, args ...string) (string, error) {
		cmd := exec.Command(tools[name], args...)
		cmd.Env = append(os.Environ(), env...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if err != nil {
			err = fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
		}
		return strings.TrimSpace(out.String()), err
	}
	img := filepath.Join(dir, "exfat.img")
	f, err := os.Create(img)
	if err == nil {
		err = errors.Join(f.Truncate(64<<20), f.Close())
	}
	if err != nil {
		t.Fatalf("image: %v", err)
	}
	if _, err := run(nil, "mkfs.exfat", img); err != nil {
		skip("%v", err)
	}
	shimC, shim := filepath.Join(dir, "shim.c"), filepath.Join(dir, "shim.so")
	if err := os.WriteFile(shimC, []byte(noCacheShim), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run(nil, "cc", "-shared", "-fPIC", "-o", shim, shimC, "-ldl"); err != nil {
		skip("the shim that turns off the kernel's caches does not build: %v", err)
	}
	loop, err := run(nil, "losetup", "-f", "--show", img)
	if err != nil {
		skip("no loop device: %v", err)
	}
	t.Cleanup(func() {
		if _, err := run(nil, "losetup", "-d", loop); err != nil {
			t.Errorf("detach: %v", err)
		}
	})
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := run([]string{"LD_PRELOAD=" + shim}, "mount.exfat-fuse", loop, mnt); err != nil {
		skip("%v", err)
	}
	t.Cleanup(func() {
		if _, err := run(nil, "umount", mnt); err != nil {
			t.Errorf("unmount: %v", err)
		}
	})
	// The mount must be exFAT's, and fold case.
	probe := filepath.Join(mnt, "Probe")
	if err := os.WriteFile(probe, nil, 0o644); err != nil {
		t.Fatalf("exFAT mount: %v", err)
	}
	if _, err := os.Stat(filepath.Join(mnt, "PROBE")); err != nil {
		t.Fatalf("exFAT mount at %s does not fold case: %v", mnt, err)
	}
	if err := os.Remove(filepath.Join(mnt, "probe")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(probe); err == nil {
		t.Fatalf("exFAT mount at %s still shows a removed name: the kernel caches names", mnt)
	}
	return mnt
}

// lookTool finds a command in $PATH or, for a PATH without them, in the
// system directories where Debian installs mount and format tools.
func lookTool(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		if q, qerr := exec.LookPath(filepath.Join(dir, name)); qerr == nil {
			return q, nil
		}
	}
	return "", err
}
