package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An append whose connection is cut once the server has done the write
// (its single statement, or the COMMIT of its transaction, answered but
// the answer lost) succeeds, as it did in the database, with the head it
// wrote, and the log holds each record once; one whose request never
// reached the server (the connection cut as it was sent) still fails with
// a *postgres.DatabaseError, and the retry leaves no gap.
func TestAnAppendWhoseReplyIsLost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		slow    bool   // through the transaction: the head cached is stale
		first   bool   // the session's first append (the INSERT of its row)
		drop    bool   // the request never reaches the server
		match   string // the request: the one with the records, else this
		wantErr bool
	}{
		{name: "statement", wantErr: false},
		{name: "first statement", first: true},
		{name: "commit", slow: true, match: "commit"},
		{name: "statement dropped", drop: true, wantErr: true},
		{name: "insert dropped", slow: true, drop: true, wantErr: true},
		{name: "commit dropped", slow: true, drop: true, match: "commit", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy, st := openProxied(t, postgres.Options{})
			ctx := t.Context()
			p1, err := st.Project(storage.Encoding{ProjectID: "lost"})
			if err != nil {
				t.Fatal(err)
			}
			p2, err := st.Project(storage.Encoding{ProjectID: "lost"})
			if err != nil {
				t.Fatal(err)
			}
			cp := p1.Checkpointer()
			const id = "s1"
			ev := func(s string) []session.Event {
				return []session.Event{session.UserEvent{Message: model.UserText(s)}, session.UserEvent{Message: model.UserText(s + "-b")}}
			}
			var head int64
			if !tc.first {
				if head, err = cp.Append(ctx, id, ev("one"), 0); err != nil {
					t.Fatal(err)
				}
			}
			expected := head
			if tc.slow {
				// Another Project writes: p1's cached head is stale, and an
				// append with AnyHead goes through the transaction.
				if head, err = p2.Checkpointer().Append(ctx, id, ev("other"), session.AnyHead); err != nil {
					t.Fatal(err)
				}
				expected = session.AnyHead
			}
			match := []byte("marker-xyzzy")
			if tc.match != "" {
				match = []byte(tc.match)
			}
			if tc.drop {
				proxy.DropRequest(match)
			} else {
				proxy.LoseReplyTo(match)
			}
			got, err := cp.Append(ctx, id, ev("marker-xyzzy"), expected)
			var de *postgres.DatabaseError
			switch {
			case tc.wantErr && !errors.As(err, &de):
				t.Errorf("Append = %d, %v; want a *postgres.DatabaseError", got, err)
			case !tc.wantErr && (err != nil || got != head+2):
				t.Errorf("Append = %d, %v; want %d, nil (the write landed)", got, err, head+2)
			}
			if tc.wantErr {
				// The retry writes the records once, after the head.
				if got, err = cp.Append(ctx, id, ev("marker-xyzzy"), session.AnyHead); err != nil || got != head+2 {
					t.Errorf("the retry = %d, %v; want %d", got, err, head+2)
				}
			}
			evs, err := cp.Read(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for i, e := range evs {
				if e.Seq != int64(i+1) {
					t.Errorf("record %d has seq %d", i, e.Seq)
				}
				texts = append(texts, fmt.Sprint(e.Event.(session.UserEvent).Message.Text))
			}
			if n := len(evs); n != int(head)+2 {
				t.Errorf("log of %d records %q, want %d", n, texts, head+2)
			}
			// The next append follows at once.
			if got, err := cp.Append(ctx, id, ev("next"), session.AnyHead); err != nil || got != head+4 {
				t.Errorf("the next append = %d, %v; want %d", got, err, head+4)
			}
		})
	}
}

// The check an append makes after losing its reply gives up, keeping the
// append's error in an *postgres.OutcomeUnknownError, when the server
// accepts the new connection and never answers: the caller, even with a ctx that never ends, is not held longer
// than about a lease's TTL.
func TestTheCheckAfterALostReplyIsBounded(t *testing.T) {
	const ttl = time.Second
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl})
	p, err := st.Project(storage.Encoding{ProjectID: "lost"})
	if err != nil {
		t.Fatal(err)
	}
	cp := p.Checkpointer()
	ctx := context.Background()
	if _, err := cp.Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("one")}}, 0); err != nil {
		t.Fatal(err)
	}
	proxy.Hole(true)
	proxy.LoseReplyTo([]byte("marker-mute"))
	start := time.Now()
	_, err = cp.Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("marker-mute")}}, 1)
	// The caller can tell it from a write that did not happen.
	var ou *postgres.OutcomeUnknownError
	if !errors.As(err, &ou) || ou.SessionID != "s1" || fmt.Sprint(ou.Seqs) != "[2]" || ou.Op != "append" {
		t.Errorf("Append = %v, want a *postgres.OutcomeUnknownError naming s1 and seq 2", err)
	}
	var de *postgres.DatabaseError
	if !errors.As(err, &de) {
		t.Errorf("Append = %v, want it to wrap the append's *postgres.DatabaseError", err)
	}
	t.Logf("Append after %v: %v", time.Since(start), err)
	if d := time.Since(start); d > ttl+2*time.Second {
		t.Errorf("Append returned after %v", d)
	}
	proxy.Hole(false)
	proxy.Cut()
}
