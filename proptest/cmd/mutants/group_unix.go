//go:build unix

package main

import (
	"os/exec"
	"syscall"
	"time"
)

// stopGroup makes cmd, when its context ends, stop the test binary that
// go test started as well as go test itself: both run in a process group
// of their own, which is killed whole.
func stopGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
}
