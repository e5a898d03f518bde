package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// A Platform names an operating system whose default file system a
// [MemFS] imitates, spelled as Node's process.platform spells it (the
// names upstream's code and its CI matrix use).
type Platform string

// The platforms a MemFS can imitate.
const (
	// PlatformLinux is Linux (ext4, tmpfs): names are bytes, compared
	// exactly. It is the default.
	PlatformLinux Platform = "linux"
	// PlatformDarwin is macOS on its default volume format, APFS
	// case-insensitive: lookups fold case and Unicode normalization,
	// names keep the spelling they were created with, names must be
	// valid UTF-8, and PATH_MAX is 1024.
	PlatformDarwin Platform = "darwin"
	// PlatformWin32 is Windows on NTFS, as far as names go: lookups fold
	// case (not normalization), names keep the spelling they were created
	// with.
	PlatformWin32 Platform = "win32"
)

// Platforms returns the platforms in a stable order, the default first.
func Platforms() []Platform { return []Platform{PlatformLinux, PlatformDarwin, PlatformWin32} }

// ParsePlatform returns the platform named s ("" is [PlatformLinux]), or
// an error naming s and the platforms known.
func ParsePlatform(s string) (Platform, error) {
	switch p := Platform(s); p {
	case "":
		return PlatformLinux, nil
	case PlatformLinux, PlatformDarwin, PlatformWin32:
		return p, nil
	}
	return "", fmt.Errorf("unknown platform %q (want linux, darwin or win32)", s)
}

// PathMaxOf returns the platform's PATH_MAX as [MemFS] applies it: a name
// argument or link target of that many bytes or more is [ErrNameTooLong].
// macOS's is 1024; Windows is given Linux's, its own limits (MAX_PATH, or
// none with long paths enabled) not being modelled.
func PathMaxOf(p Platform) int {
	if p == PlatformDarwin {
		return darwinPathMax
	}
	return PathMax
}

// darwinPathMax is macOS's PATH_MAX (sys/syslimits.h).
const darwinPathMax = 1024

// FoldName returns the key under which the platform's file system looks
// name up: two names of one directory are the same entry exactly when
// their keys are equal. On Linux the key is the name itself. On macOS it
// is Unicode's canonical caseless form (definition D145 of the Unicode
// Standard: NFD, full case folding, NFD again), the fold APFS applies to
// the names of a case-insensitive volume, computed with golang.org/x/text
// at its Unicode version (APFS keeps tables of its own, of an older
// version: characters that version lacks fold differently). On Windows it
// is the simple uppercase of each character of the Basic Multilingual
// Plane, as NTFS's upcase table maps UTF-16 code units (characters beyond
// it are kept as they are); normalization is not folded.
func FoldName(p Platform, name string) string {
	switch p {
	case PlatformDarwin:
		return darwinKey(name)
	case PlatformWin32:
		return ntfsKey(name)
	}
	return name
}

// darwinKey is [FoldName] on macOS.
func darwinKey(name string) string {
	if isASCII(name) {
		return asciiLower(name)
	}
	// A Caser keeps state: one per call, so that concurrent lookups
	// never share one.
	return norm.NFD.String(cases.Fold().String(norm.NFD.String(name)))
}

// ntfsKey is [FoldName] on Windows.
func ntfsKey(name string) string {
	if isASCII(name) {
		return asciiLower(name)
	}
	b := make([]byte, 0, len(name))
	for _, r := range name {
		if r <= 0xFFFF {
			r = unicode.ToUpper(r)
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower lowercases an ASCII name, allocating only when it changes.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// asciiEqualFold reports whether two ASCII names are equal but for case.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// A personality is how a MemFS that is not Linux's looks names up and
// limits them. Linux's MemFS has none (nil), so that its paths test one
// pointer and do nothing else.
type personality struct {
	platform Platform
	pathMax  int
	// utf8 says that names created must be valid UTF-8 (EILSEQ
	// otherwise), as on APFS.
	utf8 bool
}

// The personalities, shared by every MemFS of their platform (they never
// change), so that making one allocates nothing more.
var (
	darwinPersonality = personality{platform: PlatformDarwin, pathMax: darwinPathMax, utf8: true}
	win32Personality  = personality{platform: PlatformWin32, pathMax: PathMax}
)

// personalityOf returns the personality of p, nil for Linux.
func personalityOf(p Platform) *personality {
	switch p {
	case PlatformDarwin:
		return &darwinPersonality
	case PlatformWin32:
		return &win32Personality
	}
	return nil
}

// find returns the entry of the directory dir whose name folds to name's
// key, and the name it is stored under, or nil. The caller has looked
// name up exactly and found nothing. Entries are compared one by one: a
// folding directory costs a scan on a miss (ASCII names compare without
// allocating).
func (p *personality) find(dir *node, name string) (string, *node) {
	ascii := isASCII(name)
	key, keyed := "", false
	match := func(stored string) bool {
		if ascii && isASCII(stored) {
			return asciiEqualFold(name, stored)
		}
		if !keyed {
			key, keyed = FoldName(p.platform, name), true
		}
		return FoldName(p.platform, stored) == key
	}
	if dir.big != nil {
		for stored, c := range dir.big {
			if match(stored) {
				return stored, c
			}
		}
		return "", nil
	}
	for _, e := range dir.children {
		if match(e.name) {
			return e.name, e.n
		}
	}
	return "", nil
}

// createErr is the errno of creating an entry named base on this
// platform beyond Linux's rules: EILSEQ for a name that is not valid
// UTF-8 on APFS; nil when it may be created.
func (p *personality) createErr(base string) error {
	if p.utf8 && !utf8.ValidString(base) {
		return syscall.EILSEQ
	}
	return nil
}

// CloneAs returns a copy of m whose file system imitates the platform p
// ("" is [PlatformLinux]): m's tree, entry by entry (modes, modification
// times and link targets kept), created in a new MemFS with p, its clock
// and umask. For m's own platform it is [MemFS.Clone]. Entries are
// created parents first, in byte order of their names, as a checkout
// writes them: on a folding platform, names that fold to one key become
// one entry with the spelling created first and the content written last
// (as git leaves "colliding" paths on a case-insensitive volume), and
// directories that fold together merge. A file and a directory, or a
// link and anything else, that fold together cannot both exist: CloneAs
// returns the error of the second creation, naming it.
func (m *MemFS) CloneAs(p Platform) (*MemFS, error) {
	if p == "" {
		p = PlatformLinux
	}
	if p == m.Platform() {
		return m.Clone(), nil
	}
	src := m.Clone()
	dst := NewMemFS(MemOptions{Clock: src.clock, Platform: p})
	type later struct {
		name  string
		mode  fs.FileMode
		mtime time.Time
	}
	var dirs []later
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := src.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := path.Join(dir, e.Name())
			fi, err := src.Lstat(name)
			if err != nil {
				return err
			}
			switch {
			case fi.IsDir():
				if err := dst.Mkdir(name, 0o700); err != nil && !dirExists(dst, name) {
					return fmt.Errorf("clone as %s: %w", p, err)
				}
				if err := walk(name); err != nil {
					return err
				}
				dirs = append(dirs, later{name, fi.Mode(), fi.ModTime()})
			case fi.Mode()&fs.ModeSymlink != 0:
				target, err := src.ReadLink(name)
				if err == nil {
					err = dst.Symlink(target, name)
				}
				if err != nil {
					return fmt.Errorf("clone as %s: %w", p, err)
				}
			default:
				data, err := src.ReadFile(name)
				if err == nil {
					err = dst.WriteFile(name, data, 0o600)
				}
				if err == nil {
					err = dst.Chmod(name, fi.Mode())
				}
				if err == nil {
					err = dst.Chtimes(name, time.Time{}, fi.ModTime())
				}
				if err != nil {
					return fmt.Errorf("clone as %s: %w", p, err)
				}
			}
		}
		return nil
	}
	if err := walk("/"); err != nil {
		return nil, err
	}
	// Directories last, deepest first, so that creating their entries
	// does not move their times.
	root, err := src.Stat("/")
	if err != nil {
		return nil, err
	}
	dirs = append(dirs, later{"/", root.Mode(), root.ModTime()})
	for _, d := range dirs {
		if err := errors.Join(dst.Chmod(d.name, d.mode), dst.Chtimes(d.name, time.Time{}, d.mtime)); err != nil {
			return nil, fmt.Errorf("clone as %s: %w", p, err)
		}
	}
	dst.umask = src.umask
	return dst, nil
}

// dirExists reports whether name is a directory of m, links not followed.
func dirExists(m *MemFS, name string) bool {
	fi, err := m.Lstat(name)
	return err == nil && fi.IsDir()
}
