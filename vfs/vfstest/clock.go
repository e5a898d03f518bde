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

// FixedClock returns the reading function of a fresh [Clock] whose first
// reading is a fixed date, 2030-01-02 03:04:05 UTC, for a MemFS whose
// modification times are the same on every run.
func FixedClock() func() time.Time {
	return NewClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)).Now
}
