package vfs_test

import (
	"io/fs"
	"testing"

	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/vfs/faultfs"
)

// openOnly exposes nothing but Open, so every vfs helper must use its
// fallback or report errors.ErrUnsupported.
type openOnly struct{ m *vfs.MemFS }

func (o openOnly) Open(name string) (fs.File, error) { return o.m.Open(name) }

// openFileOnly adds OpenFile, for the WriteFile fallback.
type openFileOnly struct{ openOnly }

func (o openFileOnly) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return o.m.OpenFile(name, flag, perm)
}

// openFileOf exposes Open and OpenFile of a faultfs.FS alone, so that
// vfs.WriteFile takes its OpenFile fallback under injected faults.
type openFileOf struct{ f *faultfs.FS }

func (o openFileOf) Open(name string) (fs.File, error) { return o.f.Open(name) }
func (o openFileOf) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return o.f.OpenFile(name, flag, perm)
}

// mkdirOnly has Mkdir, Stat and Lstat but no MkdirAll, for the MkdirAll
// fallback.
type mkdirOnly struct{ openOnly }

func (o mkdirOnly) Mkdir(name string, perm fs.FileMode) error { return o.m.Mkdir(name, perm) }
func (o mkdirOnly) Stat(name string) (fs.FileInfo, error)     { return o.m.Stat(name) }
func (o mkdirOnly) Lstat(name string) (fs.FileInfo, error)    { return o.m.Lstat(name) }

// removeOnly has Remove and Lstat but no RemoveAll and no ReadDir (the
// fallback lists directories through Open), for the RemoveAll fallback.
type removeOnly struct{ openOnly }

func (o removeOnly) Remove(name string) error               { return o.m.Remove(name) }
func (o removeOnly) Lstat(name string) (fs.FileInfo, error) { return o.m.Lstat(name) }

// mustAll stops the test at the first error among errs, the results of
// the calls of a setup sequence in the order they ran.
func mustAll(tb testing.TB, errs ...error) {
	tb.Helper()
	for _, err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// racer runs race on the name of each Mkdir and Remove before making the
// call, as another process could between the fallback's look and its call.
type racer struct {
	mkdirOnly
	race func(m *vfs.MemFS, name string)
}

func (r racer) Mkdir(name string, perm fs.FileMode) error {
	r.race(r.m, name)
	return r.m.Mkdir(name, perm)
}

func (r racer) Remove(name string) error {
	r.race(r.m, name)
	return r.m.Remove(name)
}
