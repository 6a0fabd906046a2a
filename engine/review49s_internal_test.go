package engine

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

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

// The weak pin list drops an id once its last pin's cell is gone: each id
// ever pinned kept its key (and an empty slot) until the next Pin or
// Deleting of that same id, so an engine serving many sessions kept a key
// per id it ever pinned.
func TestThePinListForgetsAnIdWhoseLastPinEnded(t *testing.T) {
	e := &Engine{}
	const n = 1000
	for i := range n {
		id := fmt.Sprintf("s%d", i)
		_ = e.Pin(id)
		e.DropIdentities(func(string) bool { return false }) // nothing holds the cell now
	}
	if left := pinnedAfterGC(e, 50); left != 0 {
		t.Errorf("the pin list holds %d of %d ids whose pins all ended", left, n)
	}
	// A pin still held keeps its id listed.
	p := e.Pin("kept")
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	e.mu.Lock()
	_, ok := e.pinned["kept"]
	e.mu.Unlock()
	if !ok {
		t.Error("the id of a pin still held was dropped")
	}
	runtime.KeepAlive(p)
}
