package composite_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/proptest"
	"github.com/outfitter-go/vfsim/vfs"
)

// TestPiQuietStartupConcurrent: an onboarding launch merges quietStartup
// into the durable pi settings (a read-modify-write through the root's
// settings.json link) while a second session changes the same file under
// its lock ([vfs.LockFile], then a read, an edit and [vfs.ReplaceFile]).
// Every schedule of the two with at most one preemption (proptest.Switch)
// must end with both changes in the file: without the lock held from the
// read to the write, the launch writes back what it read before the
// second session's write, and that change is lost. Two launches alone
// cannot show it, as both add the same key.
func TestPiQuietStartupConcurrent(t *testing.T) {
	t.Parallel()
	const settings = home + "/.pi/agent/settings.json"
	for _, order := range [][]int{{0, 1}, {1, 0}} {
		for at := 0; ; at++ {
			w := world{profiles: map[string]string{"eng": "id: eng\n"}, files: map[string]string{settings: `{"theme":"dark"}`}}
			mem := w.newFS(t)
			r, err := composite.Plan(mem, composite.Request{Result: w.resolve(t, mem), Onboarding: &composite.Onboarding{DefaultProfilesPath: "/d"}}, composite.Options{NoSweep: true})
			must(t, err)
			_, err = r.Materialize()
			must(t, err)
			trace, err := proptest.RunSessions(mem, 2, proptest.Switch{Order: order, At: at}, 0, func(i int, fsys *proptest.SchedFS) {
				if i == 0 {
					r.FS = fsys
					if _, _, err := r.Launch(); err != nil {
						t.Errorf("Launch: %v", err)
					}
					return
				}
				if err := editSettings(fsys, settings, "editor", "vim"); err != nil {
					t.Errorf("the second session's edit: %v", err)
				}
			})
			if err != nil {
				t.Fatalf("order %v, switch at %d: %v", order, at, err)
			}
			data, err := mem.ReadFile(settings)
			must(t, err)
			var got map[string]any
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatalf("durable settings %q: %v", data, err)
			}
			if got["quietStartup"] != true || got["editor"] != "vim" || got["theme"] != "dark" {
				t.Fatalf("order %v, schedule %s: durable settings %s lost an update", order, trace, data)
			}
			if names := dirNames(t, mem, home+"/.pi/agent"); slices.Contains(names, ".settings.json.lock") {
				t.Fatalf("order %v, schedule %s: the settings lock file is left behind: %q", order, trace, names)
			}
			if at >= len(trace) {
				break
			}
		}
	}
}

// editSettings sets key to value in the JSON object of name, under the
// file's lock, as a session that changes the pi settings does.
func editSettings(fsys vfs.ReadWriteFS, name, key, value string) (err error) {
	u, err := vfs.LockFile(fsys, name)
	if err != nil {
		return err
	}
	defer func() {
		if uerr := u.Unlock(); err == nil {
			err = uerr
		}
	}()
	data, err := vfs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	obj := map[string]any{}
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	obj[key] = value
	if data, err = json.Marshal(obj); err != nil {
		return err
	}
	return vfs.ReplaceFile(fsys, name, data, 0o644)
}
