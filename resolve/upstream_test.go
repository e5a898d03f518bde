package resolve_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// sharedDir locates a folder of upstream reference data through env (set
// by CI relative to the repository root) or next to the repository, and
// skips the test when it is absent.
func sharedDir(t testing.TB, env, name string) string {
	t.Helper()
	dir := os.Getenv(env)
	if dir != "" && !filepath.IsAbs(dir) {
		// CI gives the path relative to the repository root, one level up.
		dir = filepath.Join("..", dir)
	}
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", name)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Skipf("upstream reference data %s not found (set %s); skipping", name, env)
	}
	return dir
}

// loadFixture copies the upstream fixture dir into a new MemFS at /fixture.
func loadFixture(t testing.TB, dir string) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMemFS(vfs.MemOptions{})
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := path.Join("/fixture", filepath.ToSlash(rel))
		switch {
		case d.IsDir():
			return fsys.MkdirAll(name, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return fsys.Symlink(target, name)
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return fsys.WriteFile(name, data, 0o644)
		}
	})
	if err != nil {
		t.Fatalf("load fixture %s: %v", dir, err)
	}
	return fsys
}

// preRun holds the fixture mutations an upstream test made before its run,
// where they change the resolved profile (spec/fixtures.md catalog).
var preRun = map[string]struct{ file, appendText string }{
	"trivial_repo_only_profile.test02": {
		file:       "/fixture/project/.outfitter/profiles/repo-review/profile.yml",
		appendText: "\n  pi:\n    extensions:\n      - npm:pi-subagents@2\n",
	},
}

type capture struct {
	Fixture string `json:"fixture"`
	Runs    []struct {
		Options struct {
			ProfileID string `json:"profileId"`
			AgentID   string `json:"agentId"`
		} `json:"options"`
		CompositeAtLaunch map[string]struct {
			Text *string `json:"text"`
		} `json:"compositeAtLaunch"`
	} `json:"runs"`
}

func TestUpstreamGeneratedProfiles(t *testing.T) {
	t.Parallel()
	fixtures := sharedDir(t, "VFSIM_UPSTREAM_FIXTURES", "upstream-fixtures")
	captures := sharedDir(t, "VFSIM_UPSTREAM_CAPTURES", "upstream-captures")
	files, err := filepath.Glob(filepath.Join(captures, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures in %s (err %v)", captures, err)
	}
	compared := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var c capture
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i, run := range c.Runs {
			want, ok := run.CompositeAtLaunch["outfitter/profile.json"]
			if !ok || want.Text == nil {
				continue
			}
			test := strings.TrimSuffix(filepath.Base(file), ".json")
			t.Run(test+"/"+strconv.Itoa(i), func(t *testing.T) {
				fsys := loadFixture(t, filepath.Join(fixtures, c.Fixture))
				if m, ok := preRun[test]; ok {
					old, err := fsys.ReadFile(m.file)
					if err != nil {
						t.Fatalf("pre-run mutation: %v", err)
					}
					if err := fsys.WriteFile(m.file, append(old, m.appendText...), 0o644); err != nil {
						t.Fatalf("pre-run mutation: %v", err)
					}
				}
				res, err := resolve.Load(fsys, resolve.Options{
					Home: "/fixture/home", Project: "/fixture/project",
					ProfileID: run.Options.ProfileID, AgentID: run.Options.AgentID,
					CreateConventionalDirs: true,
				})
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				if diff := cmp.Diff(*want.Text, string(res.Profile.GeneratedJSON())); diff != "" {
					t.Errorf("profile.json (-want +got):\n%s", diff)
				}
			})
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("no capture holds an outfitter/profile.json")
	}
}

func TestUpstreamHeavilyOverriddenLayers(t *testing.T) {
	t.Parallel()
	fixtures := sharedDir(t, "VFSIM_UPSTREAM_FIXTURES", "upstream-fixtures")
	fsys := loadFixture(t, filepath.Join(fixtures, "heavily_overridden_engineering"))
	res, err := resolve.Load(fsys, resolve.Options{Home: "/fixture/home", Project: "/fixture/project", ProfileID: "engineering"})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	const (
		h = "/fixture/home/.outfitter"
		p = "/fixture/project/.outfitter"
	)
	remote := h + "/cache/repos/Z2l0K2h0dHBzOi8vZ2l0aHViLmNvbS9hY21lL2VuZ2luZWVyaW5nLXByb2ZpbGVzLmdpdCNtYWlu/profiles/engineering"
	folders := []string{
		p + "/team-profiles/team-baseline", remote, p + "/team-profiles/engineering",
		h + "/profiles/engineering", p + "/profiles/engineering", p + "/local/profiles/engineering",
	}
	var paths []string
	for _, f := range folders {
		paths = append(paths, f+"/profile.yml")
	}
	want := struct {
		Stack, Paths, Folders, Settings []string
		Cache, Agent                    string
	}{
		Stack: []string{"team-baseline", "engineering"}, Paths: paths, Folders: folders,
		Settings: []string{h + "/settings.yml", p + "/settings.yml", p + "/local/settings.yml"},
		Cache:    h + "/cache", Agent: "pi",
	}
	got := want
	got.Stack = nil
	for _, s := range res.Stack {
		got.Stack = append(got.Stack, s.ID)
	}
	got.Paths, got.Folders, got.Settings = res.ProfilePaths, res.ProfileFolders, res.SettingsPaths
	got.Cache, got.Agent = res.CacheDirectory, res.AgentID
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if res.Layers[1].Source.GitHub != "acme/engineering-profiles" {
		t.Errorf("remote layer source = %+v", res.Layers[1].Source)
	}
}
