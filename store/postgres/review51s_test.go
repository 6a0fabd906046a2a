package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A Clear removes live lease rows too: the holder from before it can
// neither append nor keep its lease by renewing it (a renewal that
// inserted its row again would let it write under its old token), and the
// next holder's token is above its.
func TestAHolderFromBeforeAClearNeitherWritesNorRenews(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	a := openStore(t, postgres.Options{Schema: schema, LeaseTTL: 600 * time.Millisecond})
	b := openStore(t, postgres.Options{Schema: schema, LeaseTTL: 600 * time.Millisecond})
	pa, pb := mpProject(t, a), mpProject(t, b)
	ev := []session.Event{session.UserEvent{Message: model.UserText("hello")}}
	l, err := pa.Acquire(ctx, "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(context.Background())
	if _, err := pa.Checkpointer().Append(ctx, "s1", ev, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	if err := pb.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	var lost *postgres.LeaseLostError
	if _, err := pa.Checkpointer().Append(ctx, "s1", ev, session.AnyHead); !errors.As(err, &lost) {
		t.Errorf("the append of a holder from before the Clear: %v, want a *LeaseLostError", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for l.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !errors.As(l.Err(), &lost) {
		t.Errorf("the lease's renewal after the Clear: %v, want a *LeaseLostError", l.Err())
	}
	next, err := pb.Acquire(ctx, "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer next.Release(context.Background())
	if next.Token() <= l.Token() {
		t.Errorf("the lease after the Clear has token %d, not above the holder's %d", next.Token(), l.Token())
	}
	if _, err := pa.Checkpointer().Append(ctx, "s1", ev, session.AnyHead); !errors.As(err, &lost) {
		t.Errorf("the append of the holder from before the Clear, another holding the lease now: %v, want a *LeaseLostError", err)
	}
}
