package permission

import (
	"context"
	"runtime"
	"testing"
)

// waiting returns the number of callers queued behind the current prompt.
func (q *ApprovalQueue) waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiters)
}

func TestApprovalQueueIsFirstComeFirstServed(t *testing.T) {
	t.Parallel()
	q := NewApprovalQueue()
	if err := q.acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	order := make(chan int, 4)
	done := make(chan struct{})
	for i := range 4 {
		go func() {
			_, _ = q.Ask(context.Background(), ApprovalRequest{}, func(context.Context, ApprovalRequest) (Decision, error) {
				order <- i
				return Allow, nil
			})
			done <- struct{}{}
		}()
		for q.waiting() != i+1 { // let each one queue before the next
			runtime.Gosched()
		}
	}
	q.release()
	for range 4 {
		<-done
	}
	close(order)
	want := 0
	for got := range order {
		if got != want {
			t.Fatalf("prompt %d ran in place %d", got, want)
		}
		want++
	}
}

func TestApprovalQueueCancelledWaiterLeavesTheLine(t *testing.T) {
	t.Parallel()
	q := NewApprovalQueue()
	if err := q.acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() { errc <- q.acquire(ctx) }()
	for q.waiting() != 1 {
		runtime.Gosched()
	}
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Fatalf("acquire = %v", err)
	}
	if q.waiting() != 0 {
		t.Fatal("a cancelled waiter stayed in the line")
	}
	q.release()
	if err := q.acquire(t.Context()); err != nil { // free again
		t.Fatal(err)
	}
	q.release()
}
