package osfs

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/outfitter-go/vfsim/vfs"
)

// follow selects whether resolution follows a symbolic link in the final
// component of a name.
type follow int

const (
	noFollowFinal follow = iota
	followFinal
	// createFinal is followFinal for an open with O_CREATE: a final name
	// under a trailing slash (the name's, or a followed link target's) is
	// EISDIR before it is looked up, as in the kernel.
	createFinal
)

// hostPath maps the vfs name to a host path. For the host FS it checks
// that name is absolute and returns it unchanged. For a rooted FS it
// resolves every component below the root like a chroot would: symbolic
// links (absolute targets from the root, relative ones from the link's
// directory) are read with Readlink and followed, at most
// [vfs.MaxSymlinkHops] times, and ".." never climbs above the root. The
// result names a host entry inside the root whose parents hold no link; the
// final component is a link only when fin is noFollowFinal. The error is a
// bare errno, for the caller to wrap with its own op and the vfs name.
func (f *FS) hostPath(name string, fin follow) (string, error) {
	if !strings.HasPrefix(name, "/") {
		return "", fs.ErrInvalid
	}
	if !f.rooted {
		return name, nil
	}
	// A trailing slash makes the kernel require a directory and follow a
	// final link; keep both behaviours.
	slash := len(name) > 1 && strings.HasSuffix(name, "/")
	if slash && fin == noFollowFinal {
		fin = followFinal
	}
	var stack []string // resolved, link-free components below the root
	todo := split(name)
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case ".":
			continue
		case "..":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		last := len(todo) == 0
		if last && slash && fin == createFinal {
			return "", syscall.EISDIR
		}
		cand := f.join(append(stack, c))
		if last && fin == noFollowFinal {
			stack = append(stack, c)
			break
		}
		fi, err := os.Lstat(cand)
		if err != nil {
			if last && errors.Is(err, syscall.ENOENT) {
				// A missing final entry is the caller's to create or report.
				stack = append(stack, c)
				break
			}
			return "", errnoOf(err)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			hops++
			if hops > vfs.MaxSymlinkHops {
				return "", syscall.ELOOP
			}
			target, err := os.Readlink(cand)
			if err != nil {
				return "", errnoOf(err)
			}
			if strings.HasPrefix(target, "/") {
				stack = stack[:0]
			}
			if last && len(target) > 1 && strings.HasSuffix(target, "/") {
				// The target's own trailing slash: what it names must
				// be a directory, and a final link there is followed.
				slash = true
			}
			todo = append(split(target), todo...)
			continue
		}
		if !last && !fi.IsDir() {
			return "", syscall.ENOTDIR
		}
		stack = append(stack, c)
	}
	p := f.join(stack)
	if slash && len(stack) > 0 {
		p += "/"
	}
	return p, nil
}

// join returns the host path of the resolved components.
func (f *FS) join(stack []string) string {
	if len(stack) == 0 {
		return f.root
	}
	return strings.TrimSuffix(f.root, "/") + "/" + strings.Join(stack, "/")
}

// split returns the non-empty slash-separated components of p.
func split(p string) []string {
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// errnoOf returns the errno inside an error from package os, or err itself.
func errnoOf(err error) error {
	var no syscall.Errno
	if errors.As(err, &no) {
		return no
	}
	return err
}
