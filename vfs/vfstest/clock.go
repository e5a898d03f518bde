package vfstest

import (
	"sync"
	"time"
)

// Clock is a deterministic clock for vfs.MemOptions.Clock: each call to
// [Clock.Now] returns a time one second after the previous call's. It is safe
// for concurrent use.
type Clock struct {
	mu   sync.Mutex
	next time.Time
}

// NewClock returns a Clock whose first reading is start.
func NewClock(start time.Time) *Clock { return &Clock{next: start} }

// Now returns the current reading and advances the clock by one second.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.next
	c.next = c.next.Add(time.Second)
	return now
}
