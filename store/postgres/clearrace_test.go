package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A Project.Clear racing the writes of the project's sessions (each on a
// connection of its own) neither deadlocks with them (PostgreSQL broke a
// cycle with 40P01, and one side failed) nor leaves a session half there:
// after each round, every session either has all its records up to its
// head or no row at all.
func TestAClearRacingWritesDoesNotDeadlock(t *testing.T) {
	writes := map[string]func(ctx context.Context, cp *postgres.Checkpointer, id string) error{
		// The one-statement append (the head is known to this process).
		"append": func(ctx context.Context, cp *postgres.Checkpointer, id string) error {
			_, err := cp.Append(ctx, id, clearRaceEvents, session.AnyHead)
			return err
		},
		// The transaction that locks the session's row first.
		"truncate": func(ctx context.Context, cp *postgres.Checkpointer, id string) error {
			head, err := cp.Head(ctx, id)
			if err != nil || head == 0 {
				return err
			}
			err = cp.Truncate(ctx, id, head-1, session.AnyHead)
			var r *session.RangeError
			if errors.As(err, &r) {
				return nil // the Clear came between the two calls
			}
			return err
		},
		"delete": func(ctx context.Context, cp *postgres.Checkpointer, id string) error {
			return cp.Delete(ctx, id)
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			clearRace(t, write)
		})
	}
}

var clearRaceEvents = []session.Event{session.UserEvent{Message: model.UserText("hello")}}

func clearRace(t *testing.T, write func(context.Context, *postgres.Checkpointer, string) error) {
	ctx := t.Context()
	schema := freshSchema(t)
	a := openStore(t, postgres.Options{Schema: schema})
	b := openStore(t, postgres.Options{Schema: schema})
	pa, pb := mpProject(t, a), mpProject(t, b)
	const sessions = 6
	ids := make([]string, sessions)
	for i := range ids {
		ids[i] = fmt.Sprintf("s%d", i)
	}
	// Each session has a lease row (ended: its log keeps it), which the
	// one-statement append locks before the session's row.
	fill := func() {
		t.Helper()
		for _, id := range ids {
			l, err := pa.Acquire(ctx, id, postgres.LeaseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if _, err := pa.Checkpointer().Append(ctx, id, clearRaceEvents, session.AnyHead); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	var deadlocks, failures int
	deadline := time.Now().Add(6 * time.Second)
	rounds := 0
	for ; rounds < 150 && time.Now().Before(deadline) && deadlocks == 0; rounds++ {
		fill()
		r := startRacers()
		for _, id := range ids {
			r.loop("write "+id, func() error { return write(ctx, pa.Checkpointer(), id) })
		}
		time.Sleep(5 * time.Millisecond)
		clearErr := pb.Clear(ctx)
		errs := r.end()
		if clearErr != nil {
			errs = append(errs, fmt.Errorf("clear: %w", clearErr))
		}
		for _, err := range errs {
			failures++
			if isDeadlock(err) {
				deadlocks++
			}
			t.Errorf("round %d: %v", rounds, err)
		}
		for _, id := range ids {
			head, err := pa.Checkpointer().Head(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := pa.Checkpointer().Read(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(recs)) != head {
				t.Errorf("round %d: session %s has head %d and %d records", rounds, id, head, len(recs))
			}
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d rounds, %d failures, %d deadlocks", rounds, failures, deadlocks)
}

// racers are goroutines each calling its function again and again until
// end, or until it fails.
type racers struct {
	stop chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
}

func startRacers() *racers { return &racers{stop: make(chan struct{})} }

// loop starts a goroutine calling fn until end or fn's first error, which
// end returns prefixed with name.
func (r *racers) loop(name string, fn func() error) {
	r.wg.Go(func() {
		for {
			select {
			case <-r.stop:
				return
			default:
			}
			if err := fn(); err != nil {
				r.mu.Lock()
				r.errs = append(r.errs, fmt.Errorf("%s: %w", name, err))
				r.mu.Unlock()
				return
			}
		}
	})
}

// end stops the goroutines, waits for them and returns their errors.
func (r *racers) end() []error {
	close(r.stop)
	r.wg.Wait()
	return r.errs
}

// isDeadlock reports whether err is PostgreSQL's deadlock error.
func isDeadlock(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40P01"
}
