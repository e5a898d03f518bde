package vfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

func TestCopyTree(t *testing.T) {
	t.Parallel()
	src := vfs.NewMemFS(vfs.MemOptions{})
	mustAll(t,
		src.MkdirAll("/src/d/e", 0o750),
		src.WriteFile("/src/d/f.txt", []byte("F"), 0o600),
		src.Symlink("../outside", "/src/d/rel"),
		src.Symlink("/abs/target", "/src/abs"),
	)
	dst := vfs.NewMemFS(vfs.MemOptions{})
	if err := vfs.CopyTree(dst, "/dst/copy", src, "/src"); err != nil {
		t.Fatal(err)
	}
	want := vfstest.Snapshot(t, src, "/src")
	got := vfstest.Snapshot(t, dst, "/dst/copy")
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("copy differs (-src +dst):\n%s", d)
	}
}

func TestCopyTreeErrors(t *testing.T) {
	t.Parallel()
	src := vfs.NewMemFS(vfs.MemOptions{})
	_ = src.WriteFile("/file", nil, 0o644)
	_ = src.MkdirAll("/dir", 0o755)
	_ = src.Symlink("x", "/dir/link")
	tests := []struct {
		name    string
		srcDir  string
		dst     vfs.FS
		wantErr error
	}{
		{name: "missing source", srcDir: "/nope", dst: vfs.NewMemFS(vfs.MemOptions{}), wantErr: fs.ErrNotExist},
		{name: "source is a file", srcDir: "/file", dst: vfs.NewMemFS(vfs.MemOptions{}), wantErr: vfs.ErrNotDir},
		{name: "destination without symlinks", srcDir: "/dir", dst: noLinks{vfs.NewMemFS(vfs.MemOptions{})}, wantErr: errors.ErrUnsupported},
		{name: "a file's mode cannot be set", srcDir: "/", dst: chmodFails("/out/file"), wantErr: vfs.ErrIO},
		{name: "a directory's mode cannot be set", srcDir: "/", dst: chmodFails("/out/dir"), wantErr: vfs.ErrIO},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := vfs.CopyTree(tt.dst, "/out", src, tt.srcDir)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("CopyTree = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// chmodFails is a MemFS whose Chmod of name fails with EIO.
func chmodFails(name string) vfs.FS {
	return faultfs.New(vfs.NewMemFS(vfs.MemOptions{}), faultfs.When(func(op faultfs.Op) bool {
		return op.Kind == faultfs.KindChmod && op.Path == name
	}, vfs.ErrIO))
}

// noLinks hides every capability of a MemFS but the ones CopyTree needs
// for files and directories.
type noLinks struct{ m *vfs.MemFS }

func (n noLinks) Open(name string) (fs.File, error)            { return n.m.Open(name) }
func (n noLinks) MkdirAll(name string, perm fs.FileMode) error { return n.m.MkdirAll(name, perm) }
func (n noLinks) Mkdir(name string, perm fs.FileMode) error    { return n.m.Mkdir(name, perm) }
func (n noLinks) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return n.m.WriteFile(name, data, perm)
}

// pipeAt reports name as a named pipe (a MemFS cannot hold one): what the
// special-file rules of Copy need to see.
type pipeAt struct {
	*vfs.MemFS
	name string
}

func (p pipeAt) info(fi fs.FileInfo, name string) fs.FileInfo {
	if name == p.name {
		return pipeInfo{fi}
	}
	return fi
}

func (p pipeAt) Stat(name string) (fs.FileInfo, error) {
	fi, err := p.MemFS.Stat(name)
	if err != nil {
		return nil, err
	}
	return p.info(fi, name), nil
}

func (p pipeAt) Lstat(name string) (fs.FileInfo, error) {
	fi, err := p.MemFS.Lstat(name)
	if err != nil {
		return nil, err
	}
	return p.info(fi, name), nil
}

type pipeInfo struct{ fs.FileInfo }

func (pipeInfo) Mode() fs.FileMode { return fs.ModeNamedPipe | 0o644 }

func TestCopyLinkPolicies(t *testing.T) {
	t.Parallel()
	src := vfstest.MemWith(t, "/", vfstest.Tree{
		"outside/secret":        vfstest.File("key").WithMode(0o600),
		"skill/SKILL.md":        vfstest.File("---\n"),
		"skill/run.sh":          vfstest.File("#!/bin/sh\n").WithMode(0o755),
		"skill/sub/inner.md":    vfstest.File("inner"),
		"skill/sub/rel":         vfstest.Link("../SKILL.md"),
		"skill/abs":             vfstest.Link("/skill/run.sh"),
		"skill/dangling":        vfstest.Link("nowhere"),
		"skill/subdir-link":     vfstest.Link("sub"),
		"escaping/leak":         vfstest.Link("../outside/secret"),
		"escaping/ok.md":        vfstest.File("ok"),
		"cyclic/loop":           vfstest.Link(".."),
		"cyclic/f":              vfstest.File("f"),
		"private/d":             vfstest.Dir().WithMode(0o700),
		"private/d/f":           vfstest.File("f").WithMode(0o640),
		"withlink/sub/to-ok":    vfstest.Link("../../escaping/ok.md"),
		"withlink/sub/in-place": vfstest.File("here"),
	})
	tests := []struct {
		name    string
		src     string
		opts    vfs.CopyOptions
		want    vfstest.Tree
		wantErr error
		// wantAt, when set, is the operation and path of the error: the
		// copier's own, not one the file system gives later.
		wantAt string
	}{
		{name: "verbatim", src: "/skill", want: vfstest.Tree{
			"SKILL.md": vfstest.File("---\n"), "run.sh": vfstest.File("#!/bin/sh\n").WithMode(0o755),
			"sub/inner.md": vfstest.File("inner"), "sub/rel": vfstest.Link("../SKILL.md"),
			"abs": vfstest.Link("/skill/run.sh"), "dangling": vfstest.Link("nowhere"), "subdir-link": vfstest.Link("sub"),
		}},
		{name: "absolute, as Node's fs.cp", src: "/skill", opts: vfs.CopyOptions{Links: vfs.LinksAbsolute}, want: vfstest.Tree{
			"SKILL.md": vfstest.File("---\n"), "run.sh": vfstest.File("#!/bin/sh\n").WithMode(0o755),
			"sub/inner.md": vfstest.File("inner"), "sub/rel": vfstest.Link("/skill/SKILL.md"),
			"abs": vfstest.Link("/skill/run.sh"), "dangling": vfstest.Link("/skill/nowhere"), "subdir-link": vfstest.Link("/skill/sub"),
		}},
		{name: "followed within the root", src: "/withlink", opts: vfs.CopyOptions{Links: vfs.LinksFollow, Within: "/"}, want: vfstest.Tree{
			"sub/to-ok": vfstest.File("ok"), "sub/in-place": vfstest.File("here"),
		}},
		{name: "directory bits from DirPerm", src: "/private", opts: vfs.CopyOptions{DirPerm: func(fs.FileMode) fs.FileMode { return 0o755 }}, want: vfstest.Tree{
			"d": vfstest.Dir(), "d/f": vfstest.File("f").WithMode(0o640),
		}},
		{name: "a link leaving Within is never read", src: "/escaping", opts: vfs.CopyOptions{Links: vfs.LinksFollow, Within: "/escaping"}, wantErr: &vfs.LinkEscapeError{}},
		{name: "the source itself leaving Within", src: "/escaping/leak", opts: vfs.CopyOptions{Links: vfs.LinksFollow, Within: "/escaping"}, wantErr: &vfs.LinkEscapeError{}},
		{name: "a link back to an ancestor", src: "/cyclic", opts: vfs.CopyOptions{Links: vfs.LinksFollow}, wantErr: vfs.ErrLoop, wantAt: "cp /cyclic/loop/cyclic"},
		{name: "a dangling link followed", src: "/skill", opts: vfs.CopyOptions{Links: vfs.LinksFollow, Within: "/skill"}, wantErr: fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dst := vfstest.NewMem(t)
			err := vfs.Copy(dst, "/out", src, tt.src, tt.opts)
			var escape *vfs.LinkEscapeError
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Copy: %v", err)
			case tt.wantErr == nil:
				if d := cmp.Diff(tt.want.Entries(t), vfstest.Snapshot(t, dst, "/out"), cmpopts.IgnoreFields(vfs.Entry{}, "TargetExists")); d != "" {
					t.Errorf("copy (-want +got):\n%s", d)
				}
			case errors.As(tt.wantErr, &escape):
				if !errors.As(err, &escape) {
					t.Fatalf("Copy = %v, want a *LinkEscapeError", err)
				}
				if escape.Real != "/outside/secret" || escape.Within != "/escaping" {
					t.Errorf("LinkEscapeError = %+v", escape)
				}
			case !errors.Is(err, tt.wantErr):
				t.Fatalf("Copy = %v, want %v", err, tt.wantErr)
			}
			if pe, ok := errors.AsType[*fs.PathError](err); tt.wantAt != "" && (!ok || pe.Op+" "+pe.Path != tt.wantAt) {
				t.Errorf("Copy = %v, want the error of %s", err, tt.wantAt)
			}
			// Whatever happened, nothing of what lies outside was read
			// into the copy.
			tree, _ := vfs.Snapshot(dst, "/")
			for p, e := range tree {
				if e.Type == vfs.TypeFile && string(e.Data) == "key" {
					t.Errorf("the secret was copied to %s", p)
				}
			}
		})
	}
}

func TestCopySpecialFiles(t *testing.T) {
	t.Parallel()
	mem := vfstest.MemWith(t, "/", vfstest.Tree{"src/fifo": vfstest.File(""), "src/f": vfstest.File("f")})
	src := pipeAt{mem, "/src/fifo"}
	dst := vfstest.NewMem(t)
	if err := vfs.Copy(dst, "/out", src, "/src", vfs.CopyOptions{}); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("Copy of a pipe = %v, want fs.ErrInvalid", err)
	}
	dst = vfstest.NewMem(t)
	if err := vfs.Copy(dst, "/out", src, "/src", vfs.CopyOptions{SkipSpecial: true}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(vfstest.Tree{"f": vfstest.File("f")}.Entries(t), vfstest.Snapshot(t, dst, "/out")); d != "" {
		t.Errorf("copy (-want +got):\n%s", d)
	}
}

func TestCopyMerge(t *testing.T) {
	t.Parallel()
	src := vfstest.MemWith(t, "/src", vfstest.Tree{
		"d/new.txt":  vfstest.File("new").WithMode(0o600),
		"d/same.txt": vfstest.File("from src"),
		"d/link":     vfstest.Link("new.txt"),
		"file":       vfstest.File("F"),
	})
	tests := []struct {
		name    string
		dst     vfstest.Tree
		from    string
		want    vfstest.Tree
		wantErr func(error) bool
	}{
		{name: "into an existing directory", from: "/src/d", dst: vfstest.Tree{
			"same.txt": vfstest.File("old"), "only-dst": vfstest.File("kept"), "link": vfstest.Link("elsewhere"),
		}, want: vfstest.Tree{
			"new.txt": vfstest.File("new").WithMode(0o600), "same.txt": vfstest.File("from src"),
			"only-dst": vfstest.File("kept"), "link": vfstest.Link("new.txt"),
		}},
		{name: "a link onto a directory", from: "/src/d", dst: vfstest.Tree{"link": vfstest.Dir()},
			wantErr: func(err error) bool { return errors.Is(err, fs.ErrExist) }},
		{name: "a file onto a directory", from: "/src/d", dst: vfstest.Tree{"same.txt/x": vfstest.File("")},
			wantErr: func(err error) bool { return errors.Is(err, vfs.ErrIsDir) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dst := vfstest.MemWith(t, "/out", tt.dst)
			err := vfs.Copy(dst, "/out", src, tt.from, vfs.CopyOptions{Merge: true})
			if tt.wantErr != nil {
				if !tt.wantErr(err) {
					t.Fatalf("Copy = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want.Entries(t), vfstest.Snapshot(t, dst, "/out"), cmpopts.IgnoreFields(vfs.Entry{}, "TargetExists")); d != "" {
				t.Errorf("copy (-want +got):\n%s", d)
			}
		})
	}
	t.Run("a directory onto a link", func(t *testing.T) {
		t.Parallel()
		dst := vfstest.MemWith(t, "/", vfstest.Tree{"ssh/id": vfstest.File("key"), "out/d": vfstest.Link("../ssh")})
		err := vfs.Copy(dst, "/out/d", src, "/src/d", vfs.CopyOptions{Merge: true})
		var refused *vfs.LinkRefusedError
		if !errors.As(err, &refused) || refused.Path != "/out/d" || refused.Target != "../ssh" {
			t.Fatalf("Copy = %v, want a *LinkRefusedError for /out/d", err)
		}
		if d := cmp.Diff(vfstest.Tree{"id": vfstest.File("key")}.Entries(t), vfstest.Snapshot(t, dst, "/ssh")); d != "" {
			t.Errorf("written through the link (-want +got):\n%s", d)
		}
	})
	t.Run("a directory onto a file", func(t *testing.T) {
		t.Parallel()
		dst := vfstest.MemWith(t, "/", vfstest.Tree{"out": vfstest.File("")})
		if err := vfs.Copy(dst, "/out", src, "/src/d", vfs.CopyOptions{Merge: true}); !errors.Is(err, vfs.ErrNotDir) {
			t.Fatalf("Copy = %v, want ErrNotDir", err)
		}
	})
}

// TestCopyTreeModesPastUmask: the copy has the source's bits, whatever
// the destination's umask takes from the modes it creates with.
func TestCopyTreeModesPastUmask(t *testing.T) {
	t.Parallel()
	src := vfstest.MemWith(t, "/", vfstest.Tree{"s/run.sh": vfstest.File("x").WithMode(0o777), "s/d": vfstest.Dir().WithMode(0o777)})
	dst := vfs.NewMemFS(vfs.MemOptions{Umask: 0o022})
	if err := vfs.CopyTree(dst, "/out", src, "/s"); err != nil {
		t.Fatal(err)
	}
	want := vfstest.Tree{"run.sh": vfstest.File("x").WithMode(0o777), "d": vfstest.Dir().WithMode(0o777)}
	if d := cmp.Diff(want.Entries(t), vfstest.Snapshot(t, dst, "/out")); d != "" {
		t.Errorf("copy (-want +got):\n%s", d)
	}
}
