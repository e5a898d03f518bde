//go:build !unix

package osfs

import (
	"errors"
	"io/fs"
	"os"
)

// flock is unsupported where there is no flock(2).
func flock(*os.File, bool, bool) error { return errors.ErrUnsupported }

// sameFile is never reached without flock.
func sameFile(a, b fs.FileInfo) bool { return false }
