package launch_test

import (
	"testing"

	"github.com/outfitter-go/vfsim/sim/simtest"
)

// fakeAgent builds the fake agent CLI of package simtest.
func fakeAgent(t *testing.T) string {
	t.Helper()
	return simtest.FakeAgent(t)
}
