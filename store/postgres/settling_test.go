package postgres_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire through one Project waits for the release of the lease that an
// abandoned Acquire through another Project of the same Store took (its
// INSERT finished in the background once the database answered): the wait
// was per Project, and the other Project's Acquire failed with a
// *BusyError naming this very process until the release landed (here
// held off by a lock on the sessions table, which the release reads).
func TestAnAcquireWaitsForAnotherProjectsAbandonedLease(t *testing.T) {
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema, LeaseTTL: 20 * time.Second, Holder: "me"})
	pa, pb := mpProject(t, st), mpProject(t, st)
	for _, p := range []*postgres.Project{pa, pb} { // each Project's first Acquire done
		warmLease(t, p)
	}
	// The release of what the abandoned Acquire takes reads the sessions
	// table: held off until the second Acquire is under way.
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	hold, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback(context.Background())
	if _, err := hold.Exec(t.Context(), "LOCK TABLE "+schema+".sessions IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	tx := stallLeases(t, schema)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := pa.Acquire(ctx, "s1", postgres.LeaseOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire on a stalled database = %v, want the context's error", err)
	}
	if err := tx.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitForALockWaiter(t, schema+".sessions") // the abandoned Acquire's INSERT done, its release waiting
	done := make(chan error, 1)
	go func() {
		bctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		l, err := pb.Acquire(bctx, "s1", postgres.LeaseOptions{})
		if err == nil {
			err = l.Release(context.Background())
		}
		done <- err
	}()
	// The second Acquire under way: waiting for the release (or back
	// already, as it was before, with a *BusyError), not started late,
	// after the release, which tests nothing.
	waitForAcquireWaiting(t, done)
	if err := hold.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the other Project's Acquire after the abandoned one: %v", err)
	}
}

// waitForAcquireWaiting waits, for up to 30 s, until a goroutine that the
// test t started is blocked in a select right in (*Project).Acquire (its
// wait for the release of a lease an abandoned Acquire took), or done
// holds a result (which it leaves there).
func waitForAcquireWaiting(t *testing.T, done chan error) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if len(done) > 0 {
			return
		}
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			header, frames, _ := strings.Cut(g, "\n")
			if !strings.Contains(header, "[select") || !strings.Contains(g, "."+t.Name()+" in goroutine") {
				continue
			}
			// The first frame outside the runtime.
			for _, line := range strings.Split(frames, "\n") {
				if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "runtime.") {
					continue
				}
				if strings.Contains(line, "postgres.(*Project).Acquire(") {
					return
				}
				break
			}
		}
	}
	t.Fatal("the second Acquire neither waited nor returned within 30 s")
}
