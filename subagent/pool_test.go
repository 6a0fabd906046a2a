package subagent

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// waitQueued spins until p has n calls waiting.
func waitQueued(t *testing.T, p *Pool, n int) {
	t.Helper()
	for {
		p.mu.Lock()
		q := len(p.queue)
		p.mu.Unlock()
		if q == n {
			return
		}
		if t.Context().Err() != nil {
			t.Fatalf("queue never reached %d", n)
		}
		runtime.Gosched()
	}
}

func TestNewPoolSize(t *testing.T) {
	for _, tc := range []struct {
		in, want int
		err      bool
	}{{0, DefaultMaxParallel, false}, {1, 1, false}, {7, 7, false}, {-1, 0, true}} {
		p, err := NewPool(tc.in)
		if tc.err {
			if err == nil {
				t.Errorf("NewPool(%d) succeeded", tc.in)
			}
			continue
		}
		if err != nil || p.MaxParallel() != tc.want {
			t.Errorf("NewPool(%d) = %v, %v", tc.in, p, err)
		}
		p.Close()
	}
}

func TestPoolNeverRunsMoreThanItsLimit(t *testing.T) {
	const limit, jobs = 3, 12
	p, err := NewPool(limit)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var running, peak atomic.Int32
	started := make(chan struct{}, jobs)
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			err := p.Do(t.Context(), func(ctx context.Context) error {
				n := running.Add(1)
				for {
					old := peak.Load()
					if n <= old || peak.CompareAndSwap(old, n) {
						break
					}
				}
				started <- struct{}{}
				<-release
				running.Add(-1)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	for range limit {
		<-started
	}
	waitQueued(t, p, jobs-limit)
	if n := running.Load(); n != limit {
		t.Fatalf("%d running with %d queued, want %d", n, jobs-limit, limit)
	}
	for range jobs - limit {
		release <- struct{}{}
		<-started
	}
	close(release)
	wg.Wait()
	if peak.Load() != limit {
		t.Fatalf("peak %d, want %d", peak.Load(), limit)
	}
}

func TestPoolServesWaitersFirstInFirstOut(t *testing.T) {
	p, _ := NewPool(1)
	defer p.Close()
	hold := make(chan struct{})
	holding := make(chan struct{})
	go p.Do(t.Context(), func(context.Context) error { close(holding); <-hold; return nil })
	<-holding
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			p.Do(t.Context(), func(context.Context) error {
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				return nil
			})
		})
		waitQueued(t, p, i+1)
	}
	close(hold)
	wg.Wait()
	for i, v := range order {
		if v != i {
			t.Fatalf("order %v, want 0..4", order)
		}
	}
}

func TestPoolCancelledWaiterLeavesQueue(t *testing.T) {
	p, _ := NewPool(1)
	defer p.Close()
	hold, holding := make(chan struct{}), make(chan struct{})
	go p.Do(t.Context(), func(context.Context) error { close(holding); <-hold; return nil })
	<-holding
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	var called atomic.Bool
	go func() {
		done <- p.Do(ctx, func(context.Context) error { called.Store(true); return nil })
	}()
	waitQueued(t, p, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) || called.Load() {
		t.Fatalf("err %v, called %v", err, called.Load())
	}
	waitQueued(t, p, 0)
	close(hold)
	// The slot is free again: a new call runs.
	if err := p.Do(t.Context(), func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

func TestPoolParentCancelAbortsRunningJob(t *testing.T) {
	p, _ := NewPool(1)
	defer p.Close()
	ctx, cancel := context.WithCancel(t.Context())
	started := make(chan struct{})
	done := make(chan error)
	go func() {
		done <- p.Do(ctx, func(ctx context.Context) error { close(started); <-ctx.Done(); return ctx.Err() })
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func TestPoolCloseRejectsQueuedAndWaitsForRunning(t *testing.T) {
	p, _ := NewPool(1)
	started := make(chan struct{})
	var finished atomic.Bool
	runErr := make(chan error)
	go func() {
		runErr <- p.Do(t.Context(), func(ctx context.Context) error {
			close(started)
			<-ctx.Done()
			finished.Store(true)
			return nil
		})
	}()
	<-started
	queuedErr := make(chan error)
	go func() {
		queuedErr <- p.Do(t.Context(), func(context.Context) error { t.Error("queued job ran"); return nil })
	}()
	waitQueued(t, p, 1)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !finished.Load() {
		t.Fatal("Close returned before the running job")
	}
	if err := <-queuedErr; !errors.Is(err, ErrClosed) || err.Error() != "subagent pool closed" {
		t.Fatalf("queued: %v", err)
	}
	if err := <-runErr; err != nil {
		t.Fatalf("running: %v", err)
	}
	if err := p.Do(t.Context(), func(context.Context) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
	p.Close() // idempotent
}
