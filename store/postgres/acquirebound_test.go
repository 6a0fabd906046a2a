package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire whose own bound (the lease's TTL, 3 s here) passes while its
// COMMIT is out, the COMMIT done at the server and its reply on the way
// (held 4 s), took the lease: the caller's ctx still running, it said
// context.DeadlineExceeded, as if its ctx had ended, and nothing of the
// lease it may have taken. It is an *OutcomeUnknownError, as Acquire's doc
// promises when the database could not tell.
func TestAnAcquireWhoseBoundPassedWithItsCommitOut(t *testing.T) {
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: 3 * time.Second, Holder: "bound"})
	var (
		l   *postgres.Lease
		err error
	)
	p, err := st.Project(storage.Encoding{ProjectID: "bound"})
	if err != nil {
		t.Fatal(err)
	}
	warmLease(t, p)
	// Under load the bound may pass before the COMMIT goes out (nothing
	// taken, not the case under test): tried again, on another session.
	var (
		id   string
		held atomic.Bool
	)
	for i := range 3 {
		id = fmt.Sprintf("s%d", i+1)
		proxy.OnReply([]byte("COMMIT\x00"), func() {
			held.Store(true)
			time.Sleep(4 * time.Second)
		})
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		l, err = p.Acquire(ctx, id, postgres.LeaseOptions{})
		cancel()
		if held.Load() || err == nil {
			break
		}
		t.Logf("the bound passed before the COMMIT went out: %v", err)
	}
	if !held.Load() {
		t.Fatalf("no Acquire sent its COMMIT within its bound (%v)", err)
	}
	if err == nil {
		_ = l.Release(t.Context())
		t.Fatal("Acquire succeeded: its COMMIT's reply came in time")
	}
	t.Logf("Acquire: %v", err)
	var ou *postgres.OutcomeUnknownError
	if !errors.As(err, &ou) || ou.Op != "lease acquisition" || ou.SessionID != id {
		t.Errorf("Acquire = %v (%T), its caller's ctx running; want an *OutcomeUnknownError of the lease acquisition of %s", err, err, id)
	}
	// The lease was taken (its row, of the Store's name, is there; it
	// expires a TTL after its transaction began, about as the bound passed).
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var holder string
	if err := conn.QueryRow(t.Context(), `SELECT holder FROM `+pgx.Identifier{st.Schema(), "leases"}.Sanitize()+
		` WHERE project = $1 AND session = $2`, "bound", id).Scan(&holder); err != nil || holder != "bound" {
		t.Errorf("the lease row of %s: holder %q, %v; want the row Acquire wrote, of holder bound", id, holder, err)
	}
}
