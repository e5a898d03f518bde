package composite_test

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// secretDir holds what no skill may ever bring into a composite: it lies
// outside the project, the root every skill of these worlds resolves from.
const secretDir = "/secret"

// readWatch is a MemFS that records every file whose content is read,
// by real path.
type readWatch struct {
	*vfs.MemFS
	mu    sync.Mutex
	reads []string
}

func (w *readWatch) record(name string) {
	real, err := vfs.EvalSymlinks(w.MemFS, name)
	if err != nil {
		real = name
	}
	w.mu.Lock()
	w.reads = append(w.reads, real)
	w.mu.Unlock()
}

func (w *readWatch) ReadFile(name string) ([]byte, error) {
	w.record(name)
	return w.MemFS.ReadFile(name)
}

func (w *readWatch) Open(name string) (fs.File, error) {
	w.record(name)
	return w.MemFS.Open(name)
}

// TestPropSkillsNeverReadOutsideTheirRoot checks, on random catalogs full
// of links (to the secrets, to ancestors, relative, absolute, dangling,
// looping) and random references, scripts and assets (literal, globs,
// directories, paths with ".." and absolute ones), that planning never
// reads a file outside the project (the root of every skill here) and
// never leaves one in the composite, whether the plan succeeds or fails,
// and writes nothing outside the composite root.
func TestPropSkillsNeverReadOutsideTheirRoot(t *testing.T) {
	t.Parallel()
	ids := []string{"alpha", "beta", "gamma"}
	// Places a link or a file may be put, below the project.
	places := []string{
		"docs/a.md", "docs/b.md", "docs/sub/c.md", "docs/sub/link", "docs/link", "data/link", "data/x.md",
		".outfitter/skills/alpha/refs", ".outfitter/skills/alpha/notes.md", ".outfitter/skills/beta/refs",
		".outfitter/skills/beta/references", ".outfitter/skills/gamma/scripts", ".outfitter/skills/gamma/assets/x",
	}
	targets := []string{
		secretDir, secretDir + "/key", secretDir + "/dir", "../../../secret", "../../../../../secret/key",
		project + "/docs", project, "..", ".", "../..", "nowhere", project + "/.outfitter/skills/alpha",
		project + "/docs/sub", "sub", "link", project + "/docs/link",
	}
	refs := []string{
		"docs", "docs/a.md", "docs/*.md", "docs/**", "docs/sub", "docs/link", "data", "data/*",
		"../secret/key", secretDir + "/key", secretDir, "**/refs", ".outfitter/skills/alpha/refs", "docs/sub/link/*",
	}
	rapid.Check(t, func(rt *rapid.T) {
		mem := vfs.NewMemFS(vfs.MemOptions{})
		put := func(name, content string) {
			must(rt, mem.MkdirAll(path.Dir(name), 0o755))
			must(rt, mem.WriteFile(name, []byte(content), 0o644))
		}
		must(rt, mem.MkdirAll("/tmp", 0o1777))
		put(secretDir+"/key", "SECRET key")
		put(secretDir+"/dir/inner", "SECRET inner")
		put(home+"/.outfitter/settings.yml", "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n")
		put(project+"/docs/a.md", "public a")
		put(project+"/data/x.md", "public x")
		selected := rapid.SliceOfNDistinct(rapid.SampledFrom(ids), 1, 3, rapid.ID[string]).Draw(rt, "selected")
		for _, id := range ids {
			var fm strings.Builder
			fmt.Fprintf(&fm, "---\nname: %s\n", id)
			for _, section := range []string{"references", "scripts", "assets"} {
				entries := rapid.SliceOfN(rapid.SampledFrom(refs), 0, 2).Draw(rt, id+" "+section)
				if len(entries) == 0 {
					continue
				}
				fmt.Fprintf(&fm, "%s:\n", section)
				for _, e := range entries {
					kind := rapid.SampledFrom([]string{"file", "repo_file"}).Draw(rt, "kind")
					fmt.Fprintf(&fm, "  - %s: %q\n", kind, e)
				}
			}
			fm.WriteString("---\n")
			put(project+"/.outfitter/skills/"+id+"/SKILL.md", fm.String())
		}
		for i := range rapid.IntRange(0, 6).Draw(rt, "links") {
			at := project + "/" + rapid.SampledFrom(places).Draw(rt, fmt.Sprintf("link %d at", i))
			if _, err := mem.Lstat(at); err == nil {
				continue
			}
			must(rt, mem.MkdirAll(path.Dir(at), 0o755))
			must(rt, mem.Symlink(rapid.SampledFrom(targets).Draw(rt, fmt.Sprintf("link %d target", i)), at))
		}
		put(home+"/.outfitter/profiles/eng/profile.yml", "id: eng\ncontrols:\n  skills: ["+strings.Join(selected, ", ")+"]\n")
		before := vfstest.Snapshot(rt, mem, "/")

		res, err := resolve.Load(mem, resolve.Options{Home: home, Project: project, Agents: composite.DefaultRegistry().Agents()})
		must(rt, err)
		watch := &readWatch{MemFS: mem}
		run, planErr := composite.Plan(watch, composite.Request{Result: res}, composite.Options{NoSweep: true, Rand: rand.NewChaCha8([32]byte{1})})
		for _, r := range watch.reads {
			if r == secretDir || strings.HasPrefix(r, secretDir+"/") {
				rt.Fatalf("planning read %s (plan error: %v)", r, planErr)
			}
		}
		after := vfstest.Snapshot(rt, mem, "/")
		for p, e := range after {
			if strings.HasPrefix(p, "tmp/") {
				if e.Type == vfs.TypeFile && strings.Contains(string(e.Data), "SECRET") {
					rt.Fatalf("the composite holds a secret at /%s", p)
				}
				continue
			}
			if b, ok := before[p]; !ok || !b.Equal(e) {
				rt.Fatalf("planning changed /%s outside the composite root", p)
			}
		}
		for p := range before {
			if _, ok := after[p]; !ok {
				rt.Fatalf("planning removed /%s", p)
			}
		}
		if planErr == nil && run.Composite == nil {
			rt.Fatalf("a plan without error has no composite")
		}
	})
}
