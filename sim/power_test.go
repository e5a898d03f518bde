package sim_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/sim"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// answers persists auth.json and answers "always" for models.json.
type answers struct{}

func (answers) Prompt(_ context.Context, req writeback.PromptRequest) (writeback.Choice, error) {
	if req.Path == "models.json" {
		return writeback.ChoiceAlways, nil
	}
	return writeback.ChoicePersist, nil
}

// TestScenarioPowerCut cuts the power at every operation of a whole
// interactive run (resolution, materialization, an agent that changes two
// prompt-strategy state paths in its composite root, the write-back that
// persists one, persists the other and records "always" for it in the
// profile, and the cleanup), under both orderings of the power-cut model:
// every durable entry is its old self or its new self, whole, nothing
// outside the sources and the profile changes, and once the run returned
// all of it is on the disk. The composite root, in /tmp, is temporary by
// design and not checked.
func TestScenarioPowerCut(t *testing.T) {
	t.Parallel()
	base := promptMachine(t)
	vfstest.WriteFiles(t, base, "/", map[string]string{
		"h/.outfitter/profiles/eng/profile.yml": "id: eng\nstate_persistence:\n  auth.json: prompt\n  models.json: prompt\n",
		"h/.pi/agent/models.json":               "{\"providers\":{\"old\":{}}}\n",
	})
	agent := sim.AgentFunc(func(_ context.Context, s *sim.Session) (writeback.Exit, error) {
		if err := s.FS.WriteFile(s.Root+"/auth.json", []byte("NEW SECRET"), 0o600); err != nil {
			return writeback.Exit{}, err
		}
		if err := s.FS.WriteFile(s.Root+"/models.json", []byte("{\"providers\":{\"new\":{}}}\n"), 0o644); err != nil {
			return writeback.Exit{}, err
		}
		return writeback.Exit{Exited: true}, nil
	})
	run := func(fsys *faultfs.FS) error {
		opts := sim.Options{
			Clock:    func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
			Rand:     bytes.NewReader(make([]byte, 256)),
			Prompter: answers{},
		}
		return sim.Execute(context.Background(), fsys, sim.Spec{Home: "/h", Project: "/p", Interactive: true}, agent, opts).Err
	}
	for _, order := range []faultfs.Ordering{faultfs.OrderSynced, faultfs.OrderJournal} {
		t.Run(string(order), func(t *testing.T) {
			t.Parallel()
			r := vfstest.PowerSweep{
				Base:     base,
				Run:      run,
				Ordering: order,
				Ignore:   []string{"/tmp"},
				Changes:  []string{"/h/.pi/agent", "/h/.outfitter/cache", "/h/.outfitter/profiles/eng/profile.yml"},
			}.Check(t)
			t.Logf("%d operations, %d cuts, %d disk states checked; changed %q", r.Ops, r.Cuts, r.Disks, r.Changed)
			for _, want := range []string{"/h/.pi/agent/auth.json", "/h/.pi/agent/models.json", "/h/.outfitter/profiles/eng/profile.yml"} {
				if !slices.Contains(r.Changed, want) {
					t.Errorf("precondition: the run did not write %s (it changed %q)", want, r.Changed)
				}
			}
			if r.Cuts != r.Ops+1 || r.Ops < 100 {
				t.Errorf("the sweep cut the power %d times over %d operations", r.Cuts, r.Ops)
			}
		})
	}
}
