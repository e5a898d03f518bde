package simtest

import (
	"errors"
	"io/fs"
	"slices"
)

// overlayAssets shows the files of extra over those of base: a name that
// extra holds is read from it, any other from base, and a directory lists
// the entries of both.
type overlayAssets struct {
	extra, base fs.FS
}

// Open opens name in extra, or in base when extra does not have it.
func (a overlayAssets) Open(name string) (fs.File, error) {
	f, err := a.extra.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return a.base.Open(name)
	}
	return f, err
}

// ReadDir lists name in both layers, the entries of extra winning, sorted
// by name.
func (a overlayAssets) ReadDir(name string) ([]fs.DirEntry, error) {
	ex, exErr := fs.ReadDir(a.extra, name)
	bs, bsErr := fs.ReadDir(a.base, name)
	if exErr != nil && bsErr != nil {
		return nil, exErr
	}
	out := slices.Clone(ex)
	for _, e := range bs {
		if !slices.ContainsFunc(ex, func(x fs.DirEntry) bool { return x.Name() == e.Name() }) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(x, y fs.DirEntry) int {
		switch {
		case x.Name() < y.Name():
			return -1
		case x.Name() > y.Name():
			return 1
		}
		return 0
	})
	return out, nil
}
