package engine

import "testing"

// Pins of a session the engine knows all hold the same cell: its weak
// list keeps that cell once, not once per Pin (a turn takes one), which
// grew by an entry per turn for as long as the session was known.
func TestPinsOfOneCellAreListedOnce(t *testing.T) {
	e := &Engine{}
	pins := make([]Pin, 0, 100)
	for range 100 {
		pins = append(pins, e.Pin("s1"))
	}
	e.mu.Lock()
	n := len(e.pinned["s1"])
	e.mu.Unlock()
	if n != 1 {
		t.Errorf("100 pins of one cell listed %d times, want 1", n)
	}
	_ = pins
}
