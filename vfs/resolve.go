package vfs

import (
	"syscall"
)

// Kind says what a lookup found.
type Kind uint8

// The kinds of entries [Resolve] tells apart.
const (
	KindNone Kind = iota // no entry: the name is missing
	KindDir              // a directory
	KindLink             // a symbolic link
	KindFile             // a regular file or any other non-directory
)

// A Lookup is what [Resolve] needs to know of a backend's entries. N is
// the backend's handle on an entry (a node, a merged entry); Resolve keeps
// handles on a stack and hands them back without looking inside.
type Lookup[N any] interface {
	// Child looks up name in the directory dir. name is
	// src[at:at+len(name)], where src is the string being resolved (the
	// name, or a link target followed by the rest of the name), so that a
	// backend keying entries by path can take a canonical name as a
	// prefix of src without allocating. For a missing name Child returns
	// KindNone and its negative entry, which Resolve returns as the final
	// entry when name is the last component. The error is a failure of the
	// backend itself, returned as it is.
	Child(dir N, src string, at int, name string) (N, Kind, error)
	// ReadLink returns the target of the link n, verbatim.
	ReadLink(n N) (string, error)
}

// ResolveMode says how [Resolve] treats the final component of a name.
type ResolveMode uint8

const (
	// ResolveFollow follows a final symbolic link (stat, open). Without
	// it a final link is the final entry (lstat, readlink), unless a
	// trailing slash makes the resolution follow it.
	ResolveFollow ResolveMode = 1 << iota
	// ResolveCreate is the lookup of an open with O_CREAT: a final name
	// under a trailing slash (the name's own, or that of a link target
	// followed last) is EISDIR before it is looked up, as the kernel's
	// open_last_lookups does.
	ResolveCreate
	// ResolveParent is the lookup of the calls that create or remove the
	// final name (mkdir, symlink, unlink, rmdir, rename): the final
	// component is looked up as it is, never followed, and a trailing
	// slash does not require a directory; the call applies the slash's
	// rule itself.
	ResolveParent
)

// Resolution is the final entry of a name that [Resolve] resolved.
type Resolution[N any] struct {
	// Final is the final entry: the top of the stack Resolve returns when
	// Kind is not KindNone, else the negative entry the lookup of the
	// final name returned.
	Final N
	// Kind is the kind of the final entry; KindNone when it is missing.
	Kind Kind
}

// Resolve resolves name the way the kernel's path walk does, over the
// entries that l looks up, starting from root, which must be a directory.
// It is the one resolver of the package's backends ([MemFS], and the
// overlay of package vfs/overlayfs); each keeps its own entries and says
// through l how to look one up.
//
// The rules: the name is resolved component by component from root; a
// component of more than [NameMax] bytes is ENAMETOOLONG; "." stays and
// ".." steps back to the parent of the directory actually reached (never
// above root); an intermediate symbolic link is followed (its target
// resolves from the link's directory, or from root when it is absolute),
// and so is a final one with [ResolveFollow] or under a trailing slash,
// at most [MaxSymlinkHops] links in all, after which the result is ELOOP;
// an empty target is ENOENT. A missing intermediate component is ENOENT,
// a non-directory one ENOTDIR. A trailing slash (the name's, or that of
// the target of a final link) wants a directory: ENOTDIR otherwise, unless
// mode has [ResolveParent]. A missing final entry is no error: the
// result's Kind is KindNone. The name's own checks ([CheckName]) are the
// caller's.
//
// Resolve returns the stack, the final entry, passed and the error. The
// stack holds the directories from the root down to the parent of the
// final entry, then the final entry when it exists (a name that ends at a
// directory already on the stack, the root or a final "." or "..", ends
// with that directory, which is then the final entry); it is appended to
// stackBuf. The errors are bare errno values (or the backend's own
// errors), for the caller to wrap with its op and the caller's name. When
// passed is not nil, Resolve appends to it, in order, every entry the
// resolution passed through: the directories it descended into, the links
// it followed, and a final non-directory that fails a trailing slash; it
// returns passed also when it fails.
func Resolve[N any, L Lookup[N]](l L, root N, name string, mode ResolveMode, stackBuf, passed []N) ([]N, Resolution[N], []N, error) {
	// The stack and passed are kept apart from the resolver, whose
	// strings go to the backend: escape analysis would otherwise move
	// the caller's stack buffer to the heap.
	stack := append(stackBuf[:0], root)
	r := resolver{rest: name, src: name, mode: mode}
	// "/" alone resolves to the root, a directory, slash or not: >= 1 (a
	// mutant) is equivalent.
	//mutants:equivalent CONDITIONALS_BOUNDARY
	r.slash = len(name) > 1 && name[len(name)-1] == '/'
	r.follow = mode&ResolveFollow != 0 || r.slash && mode&ResolveParent == 0
	for {
		comp, more, ok := r.next()
		if !ok {
			// The name ends at the directory on top of the stack: the
			// root, or a name ending in "." or "..".
			return stack, Resolution[N]{Final: stack[len(stack)-1], Kind: KindDir}, passed, nil
		}
		last := onlySlashes(more)
		if err := r.check(comp, last); err != nil {
			return nil, Resolution[N]{}, passed, err
		}
		switch comp {
		case ".":
			r.rest = more
			continue
		case "..":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			r.rest = more
			continue
		}
		child, kind, lerr := l.Child(stack[len(stack)-1], r.src, len(r.src)-len(r.rest), comp)
		if lerr != nil {
			return nil, Resolution[N]{}, passed, lerr
		}
		switch {
		case kind == KindNone:
			// Missing: the caller may create a final name; an
			// intermediate one is ENOENT.
			if !last {
				return nil, Resolution[N]{}, passed, syscall.ENOENT
			}
			return stack, Resolution[N]{Final: child}, passed, nil
		case kind == KindLink && (!last || r.follow):
			if r.hops++; r.hops > MaxSymlinkHops {
				return nil, Resolution[N]{}, passed, syscall.ELOOP
			}
			passed = record(passed, child)
			t, err := l.ReadLink(child)
			if err == nil {
				err = r.followLink(t, more, last)
			}
			if err != nil {
				return nil, Resolution[N]{}, passed, err
			}
			if t[0] == '/' {
				stack = stack[:1]
			}
			continue
		case last:
			// Found: a trailing slash wants a directory, unless the
			// caller applies the slash's rule itself.
			if r.slash && kind != KindDir && mode&ResolveParent == 0 {
				return nil, Resolution[N]{}, record(passed, child), syscall.ENOTDIR
			}
			stack = append(stack, child)
			return stack, Resolution[N]{Final: child, Kind: kind}, passed, nil
		}
		// Descend into an intermediate entry, which must be a directory.
		passed = record(passed, child)
		if kind != KindDir {
			return nil, Resolution[N]{}, passed, syscall.ENOTDIR
		}
		stack = append(stack, child)
		r.rest = more
	}
}

// record notes an entry the resolution passed through, when asked to.
func record[N any](passed []N, n N) []N {
	if passed != nil {
		passed = append(passed, n)
	}
	return passed
}

// resolver is the state of one [Resolve] apart from its stack.
type resolver struct {
	// rest is what remains to resolve; it is a suffix of src, the name or
	// the last link target followed with the rest of the name after it.
	rest, src string
	mode      ResolveMode
	hops      int
	// slash says that the final entry must be a directory (a trailing
	// slash); follow that a final link is followed.
	slash, follow bool
}

// next skips the slashes that lead rest and returns its first component
// and what follows it; ok is false when nothing is left.
func (r *resolver) next() (comp, more string, ok bool) {
	for len(r.rest) > 0 && r.rest[0] == '/' {
		r.rest = r.rest[1:]
	}
	if r.rest == "" {
		return "", "", false
	}
	for i := 0; i < len(r.rest); i++ {
		if r.rest[i] == '/' {
			return r.rest[:i], r.rest[i:], true
		}
	}
	return r.rest, "", true
}

// check refuses a component before it is looked up: one longer than
// NameMax, and a final one under a trailing slash when creating.
func (r *resolver) check(comp string, last bool) error {
	if len(comp) > NameMax {
		return syscall.ENAMETOOLONG
	}
	if last && r.slash && r.mode&ResolveCreate != 0 && comp != "." && comp != ".." {
		return syscall.EISDIR
	}
	return nil
}

// followLink replaces a link by its target t in what remains to resolve:
// the target, then more, the rest of the name after the link.
func (r *resolver) followLink(t, more string, last bool) error {
	if t == "" {
		return syscall.ENOENT
	}
	// A target's own trailing slash: what it names must be a directory,
	// and a final link there is followed. (A target of "/" names the
	// root, a directory: >= 1, a mutant, is equivalent.)
	//mutants:equivalent CONDITIONALS_BOUNDARY
	if last && len(t) > 1 && t[len(t)-1] == '/' {
		r.slash, r.follow = true, true
	}
	r.rest = t + more
	r.src = r.rest
	return nil
}

// onlySlashes reports whether s holds nothing but slashes.
func onlySlashes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '/' {
			return false
		}
	}
	return true
}
