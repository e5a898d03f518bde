//go:build !linux

package main

import "os"

// terminal reports whether the descriptor is a character device, the
// nearest portable sign of a terminal.
func terminal(fd uintptr) bool {
	fi, err := os.NewFile(fd, "").Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
