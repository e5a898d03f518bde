package proptest_test

import (
	"fmt"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/proptest"
)

// A world renders to the files of a fixture and to a scenario.
func ExampleWorld() {
	w := proptest.World{
		Name: "tiny",
		User: &proptest.Settings{DefaultProfile: "a", DeclaresSources: true, Sources: []proptest.SourceRef{{Loc: proptest.LocHome}}},
		Profiles: []proptest.Profile{{
			Loc: proptest.LocHome, ID: "a",
			State: []proptest.Rule{{Key: "unknown", Strategy: "warn"}},
		}},
		Runs: []proptest.Run{{Ops: []proptest.Op{{Op: fixtures.Op{Op: fixtures.OpWrite, Path: "u.txt", Data: "v1\n"}}}}},
	}
	for _, f := range w.FixtureFiles() {
		fmt.Println(f.Path)
	}
	fmt.Print(w.User.YAML(proptest.LayerUser))
	fmt.Println(len(w.Scenario().Runs[0].Ops))
	// Output:
	// README.md
	// home/.outfitter/profiles/a/profile.yml
	// home/.outfitter/settings.yml
	// project/.keep
	// default_profile: a
	// profile_sources:
	//   - path: ./profiles
	// 1
}
