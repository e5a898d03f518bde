package proptest

import (
	"fmt"
	"os"
	"path/filepath"
)

// CounterexampleDir is where failing properties write their shrunk worlds,
// relative to the package directory.
const CounterexampleDir = "testdata/counterexamples"

// ReplayCommand returns the command, run from the module root, that replays
// the counterexample written under name by [WriteCounterexample].
func ReplayCommand(name string) string {
	base := "proptest/" + CounterexampleDir + "/" + name
	return fmt.Sprintf("go run ./sim/cmd/vfsim run --fixture %s.txtar --scenario %s.json --json", base, base)
}

// WriteCounterexample writes w as the fixture <dir>/<name>.txtar and the
// scenario <dir>/<name>.json, so that the vfsim command replays it. The
// world is renamed to name first.
func WriteCounterexample(dir, name string, w World) error {
	w.Name = name
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write counterexample: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".txtar"), w.Txtar(), 0o644); err != nil {
		return fmt.Errorf("write counterexample: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), w.ScenarioJSON(), 0o644); err != nil {
		return fmt.Errorf("write counterexample: %w", err)
	}
	return nil
}
