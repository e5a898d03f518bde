package launch_test

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/outfitter-go/vfsim/sim/launch"
)

// TestNotifySignals: with no signals named, Notify relays the ones
// upstream handles (SIGTERM and SIGHUP sent to the process reach the
// channel instead of ending it) and no other; with signals named, those.
// It runs alone (not in parallel), as the signals go to the whole test
// process.
func TestNotifySignals(t *testing.T) {
	defaults, stop := launch.Notify()
	defer stop()
	usr1, stopUsr1 := launch.Notify(syscall.SIGUSR1)
	defer stopUsr1()
	send := func(sig syscall.Signal) {
		t.Helper()
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
	}
	receive := func(ch <-chan os.Signal, want syscall.Signal) {
		t.Helper()
		select {
		case got := <-ch:
			if got != want {
				t.Errorf("relayed %v, want %v", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v was not relayed", want)
		}
	}
	send(syscall.SIGUSR1)
	receive(usr1, syscall.SIGUSR1)
	// Signals are relayed in the order they come: had the default relay
	// taken SIGUSR1, it would come before SIGTERM.
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		send(sig)
		receive(defaults, sig)
	}
}
