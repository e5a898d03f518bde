package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/osfs"
)

// driverOps are the agent ops the capture driver drives; refreshOps those
// a driver extended for live refreshes drives too.
var (
	driverOps  = map[string]bool{"write": true, "append": true, "mkdir": true, "mkdir_all": true, "remove": true, "remove_all": true, "symlink": true, "rename": true, "exit": true}
	refreshOps = map[string]bool{"edit_source": true, "refresh": true}
)

// exportCatalogWorld writes the world of one catalog scenario ("fixture/
// scenario") to stage/c-<fixture>--<scenario>: the fixture after the
// scenario's before ops, its links into the fixture made relative (the
// capture copies the fixture into a sandbox), and the scenario without
// before ops, after checks, expectations and the ops the driver does not
// drive.
func exportCatalogWorld(catalog, stage, arg string, refresh bool) error {
	name, scen, ok := strings.Cut(arg, "/")
	if !ok {
		return fmt.Errorf("export: %q: want FIXTURE/SCENARIO", arg)
	}
	fx, err := fixtures.LoadDir(filepath.Join(catalog, name))
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(catalog, name, "scenarios", scen+".json"))
	if err != nil {
		return err
	}
	sc, err := fixtures.ParseScenario(raw, scen+".json")
	if err != nil {
		return err
	}
	mem := fx.Clone()
	if err := sc.ApplyBefore(mem); err != nil {
		return err
	}
	tree, err := vfs.Snapshot(mem, report.FixtureRoot)
	if err != nil {
		return err
	}
	for p, e := range tree {
		if e.Type != vfs.TypeSymlink || !strings.HasPrefix(e.Target, report.FixtureRoot+"/") {
			continue
		}
		link := path.Join(report.FixtureRoot, p)
		rel, err := filepath.Rel(path.Dir(link), e.Target)
		if err != nil {
			return err
		}
		if err := mem.Remove(link); err != nil {
			return err
		}
		if err := mem.Symlink(filepath.ToSlash(rel), link); err != nil {
			return err
		}
	}
	id := "c-" + name + "--" + scen
	dir, err := filepath.Abs(filepath.Join(stage, id))
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	arch, err := fixtures.ExportTxtar(mem, report.FixtureRoot)
	if err != nil {
		return err
	}
	if err := vfs.CopyTree(osfs.New(), filepath.Join(dir, "fixture"), mem, report.FixtureRoot); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "world.txtar"), arch, 0o644); err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return err
	}
	for _, k := range []string{"before", "after", "why"} {
		delete(doc, k)
	}
	doc["name"], doc["fixture"] = id, id
	runs, _ := doc["runs"].([]any)
	for _, r := range runs {
		run, _ := r.(map[string]any)
		delete(run, "expect")
		ops, _ := run["ops"].([]any)
		var keep []any
		for _, o := range ops {
			op, _ := o.(map[string]any)["op"].(string)
			if driverOps[op] || (refresh && refreshOps[op]) {
				keep = append(keep, o)
			}
		}
		if keep == nil {
			delete(run, "ops")
		} else {
			run["ops"] = keep
		}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "scenario.json"), append(out, '\n'), 0o644)
}
