package launch

import (
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/outfitter-go/vfsim/writeback"
)

// Notify relays the given signals (SIGINT, SIGTERM and SIGHUP, the ones
// upstream handles, when none are given) to a new channel for [Options].Signals, so that the caller
// survives them and the child receives them. stop ends the relay and
// restores the default behaviour.
//
// A terminal's Ctrl-C is sent to the whole foreground process group, so
// a child that shares the caller's terminal receives SIGINT from the
// terminal itself and once more through the relay; a program that wants
// one delivery notifies SIGTERM and SIGHUP only and ignores SIGINT.
func Notify(sigs ...os.Signal) (ch <-chan os.Signal, stop func()) {
	if len(sigs) == 0 {
		sigs = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
	}
	c := make(chan os.Signal, len(sigs))
	signal.Notify(c, sigs...)
	return c, func() { signal.Stop(c) }
}

// waitStatus is what ProcessState.Sys returns on Unix and on Windows.
type waitStatus interface {
	Exited() bool
	ExitStatus() int
	Signaled() bool
	Signal() syscall.Signal
}

// ExitOf classifies how a process ended, as [writeback.Exit]: the signal
// that killed it, or its exit code; ok is false when neither is known (a
// nil state, a process not yet waited for). [writeback.ExitCode] maps the
// exit to the run's exit code as upstream does (the code, or 128+n for a
// signal: SIGINT 130, SIGTERM 143, any other 129).
func ExitOf(ps *os.ProcessState) (exit writeback.Exit, ok bool) {
	if ps == nil {
		return writeback.Exit{}, false
	}
	if ws, isWS := ps.Sys().(waitStatus); isWS && ws.Signaled() {
		return writeback.Exit{Signal: SignalName(ws.Signal())}, true
	}
	if ps.Exited() {
		return writeback.Exit{Exited: true, Code: ps.ExitCode()}, true
	}
	return writeback.Exit{}, false
}

// SignalName returns the conventional name of a signal ("SIGTERM"), the
// spelling of [writeback.Exit].Signal, or "SIG" and its number for a
// signal without a name here.
func SignalName(s syscall.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return "SIG" + strconv.Itoa(int(s))
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGILL: "SIGILL", syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT",
	syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL",
	syscall.SIGSEGV: "SIGSEGV", syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM",
	syscall.SIGTERM: "SIGTERM",
}
