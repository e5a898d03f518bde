package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/outfitter-go/vfsim/sim"
)

// update rewrites the expected files that scenarios name (summaries and
// warnings) from what the engine produces now. Only fixtures on disk can
// be updated; the default is ./fixtures/catalog.
func update(args []string, stdout io.Writer) (int, error) {
	f := newFlags("update")
	if err := f.Parse(args); err != nil {
		return 0, usageError{err}
	}
	dirs := f.Args()
	if len(dirs) == 0 {
		dirs = []string{filepath.Join("fixtures", "catalog")}
	}
	var fixtureDirs []string
	for _, d := range dirs {
		if isFixture(d) {
			fixtureDirs = append(fixtureDirs, d)
			continue
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			return 0, err
		}
		for _, e := range entries {
			if sub := filepath.Join(d, e.Name()); e.IsDir() && isFixture(sub) {
				fixtureDirs = append(fixtureDirs, sub)
			}
		}
	}
	written := 0
	for _, dir := range fixtureDirs {
		fxs, err := loadFixtures([]string{dir})
		if err != nil {
			return 0, err
		}
		fx := fxs[0]
		for _, sc := range fx.Scenarios() {
			out, err := sim.RunScenario(context.Background(), fx, sc, sim.ScenarioOptions{})
			if err != nil {
				return 0, err
			}
			for i, run := range sc.Runs {
				if run.Expect == nil {
					continue
				}
				rr := out.Report.Runs[i]
				if s := run.Expect.Summary; s != nil && rr.Summary != nil {
					doc := struct {
						ProfileID string `json:"profileId"`
						AgentID   string `json:"agentId"`
						*sim.Summary
					}{rr.ProfileID, rr.AgentID, rr.Summary}
					if err := writeJSON(filepath.Join(dir, filepath.FromSlash(s.File)), doc); err != nil {
						return 0, err
					}
					fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(dir, s.File))
					written++
				}
				if w := run.Expect.Warnings; w != nil && w.File != "" {
					if err := writeJSON(filepath.Join(dir, filepath.FromSlash(w.File)), rr.Warnings); err != nil {
						return 0, err
					}
					fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(dir, w.File))
					written++
				}
			}
		}
	}
	fmt.Fprintf(stdout, "%d expected files written\n", written)
	return 0, nil
}

func writeJSON(file string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}
