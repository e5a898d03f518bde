package vfstest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/outfitter-go/vfsim/vfs"
)

// This file holds the helpers of differential tests against the kernel:
// a file system under test whose "/" stands for a real directory, driven
// by the same random operations as that directory through package os.

// HostDir is a real directory standing for the "/" of a file system under
// test. The name "/a/b" is the host path "<dir>/a/b"; an absolute link
// target "/a" is written to the host as "<dir>/a" so that both sides mean
// the same entry, and read back without the prefix.
type HostDir string

// Path returns the host path of the name (absolute, slash-separated).
func (h HostDir) Path(name string) string { return string(h) + name }

// MapTarget returns the host form of a link target: absolute targets gain
// the directory's prefix, relative ones are kept verbatim.
func (h HostDir) MapTarget(target string) string {
	if strings.HasPrefix(target, "/") {
		return h.Path(target)
	}
	return target
}

// UnmapTarget turns a host link target back into the file system's.
func (h HostDir) UnmapTarget(target string) string {
	if target == string(h) {
		return "/"
	}
	if rest, ok := strings.CutPrefix(target, string(h)+"/"); ok {
		return "/" + rest
	}
	return target
}

// Snapshot walks the directory like [vfs.Snapshot] walks a file system's
// "/", with link targets unmapped. A failure stops the test through tb.
func (h HostDir) Snapshot(tb TB) vfs.Tree {
	tb.Helper()
	tree := vfs.Tree{}
	root := string(h)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+"/"))
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			_, serr := os.Stat(p)
			tree[rel] = vfs.Entry{Type: vfs.TypeSymlink, Target: h.UnmapTarget(target), TargetExists: serr == nil}
		case info.IsDir():
			tree[rel] = vfs.Entry{Type: vfs.TypeDir, Mode: info.Mode().Perm()}
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			tree[rel] = vfs.Entry{Type: vfs.TypeFile, Mode: info.Mode().Perm(), Data: data}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("vfstest: walk %s: %v", root, err)
	}
	return tree
}

// PhysicalDir returns the name of the directory that dir resolves to on
// the host, or dir itself when it does not resolve inside the directory.
func (h HostDir) PhysicalDir(dir string) string {
	real, err := filepath.EvalSymlinks(h.Path(dir))
	if err != nil {
		return dir
	}
	if rest, ok := strings.CutPrefix(real, string(h)); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
		return "/" + strings.TrimPrefix(rest, "/")
	}
	return dir
}

// RenameEscapes reports whether renaming oldname to newname would move a
// relative link to a place where its leading ".." climb above "/": there
// the host directory has a parent and the file system under test has
// none, so the two differ by construction.
func (h HostDir) RenameEscapes(oldname, newname string) bool {
	base := Depth(h.PhysicalDir(parentName(newname)))
	oldHost := h.Path(oldname)
	escapes := false
	_ = filepath.WalkDir(oldHost, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := os.Readlink(p)
		if err != nil || filepath.IsAbs(target) {
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, oldHost), "/")
		parentDepth := base
		if rel != "" {
			parentDepth += strings.Count(rel, "/") + 1
		}
		if LeadingDotDots(target) > parentDepth {
			escapes = true
		}
		return nil
	})
	return escapes
}

// parentName is path.Dir for absolute names.
func parentName(name string) string {
	i := strings.LastIndexByte(strings.TrimRight(name, "/"), '/')
	if i <= 0 {
		return "/"
	}
	return name[:i]
}

// Depth is the number of components of an absolute name ("/" has none).
func Depth(name string) int {
	if name == "/" {
		return 0
	}
	return strings.Count(name, "/")
}

// LeadingDotDots counts the ".." components a relative target starts
// with, "." and empty components between them ignored (a target padded
// as "./////../a" climbs one level).
func LeadingDotDots(target string) int {
	n := 0
	for c := range strings.SplitSeq(target, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			n++
			continue
		}
		return n
	}
	return n
}

// RelativeTarget returns the link target that reaches the name to from a
// link in the directory dir: "../" as many times as needed, then the rest
// of to ("." when they are the same).
func RelativeTarget(dir, to string) string {
	var from []string
	if dir != "/" {
		from = strings.Split(strings.Trim(dir, "/"), "/")
	}
	parts := strings.Split(strings.Trim(to, "/"), "/")
	i := 0
	for i < len(from) && i < len(parts) && from[i] == parts[i] {
		i++
	}
	var out []string
	for range from[i:] {
		out = append(out, "..")
	}
	out = append(out, parts[i:]...)
	if len(out) == 0 {
		return "."
	}
	return strings.Join(out, "/")
}

// Resolving maps every link of a tree to whether it resolved.
func Resolving(tree vfs.Tree) map[string]bool {
	out := map[string]bool{}
	for p, e := range tree {
		if e.Type == vfs.TypeSymlink {
			out[p] = e.TargetExists
		}
	}
	return out
}

// EntryNames returns the names of a directory listing, in its order.
func EntryNames(list []fs.DirEntry) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Name()
	}
	return out
}

// EntryStrings describes a directory listing as "name:type" strings.
func EntryStrings(list []fs.DirEntry) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Name() + ":" + e.Type().String()
	}
	return out
}

// ProcessUmask reads the process's umask without changing it (from
// /proc/self/status, so on Linux only; syscall.Umask would change it under
// the feet of parallel tests). A failure stops the test through tb.
func ProcessUmask(tb TB) fs.FileMode {
	tb.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Fatalf("vfstest: read umask: %v", err)
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			u, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			if err != nil {
				tb.Fatalf("vfstest: parse umask %q: %v", v, err)
				return 0
			}
			return fs.FileMode(u)
		}
	}
	tb.Fatalf("vfstest: no Umask line in /proc/self/status")
	return 0
}

// ErrClass names the errno an error wraps ("ok" for nil), so that errors
// of different backends compare by class.
func ErrClass(err error) string {
	if err == nil {
		return "ok"
	}
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
		return errnoName(errno)
	case errors.Is(err, fs.ErrNotExist):
		return "ENOENT"
	case errors.Is(err, fs.ErrExist):
		return "EEXIST"
	case errors.Is(err, fs.ErrInvalid):
		return "EINVAL"
	case errors.Is(err, fs.ErrPermission):
		return "EACCES"
	case errors.Is(err, fs.ErrClosed):
		return "closed"
	}
	return "other: " + err.Error()
}

// errnoName returns the symbolic name of the errnos file operations meet.
func errnoName(errno syscall.Errno) string {
	names := map[syscall.Errno]string{
		syscall.ENOENT: "ENOENT", syscall.EEXIST: "EEXIST", syscall.ENOTDIR: "ENOTDIR",
		syscall.EISDIR: "EISDIR", syscall.ENOTEMPTY: "ENOTEMPTY", syscall.ELOOP: "ELOOP",
		syscall.EINVAL: "EINVAL", syscall.EBUSY: "EBUSY", syscall.EBADF: "EBADF",
		syscall.EROFS: "EROFS", syscall.EXDEV: "EXDEV", syscall.ENAMETOOLONG: "ENAMETOOLONG",
	}
	if n, ok := names[errno]; ok {
		return n
	}
	return "errno " + strconv.Itoa(int(errno))
}
