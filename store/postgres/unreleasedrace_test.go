package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Leases of a few sessions taken and released through two Projects of one
// Store by several goroutines while the server's connections are cut and
// its port refused now and then, so that releases fail and the next
// Acquire ends them (Store.unreleased): a lease never passes to a second
// holder while the first holds it, and an append under a lease is never
// refused as lost (an unreleased lease ended under its new holder) while
// the database answers. Run with -race for the map's guard; an Acquire
// and a Release after Close fail, and nothing hangs.
func TestUnreleasedLeasesUnderConcurrentAcquireReleaseAndCuts(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	schema := freshSchema(t)
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: schema, LeaseTTL: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var ps [2]*postgres.Project
	for i := range ps {
		if ps[i], err = st.Project(storage.Encoding{ProjectID: "ur"}); err != nil {
			t.Fatal(err)
		}
	}
	var (
		mu                        sync.Mutex
		held                      = map[string]int{}
		lost, released, failedRel int
	)
	stop := time.Now().Add(3 * time.Second)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			p := ps[g%2]
			for i := 0; time.Now().Before(stop); i++ {
				id := fmt.Sprintf("s%d", (g+i)%3)
				ctx, cancel := context.WithTimeout(t.Context(), time.Second)
				l, err := p.Acquire(ctx, id, postgres.LeaseOptions{})
				if err != nil {
					cancel()
					continue
				}
				mu.Lock()
				held[id]++
				two := held[id] > 1
				mu.Unlock()
				if two {
					t.Errorf("session %s held twice at once", id)
				}
				_, err = p.Checkpointer().Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("x")}}, session.AnyHead)
				var le *postgres.LeaseLostError
				if errors.As(err, &le) {
					mu.Lock()
					lost++
					mu.Unlock()
					t.Errorf("append to %s under its lease: %v", id, err)
				}
				mu.Lock()
				held[id]--
				mu.Unlock()
				if l.Release(ctx) != nil {
					mu.Lock()
					failedRel++
					mu.Unlock()
				} else {
					mu.Lock()
					released++
					mu.Unlock()
				}
				cancel()
			}
		})
	}
	wg.Go(func() {
		for time.Now().Before(stop) {
			time.Sleep(400 * time.Millisecond)
			proxy.Down(true)
			proxy.Cut()
			time.Sleep(40 * time.Millisecond)
			proxy.Down(false)
		}
	})
	wg.Wait()
	t.Logf("released %d, failed releases %d, lost %d", released, failedRel, lost)
	ctx := t.Context()
	l, err := ps[0].Acquire(ctx, "s0", postgres.LeaseOptions{Wait: true})
	if err != nil {
		t.Fatalf("Acquire after the cuts: %v", err)
	}
	st.Close()
	done := make(chan error, 2)
	go func() { done <- l.Release(ctx) }()
	go func() { _, err := ps[1].Acquire(ctx, "s1", postgres.LeaseOptions{}); done <- err }()
	for range 2 {
		select {
		case err := <-done:
			if err == nil {
				t.Error("a Release or an Acquire after Close succeeded")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a Release or an Acquire after Close hangs")
		}
	}
}
