package sim_test

import (
	"context"
	"fmt"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/sim"
)

// A scenario runs on a fixture loaded from a txtar archive, entirely in
// memory; the report says what reached durable storage.
func ExampleRunScenario() {
	fx, err := fixtures.LoadTxtar([]byte(`
-- README.md --
A one-profile project.
-- home/.outfitter/settings.yml --
default_profile: solo
profile_sources:
  - path: ./profiles
-- home/.outfitter/profiles/solo/profile.yml --
id: solo
controls:
  model: solo-model
-- project/.keep --
`), "solo")
	if err != nil {
		fmt.Println(err)
		return
	}
	sc, err := fixtures.ParseScenario([]byte(`{
  "name": "solo",
  "runs": [{"ops": [
    {"op": "write", "path": "settings.json", "data": "{\"theme\":\"dark\"}\n"},
    {"op": "write", "path": "scratch.txt", "data": "temporary\n"}
  ]}]
}`), "solo.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := sim.RunScenario(context.Background(), fx, sc, sim.ScenarioOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	run := out.Report.Runs[0]
	fmt.Println(run.Launch.Command, run.Launch.Args[2:4])
	fmt.Println(run.Warnings)
	fmt.Printf("%q\n", *out.Report.Durable.Added["home/.pi/agent/settings.json"].Text)
	// Output:
	// pi [--model solo-model]
	// [pi wrote undeclared composite profile state 'scratch.txt' and it was not persisted.]
	// "{\"theme\":\"dark\"}\n"
}
