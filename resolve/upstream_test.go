package resolve_test

import (
	"encoding/json"
	"github.com/outfitter-go/vfsim/fixtures/golden"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/outfitter-go/vfsim/resolve"
)

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
	golden.UpstreamOrSkip(t, golden.UpstreamFixtures)
	compared := 0
	for _, file := range golden.Captures(t) {
		var c capture
		if err := json.Unmarshal(file.Data, &c); err != nil {
			t.Fatalf("%s: %v", file.Name, err)
		}
		for i, run := range c.Runs {
			want, ok := run.CompositeAtLaunch["outfitter/profile.json"]
			if !ok || want.Text == nil {
				continue
			}
			test := file.Name
			t.Run(test+"/"+strconv.Itoa(i), func(t *testing.T) {
				fsys := golden.UpstreamMachine(t, test)
				res, err := resolve.Load(fsys, resolve.Options{Agents: agents(),
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
	fsys := golden.UpstreamFixture(t, "heavily_overridden_engineering").Clone()
	res, err := resolve.Load(fsys, resolve.Options{Agents: agents(), Home: "/fixture/home", Project: "/fixture/project", ProfileID: "engineering"})
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
