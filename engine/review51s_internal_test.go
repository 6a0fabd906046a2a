package engine

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// The cleanups that prune the pin list run on the runtime's goroutine
// while Pins, Deletings and DropIdentities run on others (run with -race):
// a pin held throughout keeps its id listed and is marked by a Deleting,
// and once every pin has ended the list is empty.
func TestThePinListUnderChurn(t *testing.T) {
	e := &Engine{}
	held := e.Pin("held")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 300 {
				id := fmt.Sprintf("s%d", (g*7+i)%13)
				p := e.Pin(id)
				if i%5 == 0 {
					undo := e.Deleting(id)
					undo()
				}
				e.DropIdentities(func(k string) bool { return k == "held" })
				if i%50 == 0 {
					runtime.GC()
				}
				runtime.KeepAlive(p)
			}
		})
	}
	wg.Wait()
	undo := e.Deleting("held")
	e.mu.Lock()
	marked := held.cell.deleted
	e.mu.Unlock()
	if !marked {
		t.Error("a Deleting under churn did not mark the cell of a pin held throughout")
	}
	undo()
	runtime.KeepAlive(held)
	held = Pin{}
	if left := pinnedAfterGC(e, 100); left != 0 {
		t.Errorf("the pin list holds %d ids after every pin ended", left)
	}
}

// pinnedAfterGC collects garbage up to rounds times, 10ms apart (the
// cleanups that prune the pin list run after a collection), until e's pin
// list is empty, and returns how many ids it still holds.
func pinnedAfterGC(e *Engine, rounds int) int {
	var left int
	for range rounds {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		e.mu.Lock()
		left = len(e.pinned)
		e.mu.Unlock()
		if left == 0 {
			break
		}
	}
	return left
}
