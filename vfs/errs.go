package vfs

import (
	"errors"
	"io/fs"
	"os"
)

// Cause returns the error inside the first *fs.PathError or *os.LinkError
// of err's chain: the errno-like sentinel, for a caller that wraps it
// again with its own op and name. Any other error is returned as it is,
// and nil stays nil.
func Cause(err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return le.Err
	}
	return err
}

// WithNames returns err naming what rename makes of the names it carries:
// the first *fs.PathError or *os.LinkError of err's chain is copied with
// its Path, or its Old and New, passed through rename, and keeps its Op
// and Err. Any other error is returned as it is, and nil stays nil. Views
// and adapters use it to give errors their callers' names.
func WithNames(err error, rename func(name string) string) error {
	if err == nil {
		return nil
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return &fs.PathError{Op: pe.Op, Path: rename(pe.Path), Err: pe.Err}
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return &os.LinkError{Op: le.Op, Old: rename(le.Old), New: rename(le.New), Err: le.Err}
	}
	return err
}
