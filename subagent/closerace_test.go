package subagent_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/subagent"
)

// TestPoolCloseTwiceWithCallsInFlight closes a pool from two goroutines
// while one Do call runs and another waits for a slot: the running call's
// context is cancelled, the waiting one fails with ErrClosed, both Closes
// return nil once the calls have returned, and a later Do fails with
// ErrClosed (run it with -race).
func TestPoolCloseTwiceWithCallsInFlight(t *testing.T) {
	p, err := subagent.NewPool(1)
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	errs := make(chan error, 2)
	go func() {
		errs <- p.Do(t.Context(), func(ctx context.Context) error {
			close(running)
			<-ctx.Done()
			return ctx.Err()
		})
	}()
	<-running
	go func() {
		errs <- p.Do(t.Context(), func(ctx context.Context) error { return nil })
	}()
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if err := p.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
	wg.Wait()
	for range 2 {
		if err := <-errs; err == nil {
			t.Error("a call in flight at Close returned nil")
		}
	}
	if err := p.Do(t.Context(), func(context.Context) error { return nil }); !errors.Is(err, subagent.ErrClosed) {
		t.Errorf("Do after Close: %v, want ErrClosed", err)
	}
}
