// Package startup is what vfsim does before its main function: it sets
// the garbage collector's target for a short-lived command and, when the
// command line is "vfsim check" and nothing else, starts loading the
// embedded fixture catalog while the rest of vfsim initializes. Package
// initialization runs on one thread while the other cores are idle; this
// package imports only package fixtures and the standard library, which
// initialize before most of vfsim's dependencies (packages initialize in
// import-path order once their imports have), so its init function runs
// early and the catalog loads on another core meanwhile.
//
// Each fixture is loaded once, by the background loader or by the first
// caller of [Fixture.Load], whichever comes first; a caller that comes
// while it is loading waits for it.
package startup

import (
	"os"
	"runtime/debug"
	"sync"

	"github.com/outfitter-go/vfsim/fixtures"
)

func init() {
	if p, ok := GCPercent(os.Getenv("GOGC")); ok {
		debug.SetGCPercent(p)
	}
	if !Wanted(os.Args) {
		return
	}
	list, err := Catalog()
	// The command reports an error when it asks. Returning when there is
	// none (a mutant) only leaves each fixture to load when the command
	// asks for it: the same output, later.
	//mutants:equivalent CONDITIONALS_NEGATION
	if err != nil {
		return
	}
	go func() {
		for _, f := range list {
			_, _ = f.Load() // an error is kept for the command, which reports it
		}
	}()
}

// StartGCPercent is the garbage collector's target percentage for a run of
// vfsim: a command lives for tens of milliseconds and allocates a few
// megabytes, which the default of 100 (a 4 MB minimum heap) collects three
// or four times while every other thread runs scenarios. 400 (a 16 MB
// minimum heap, five times the live heap beyond it) lets vfsim check on the
// catalog finish without a collection and still bounds the heap of a large
// run.
const StartGCPercent = 400

// GCPercent returns the percentage to set at start, given the GOGC
// environment variable: none when the user gave GOGC a value, which
// stands.
func GCPercent(gogc string) (int, bool) {
	if gogc != "" {
		return 0, false
	}
	return StartGCPercent, true
}

// Wanted reports whether the command line args (program name first) is
// "vfsim check" alone, the run that loads the whole catalog.
func Wanted(args []string) bool {
	return len(args) == 2 && args[1] == "check"
}

// Fixture is a fixture of the embedded catalog, loaded at most once.
type Fixture struct {
	name string
	load func() (*fixtures.Fixture, error)
}

// Name returns the fixture's name.
func (f *Fixture) Name() string { return f.name }

// Load returns the fixture, loading it unless that is done or under way.
func (f *Fixture) Load() (*fixtures.Fixture, error) { return f.load() }

// Catalog returns the fixtures of the embedded catalog in name order, the
// same for every call.
func Catalog() ([]*Fixture, error) { return catalog() }

var catalog = sync.OnceValues(func() ([]*Fixture, error) {
	names, err := fixtures.CatalogNames()
	if err != nil {
		return nil, err
	}
	list := make([]*Fixture, len(names))
	for i, n := range names {
		list[i] = &Fixture{name: n, load: sync.OnceValues(func() (*fixtures.Fixture, error) { return fixtures.LoadCatalogFixture(n) })}
	}
	return list, nil
})
