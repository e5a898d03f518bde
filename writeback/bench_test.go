package writeback_test

import (
	"fmt"
	"testing"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/vfstest"
	"github.com/outfitter-go/vfsim/writeback"
)

// benchRun builds a pi composite of 60 entries (cache/ is warn), takes its
// baseline and makes 20 changes to it: 8 generated files under outfitter/
// rewritten, 6 undeclared files, 2 links replaced, 4 files in cache/.
func benchRun(tb testing.TB) (*vfs.MemFS, []composite.StatePath, vfs.Tree) {
	tb.Helper()
	paths := piPaths(strategies{"cache/": composite.StrategyWarn})
	gen := vfstest.Tree{".mcp.json": vfstest.File("{}"), "keybindings.json": vfstest.File("{}")}
	for i := range 41 {
		gen[fmt.Sprintf("outfitter/plugin/skills/outfitter/references/doc%02d.md", i)] = vfstest.File("reference text")
	}
	// Recorded: 12 links, cache/, .mcp.json, 5 directories under and
	// including outfitter/, 41 references = 60 (keybindings.json is discard
	// and not recorded).
	fsys := materialize(tb, nil, gen, paths)
	baseline, err := writeback.Snapshot(fsys, root, paths)
	if err != nil {
		tb.Fatal(err)
	}
	changes := map[string]string{}
	for i := range 8 {
		changes[fmt.Sprintf("outfitter/plugin/skills/outfitter/references/doc%02d.md", i)] = "changed"
	}
	for i := range 6 {
		changes[fmt.Sprintf("scratch-%d.txt", i)] = "x"
	}
	for i := range 4 {
		changes[fmt.Sprintf("cache/entry-%d", i)] = "x"
	}
	for _, rel := range []string{"settings.json", "auth.json"} {
		if err := vfs.Remove(fsys, root+"/"+rel); err != nil {
			tb.Fatal(err)
		}
		changes[rel] = "{}"
	}
	for rel, text := range changes {
		if err := vfs.WriteFile(fsys, root+"/"+rel, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return fsys, paths, baseline
}

// BenchmarkDetect measures post-run detection of a 60-entry composite
// with 20 changes: the snapshot, the diff and the classification.
func BenchmarkDetect(b *testing.B) {
	fsys, paths, baseline := benchRun(b)
	checkBench(b, fsys, paths, baseline)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := writeback.Detect(fsys, root, paths, baseline); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassify measures the classification alone (diff of two
// snapshots and Classify) for the same composite.
func BenchmarkClassify(b *testing.B) {
	fsys, paths, baseline := benchRun(b)
	checkBench(b, fsys, paths, baseline)
	current, err := writeback.Snapshot(fsys, root, paths)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		writeback.Classify(writeback.Changes(baseline, current), paths)
	}
}

// checkBench checks the benchmark's preconditions: 60 entries, 20 changes
// and 9 issues (8 under outfitter/ are not reported, 4 in cache/ are one).
func checkBench(b *testing.B, fsys vfs.FS, paths []composite.StatePath, baseline vfs.Tree) {
	b.Helper()
	current, err := writeback.Snapshot(fsys, root, paths)
	if err != nil {
		b.Fatal(err)
	}
	changes := writeback.Changes(baseline, current)
	issues := writeback.Classify(changes, paths)
	if len(baseline) != 60 || len(changes) != 20 || len(issues) != 9 {
		b.Fatalf("precondition: %d entries, %d changes, %d issues; want 60, 20, 9", len(baseline), len(changes), len(issues))
	}
}

func TestBenchmarkComposite(t *testing.T) {
	t.Parallel()
	fsys, paths, baseline := benchRun(t)
	current, err := writeback.Snapshot(fsys, root, paths)
	must(t, err)
	changes := writeback.Changes(baseline, current)
	if n, c, i := len(baseline), len(changes), len(writeback.Classify(changes, paths)); n != 60 || c != 20 || i != 9 {
		t.Errorf("%d entries, %d changes, %d issues; want 60, 20, 9", n, c, i)
	}
}

// BenchmarkDetectWritten measures detection and classification of n files
// the agent wrote into the composite of BenchmarkDetect (DetectSince of a
// clone taken at the baseline, as a run on the memory FS does): half below
// cache/ (warn: one issue), half in ten undeclared directories (one issue
// per directory and per file). Its cost should grow linearly with n.
func BenchmarkDetectWritten(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			before, paths, _ := benchRun(b)
			after := before.Clone()
			if err := vfs.RemoveAll(before, root+"/cache"); err != nil {
				b.Fatal(err)
			}
			if err := vfs.Mkdir(before, root+"/cache", 0o755); err != nil {
				b.Fatal(err)
			}
			data := []byte("agent output")
			for i := range n {
				dir := fmt.Sprintf("%s/work-%d", root, i/2%10)
				if i%2 == 0 {
					dir = fmt.Sprintf("%s/cache/d%02d", root, i/2%20)
				}
				if err := vfs.MkdirAll(after, dir, 0o755); err != nil {
					b.Fatal(err)
				}
				if err := vfs.WriteFile(after, fmt.Sprintf("%s/f%05d.txt", dir, i), data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			issues, err := writeback.DetectSince(before, after, root, paths)
			if err != nil {
				b.Fatal(err)
			}
			if want := 1 + 10 + n/2; len(issues) != want {
				b.Fatalf("precondition: %d issues, want %d", len(issues), want)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := writeback.DetectSince(before, after, root, paths); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
