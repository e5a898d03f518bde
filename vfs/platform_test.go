package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
)

const (
	cafeNFC = "Caf\u00e9"  // é precomposed
	cafeNFD = "Cafe\u0301" // e + combining acute
)

// names lists the entries of dir as ReadDir gives them.
func names(t *testing.T, m *vfs.MemFS, dir string) []string {
	t.Helper()
	entries, err := m.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestParsePlatform(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "linux", "darwin", "win32"} {
		p, err := vfs.ParsePlatform(s)
		if err != nil || (s != "" && string(p) != s) || (s == "" && p != vfs.PlatformLinux) {
			t.Errorf("ParsePlatform(%q) = %q, %v", s, p, err)
		}
	}
	if _, err := vfs.ParsePlatform("macos"); err == nil || !strings.Contains(err.Error(), `"macos"`) {
		t.Errorf("ParsePlatform(macos) = %v, want an error naming it", err)
	}
}

func TestFoldName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    vfs.Platform
		a, b string
		same bool
	}{
		{vfs.PlatformLinux, "SKILL.md", "skill.md", false},
		{vfs.PlatformLinux, cafeNFC, cafeNFD, false},
		{vfs.PlatformDarwin, "SKILL.md", "skill.md", true},
		{vfs.PlatformDarwin, cafeNFC, cafeNFD, true},
		{vfs.PlatformDarwin, "caf\u00c9", cafeNFD, true}, // É precomposed, other case
		{vfs.PlatformDarwin, "\u212a", "k", true},        // KELVIN SIGN folds to k
		{vfs.PlatformDarwin, "stra\u00dfe", "strasse", true},
		{vfs.PlatformDarwin, "a.md", "b.md", false},
		{vfs.PlatformWin32, "SKILL.md", "skill.md", true},
		{vfs.PlatformWin32, cafeNFC, cafeNFD, false},
		{vfs.PlatformWin32, "caf\u00e9", "CAF\u00c9", true},
		{vfs.PlatformWin32, "stra\u00dfe", "strasse", false},
	}
	for _, tt := range tests {
		got := vfs.FoldName(tt.p, tt.a) == vfs.FoldName(tt.p, tt.b)
		if got != tt.same {
			t.Errorf("%s: FoldName(%q) == FoldName(%q) is %v, want %v", tt.p, tt.a, tt.b, got, tt.same)
		}
	}
}

// TestDarwinLookups pins the APFS behaviour MemFS's macOS personality
// imitates, and that Linux's MemFS does not have.
func TestDarwinLookups(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
	if m.Platform() != vfs.PlatformDarwin {
		t.Fatalf("Platform() = %q", m.Platform())
	}
	mustAll(t,
		m.MkdirAll("/Skills/Demo", 0o755),
		m.WriteFile("/Skills/Demo/skill.md", []byte("one"), 0o644),
		m.WriteFile("/Skills/Demo/"+cafeNFD+".md", []byte("nfd"), 0o644),
	)
	// Any case, any normalization, any component.
	for _, name := range []string{"/skills/demo/SKILL.md", "/SKILLS/DEMO/Skill.MD", "/skills/demo/" + cafeNFC + ".md", "/skills/demo/CAF\u00c9.md"} {
		if _, err := m.Stat(name); err != nil {
			t.Errorf("Stat(%q): %v", name, err)
		}
	}
	// Writing under another spelling writes the entry, keeping its name.
	mustAll(t, m.WriteFile("/skills/DEMO/SKILL.md", []byte("two"), 0o644))
	if got := names(t, m, "/skills/demo"); !slices.Equal(got, []string{cafeNFD + ".md", "skill.md"}) {
		t.Errorf("ReadDir = %q, want the stored spellings", got)
	}
	if b, _ := m.ReadFile("/Skills/Demo/skill.md"); string(b) != "two" {
		t.Errorf("content = %q, want two", b)
	}
	// O_EXCL, Mkdir and Symlink see the existing entry.
	if _, err := m.OpenFile("/skills/demo/Skill.md", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("O_EXCL on a case variant: %v, want EEXIST", err)
	}
	if err := m.Mkdir("/SKILLS", 0o755); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("Mkdir of a case variant: %v, want EEXIST", err)
	}
	if err := m.Symlink("x", "/skills/demo/"+cafeNFC+".MD"); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("Symlink at a normalization variant: %v, want EEXIST", err)
	}
	// Rename to another case of itself renames in place.
	mustAll(t, m.Rename("/skills/demo/skill.md", "/skills/demo/SKILL.md"))
	if got := names(t, m, "/Skills/Demo"); !slices.Equal(got, []string{cafeNFD + ".md", "SKILL.md"}) {
		t.Errorf("after the case rename ReadDir = %q", got)
	}
	mustAll(t, m.Rename("/Skills", "/skills"))
	if got := names(t, m, "/"); !slices.Equal(got, []string{"skills"}) {
		t.Errorf("after renaming /Skills to /skills ReadDir(/) = %q", got)
	}
	// Renaming onto another entry that folds to the name replaces it, under the new spelling.
	mustAll(t,
		m.WriteFile("/skills/Demo/new", []byte("new"), 0o644),
		m.Rename("/skills/demo/new", "/skills/demo/Skill.md"),
	)
	if got := names(t, m, "/skills/demo"); !slices.Equal(got, []string{cafeNFD + ".md", "Skill.md"}) {
		t.Errorf("after replacing ReadDir = %q", got)
	}
	// Remove under another spelling removes the entry.
	mustAll(t, m.Remove("/SKILLS/DEMO/"+cafeNFC+".md"))
	if got := names(t, m, "/skills/demo"); !slices.Equal(got, []string{"Skill.md"}) {
		t.Errorf("after Remove ReadDir = %q", got)
	}
	// A symlink target is stored verbatim and resolved with folding.
	mustAll(t, m.Symlink("DEMO/skill.MD", "/skills/link"))
	if b, err := m.ReadFile("/skills/LINK"); err != nil || string(b) != "new" {
		t.Errorf("ReadFile through a link = %q, %v", b, err)
	}
	if tgt, _ := m.ReadLink("/skills/link"); tgt != "DEMO/skill.MD" {
		t.Errorf("ReadLink = %q, want verbatim", tgt)
	}
}

func TestDarwinLimitsAndErrnos(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
	long := "/" + strings.Repeat("a/", 511) + "b" // 1024 bytes
	if len(long) != 1024 {
		t.Fatal(len(long))
	}
	if err := m.MkdirAll(long, 0o755); !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Errorf("MkdirAll of 1024 bytes: %v, want ENAMETOOLONG", err)
	}
	if err := m.MkdirAll(long[:1023], 0o755); err != nil {
		t.Errorf("MkdirAll of 1023 bytes: %v", err)
	}
	if err := m.Symlink("/"+strings.Repeat("x", 1023), "/l"); !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Errorf("Symlink to a 1024-byte target: %v, want ENAMETOOLONG", err)
	}
	if err := m.WriteFile("/"+strings.Repeat("n", 256), nil, 0o644); !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Errorf("component of 256 bytes: %v, want ENAMETOOLONG", err)
	}
	for _, create := range []func(string) error{
		func(n string) error { return m.WriteFile(n, nil, 0o644) },
		func(n string) error { return m.Mkdir(n, 0o755) },
		func(n string) error { return m.Symlink("x", n) },
		func(n string) error { return m.Rename("/a", n) },
	} {
		if err := create("/bad\xff"); !errors.Is(err, syscall.EILSEQ) {
			t.Errorf("creating a name that is not UTF-8: %v, want EILSEQ", err)
		}
	}
	// Linux takes both.
	l := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t, l.WriteFile("/bad\xff", nil, 0o644), l.MkdirAll(long, 0o755))
}

func TestLinuxKeepsCase(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t,
		m.WriteFile("/skill.md", []byte("a"), 0o644),
		m.WriteFile("/SKILL.md", []byte("b"), 0o644),
		m.WriteFile("/"+cafeNFC, nil, 0o644),
	)
	if _, err := m.Stat("/" + cafeNFD); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("NFD lookup of an NFC name on Linux: %v, want ENOENT", err)
	}
	mustAll(t, m.Rename("/skill.md", "/Skill.md"))
	if got := names(t, m, "/"); !slices.Equal(got, []string{cafeNFC, "SKILL.md", "Skill.md"}) {
		t.Errorf("ReadDir = %q", got)
	}
}

func TestWin32FoldsCaseNotNormalization(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformWin32})
	mustAll(t,
		m.WriteFile("/Guide.md", []byte("a"), 0o644),
		m.WriteFile("/guide.MD", []byte("b"), 0o644),
		m.WriteFile("/"+cafeNFC, []byte("nfc"), 0o644),
		m.WriteFile("/"+cafeNFD, []byte("nfd"), 0o644),
	)
	if got := names(t, m, "/"); !slices.Equal(got, []string{cafeNFD, cafeNFC, "Guide.md"}) {
		t.Errorf("ReadDir = %q", got)
	}
	if b, _ := m.ReadFile("/GUIDE.md"); string(b) != "b" {
		t.Errorf("content = %q, want the second write", b)
	}
	// Names that are not UTF-8 are not refused: NTFS's are UTF-16, what
	// Windows makes of such bytes is not modelled.
	mustAll(t, m.WriteFile("/bad\xff", nil, 0o644))
}

// TestFoldingBigDirectory checks folding lookups past the size at which a
// directory keeps its entries in a map.
func TestFoldingBigDirectory(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
	mustAll(t, m.Mkdir("/d", 0o755))
	for i := range 600 {
		mustAll(t, m.WriteFile("/d/File"+strconv.Itoa(i), nil, 0o644))
	}
	if _, err := m.Stat("/D/FILE599"); err != nil {
		t.Errorf("Stat in a big directory: %v", err)
	}
	if _, err := m.OpenFile("/d/file599", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("O_EXCL in a big directory: %v, want EEXIST", err)
	}
}

// TestFoldingClone checks that a clone keeps the personality.
func TestFoldingClone(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
	mustAll(t, m.WriteFile("/A", nil, 0o644))
	c := m.Clone()
	if c.Platform() != vfs.PlatformDarwin {
		t.Errorf("clone's Platform() = %q", c.Platform())
	}
	if _, err := c.Stat("/a"); err != nil {
		t.Errorf("clone lookup: %v", err)
	}
}

// TestDarwinRenameSameSpelling checks that a rename whose two names are
// spelled alike renames nothing, even when the entry is stored in
// another case, as on macOS (and exFAT); the exFAT differential found it.
func TestDarwinRenameSameSpelling(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
	mustAll(t, m.WriteFile("/a", nil, 0o644), m.Rename("/A", "/A"))
	if got := names(t, m, "/"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("ReadDir = %q, want a", got)
	}
	mustAll(t, m.Rename("/A", "/a"))
	if got := names(t, m, "/"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("ReadDir = %q, want a", got)
	}
}

// TestDarwinAPFSDocumented pins what the exFAT differential cannot check
// (exFAT has no links and does not fold normalization) to APFS's
// documented behaviour. Apple's APFS Guide (FAQ): "The case-insensitive
// variant of APFS is normalization-preserving, but not
// normalization-sensitive", "Filenames in APFS are encoded in UTF-8 and
// aren't normalized"; symbolic links are stored as given (symlink(2)) and
// resolved by the same lookups as any name.
func TestDarwinAPFSDocumented(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(m *vfs.MemFS) error
		check func(m *vfs.MemFS) error
	}{
		{
			name:  "normalization-preserving: an NFD name is listed as NFD",
			setup: func(m *vfs.MemFS) error { return m.WriteFile("/"+cafeNFD, nil, 0o644) },
			check: func(m *vfs.MemFS) error { return wantNames(m, "/", cafeNFD) },
		},
		{
			name:  "normalization-preserving: an NFC name is listed as NFC",
			setup: func(m *vfs.MemFS) error { return m.WriteFile("/"+cafeNFC, nil, 0o644) },
			check: func(m *vfs.MemFS) error { return wantNames(m, "/", cafeNFC) },
		},
		{
			name:  "not normalization-sensitive: NFC opens an NFD file",
			setup: func(m *vfs.MemFS) error { return m.WriteFile("/"+cafeNFD, []byte("d"), 0o644) },
			check: func(m *vfs.MemFS) error { return wantContent(m, "/"+cafeNFC, "d") },
		},
		{
			name:  "not normalization-sensitive: NFD opens an NFC directory",
			setup: func(m *vfs.MemFS) error { return m.MkdirAll("/"+cafeNFC+"/x", 0o755) },
			check: func(m *vfs.MemFS) error { return wantDir(m, "/"+cafeNFD+"/x") },
		},
		{
			name:  "one entry for both forms: writing NFC over NFD keeps NFD",
			setup: func(m *vfs.MemFS) error { return m.WriteFile("/"+cafeNFD, []byte("d"), 0o644) },
			check: func(m *vfs.MemFS) error {
				if err := m.WriteFile("/"+cafeNFC, []byte("c"), 0o644); err != nil {
					return err
				}
				if err := wantNames(m, "/", cafeNFD); err != nil {
					return err
				}
				return wantContent(m, "/"+cafeNFD, "c")
			},
		},
		{
			name:  "one entry for both forms: O_EXCL of the other form is EEXIST",
			setup: func(m *vfs.MemFS) error { return m.WriteFile("/"+cafeNFC, nil, 0o644) },
			check: func(m *vfs.MemFS) error {
				_, err := m.OpenFile("/"+cafeNFD, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
				return wantErrno(err, syscall.EEXIST)
			},
		},
		{
			name:  "renaming to the other form renames in place",
			setup: func(m *vfs.MemFS) error { return m.WriteFile("/"+cafeNFC, nil, 0o644) },
			check: func(m *vfs.MemFS) error {
				if err := m.Rename("/"+cafeNFC, "/"+cafeNFD); err != nil {
					return err
				}
				return wantNames(m, "/", cafeNFD)
			},
		},
		{
			name:  "a link's target is stored as given, in any case and form",
			setup: func(m *vfs.MemFS) error { return m.Symlink("DOCS/"+cafeNFC, "/l") },
			check: func(m *vfs.MemFS) error {
				if tgt, err := m.ReadLink("/l"); err != nil || tgt != "DOCS/"+cafeNFC {
					return fmt.Errorf("ReadLink = %q, %v", tgt, err)
				}
				return nil
			},
		},
		{
			name: "a link's target resolves with folding",
			setup: func(m *vfs.MemFS) error {
				return errors.Join(m.MkdirAll("/docs", 0o755), m.WriteFile("/docs/"+cafeNFD, []byte("d"), 0o644), m.Symlink("DOCS/"+cafeNFC, "/l"))
			},
			check: func(m *vfs.MemFS) error { return wantContent(m, "/l", "d") },
		},
		{
			name:  "a link named in another case is the same link",
			setup: func(m *vfs.MemFS) error { return m.Symlink("/x", "/Link") },
			check: func(m *vfs.MemFS) error {
				if err := wantErrno(m.Symlink("/y", "/LINK"), syscall.EEXIST); err != nil {
					return err
				}
				tgt, err := m.ReadLink("/link")
				if err != nil || tgt != "/x" {
					return fmt.Errorf("ReadLink = %q, %v", tgt, err)
				}
				return m.Remove("/LINK")
			},
		},
		{
			name:  "writing through a link in another case writes its target",
			setup: func(m *vfs.MemFS) error { return errors.Join(m.Mkdir("/State", 0o755), m.Symlink("/State", "/link")) },
			check: func(m *vfs.MemFS) error {
				if err := m.WriteFile("/LINK/F", []byte("f"), 0o644); err != nil {
					return err
				}
				return errors.Join(wantNames(m, "/State", "F"), wantContent(m, "/state/f", "f"))
			},
		},
		{
			name:  "names are UTF-8: other bytes are EILSEQ",
			setup: func(m *vfs.MemFS) error { return nil },
			check: func(m *vfs.MemFS) error { return wantErrno(m.Mkdir("/\xc3", 0o755), syscall.EILSEQ) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
			if err := tt.setup(m); err != nil {
				t.Fatalf("setup: %v", err)
			}
			if err := tt.check(m); err != nil {
				t.Error(err)
			}
		})
	}
}

func wantNames(m *vfs.MemFS, dir string, want ...string) error {
	entries, err := m.ReadDir(dir)
	if err != nil {
		return err
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("ReadDir(%s) = %q, want %q", dir, got, want)
	}
	return nil
}

func wantContent(m *vfs.MemFS, name, want string) error {
	b, err := m.ReadFile(name)
	if err != nil || string(b) != want {
		return fmt.Errorf("ReadFile(%s) = %q, %v; want %q", name, b, err, want)
	}
	return nil
}

func wantDir(m *vfs.MemFS, name string) error {
	fi, err := m.Stat(name)
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("Stat(%s) = %v, %v; want a directory", name, fi, err)
	}
	return nil
}

func wantErrno(err, want error) error {
	if !errors.Is(err, want) {
		return fmt.Errorf("error %v, want %v", err, want)
	}
	return nil
}

func TestCloneAs(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t,
		m.MkdirAll("/s/Demo", 0o750),
		m.WriteFile("/s/Demo/SKILL.md", []byte("upper"), 0o640),
		m.WriteFile("/s/Demo/skill.md", []byte("lower"), 0o644),
		m.MkdirAll("/s/demo/refs", 0o755),
		m.Symlink("Demo/SKILL.md", "/s/link"),
		m.Chmod("/s", 0o750),
	)
	d, err := m.CloneAs(vfs.PlatformDarwin)
	if err != nil {
		t.Fatal(err)
	}
	if d.Platform() != vfs.PlatformDarwin || m.Platform() != vfs.PlatformLinux {
		t.Fatalf("platforms %q, %q", d.Platform(), m.Platform())
	}
	if err := errors.Join(
		wantNames(d, "/s", "Demo", "link"),
		wantNames(d, "/s/demo", "SKILL.md", "refs"),
		wantContent(d, "/s/DEMO/skill.md", "lower"),
		wantContent(d, "/s/link", "lower"),
	); err != nil {
		t.Error(err)
	}
	fi, err := d.Stat("/s")
	if err != nil || fi.Mode().Perm() != 0o750 {
		t.Errorf("Stat(/s) = %v, %v; want mode 0750 kept", fi, err)
	}
	if c, err := m.CloneAs(vfs.PlatformLinux); err != nil || c.Platform() != vfs.PlatformLinux {
		t.Errorf("CloneAs(linux) = %v, %v", c, err)
	}
	// A file and a directory that fold together cannot both exist.
	bad := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t, bad.Mkdir("/A", 0o755), bad.WriteFile("/a", nil, 0o644))
	if _, err := bad.CloneAs(vfs.PlatformWin32); !errors.Is(err, syscall.EISDIR) || !strings.Contains(err.Error(), "/a") {
		t.Errorf("CloneAs of a colliding file and directory: %v, want EISDIR naming /a", err)
	}
}

// TestDarwinMkdirAllFolds checks that MkdirAll finds existing directories
// under another spelling instead of creating a second one.
func TestDarwinMkdirAllFolds(t *testing.T) {
	t.Parallel()
	m := vfs.NewMemFS(vfs.MemOptions{Platform: vfs.PlatformDarwin})
	mustAll(t, m.MkdirAll("/Home/Docs", 0o755), m.MkdirAll("/home/DOCS/x", 0o755), m.MkdirAll("/HOME/docs", 0o755))
	if err := errors.Join(wantNames(m, "/", "Home"), wantNames(m, "/Home", "Docs"), wantNames(m, "/home/docs", "x")); err != nil {
		t.Error(err)
	}
}
