package main

import "golang.org/x/sys/unix"

// terminal reports whether the descriptor is a terminal.
func terminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
